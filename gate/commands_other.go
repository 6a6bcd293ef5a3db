//go:build !windows

package gate

// systemProgram reports whether name is another program on this system
// than the one the command table describes: none here.
func systemProgram(string) bool { return false }
