// Package roots chooses the workspace root eukhe mcp serves when it is
// given no --root: the first of the client's roots that is a directory
// here, asked in a handshake answered with eukhe's own identity before the
// session exists (roots.go); else the current directory. The first
// diagnostic line says which root is served and why; a root the client
// changes later is said, not followed (a session keeps one root for its
// life): on standard error here, and to the agent in the session's next
// tool result (agent, rootsnote.go).
package roots
