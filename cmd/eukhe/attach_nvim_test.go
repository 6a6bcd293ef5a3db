package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// An agent over a real eukhe mcp attaches through the socket to the eukhe
// lsp that real Neovim runs: its read sees unsaved buffer text, and its
// gated steps are answered through Neovim's showMessageRequest.
func TestLSPWithNeovimAnAttachedAgentIsAskedThroughShowMessageRequest(t *testing.T) {
	w := newNvimWorld(t)
	for _, kv := range attachEnv(t) {
		k, v, _ := strings.Cut(kv, "=")
		if k != "PATH" {
			t.Setenv(k, v)
		}
	}
	res := w.run("agent.lua")
	if r := str(res, "read"); !strings.Contains(r, "2:unsaved two") {
		t.Errorf("the agent's read of a buffer with unsaved text:\n%s\neukhe mcp said:\n%s", r, str(res, "mcp_stderr"))
	}
	if b, err := os.ReadFile(filepath.Join(w.root, "allowed.txt")); err != nil || string(b) != "yes\n" {
		t.Errorf("the allowed step: %q %v\n%s", b, err, str(res, "allowed"))
	}
	if _, err := os.Stat(filepath.Join(w.root, "denied.txt")); err == nil || !strings.Contains(str(res, "denied"), "the user denied it") {
		t.Errorf("the denied step ran or said:\n%s", str(res, "denied"))
	}
	asked, _ := res["asked"].([]any)
	if len(asked) != 2 || !strings.Contains(asked[0].(string), "echo yes > allowed.txt") {
		t.Errorf("Neovim was asked %v", asked)
	}
}
