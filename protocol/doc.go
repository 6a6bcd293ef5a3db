// Package protocol holds every wire type of eukhe: its own LSP methods,
// the eukhe/* extension spoken between `eukhe lsp` and its editor clients
// (eukhe.go, approve.go, settings.go), and the discovery socket's JSON
// file and lines (socket.go): the hello an `eukhe mcp` or `eukhe
// approvals` sends, its answer, an approvals terminal's lines, a
// subagent's question relayed to a headless parent. README.md beside this
// file documents every method and line: its params, its result, and who
// sends it. The package holds no logic and imports nothing of eukhe, so an
// editor client written in Go can use it alone.
//
// typescript_test.go keeps the VS Code extension's copy
// (editors/vscode/src/protocol.ts) in step: each of its interfaces has
// the JSON fields of the Go type it maps to, optional exactly when the Go
// field is omitempty, and its method names, answers and decisions are the
// Go constants.
package protocol
