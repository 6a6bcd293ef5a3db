package gate

import "path/filepath"

// NativePath is a path the gate gives (a RealPath's, in the gate's form:
// "/C:/a/b", "/UNC/server/share/a") as Windows opens it: "C:\a\b",
// "\\server\share\a". Every use of a judged path for I/O, and every path
// shown to the user, goes through it (winpath.go).
func NativePath(p string) string { return filepath.FromSlash(nativeFromGate(p)) }
