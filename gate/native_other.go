//go:build !windows

package gate

// NativePath is a path the gate gives as the system opens it: the same
// path here (the gate's form is the native one but on Windows).
func NativePath(p string) string { return p }
