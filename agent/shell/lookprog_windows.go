package shell

import "strings"

// envNamesFold: environment names are case-insensitive on Windows ("Path"
// is PATH); the interpreter holds them upper-cased (expand.ListEnviron).
// Credential names are matched ignoring case on every system
// (gate.CredentialName).
const envNamesFold = true

// namesPath tells whether a command name is a path: a drive, a
// backslash or a slash in it (as the interpreter's LookPathDir takes it).
func namesPath(name string) bool { return strings.ContainsAny(name, `:\/`) }
