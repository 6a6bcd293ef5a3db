//go:build open_attacks

package main

// The thirteenth red team's attacks that got through, driven through the
// real binary (`eukhe mcp`, headless): each asserts the safe outcome and
// fails today.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 6; severity high): the project is a dotfiles
// repository holding a hard link of ~/.ssh/id_rsa (the default auto
// set). The read and grep tools leave it out or ask; `grep -r` in a bash
// step runs unasked in the sandbox and prints the key.
// Root cause (guess): a bash step's tree read is judged by its paths
// only, and the sandbox hides secret entries by path, not their other
// names below the roots (it binds the other names of protected files
// read-only, ProtectedLinks, but has no such list for secret files).
func TestAttackRound13Open_grep_r_prints_a_hard_linked_key(t *testing.T) {
	needEdgeTools(t)
	w := r12world(t)
	if err := os.Link(filepath.Join(w.home, ".ssh", "id_rsa"), filepath.Join(w.root, "id_rsa.bak")); err != nil {
		t.Skip("no hard links here:", err)
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	read, _ := p.call("read", map[string]any{"path": "id_rsa.bak"})
	reply, _ := p.call("bash", map[string]any{"script": "grep -r PRIVATE ."})
	if strings.Contains(reply, r12mark) {
		t.Errorf("ESCAPED: grep -r printed the key through its hard link:\n%s\n(the read tool: %s)", reply, read)
	}
}
