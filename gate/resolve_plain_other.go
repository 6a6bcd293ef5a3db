//go:build !linux

package gate

// plainOS cannot tell at once here: Resolve walks each path part by part.
func plainOS(string) bool { return false }
