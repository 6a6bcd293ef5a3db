// Package protocol holds the wire types of eukhe's own LSP methods, the
// eukhe/* extension spoken between `eukhe lsp` and its editor clients.
// README.md beside this file documents every method: its params, its
// result, and who sends it. The package holds no logic and imports nothing
// of eukhe, so an editor client written in Go can use it alone.
package protocol
