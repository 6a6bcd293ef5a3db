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

// Attack (target 4; severity high where confinement is off): the user
// runs with "shell.confinement": "off" and the auto set {read, write,
// exec} — the guide's promise is that a step running a program then asks
// for write, outside, protected and net. `trap 'PROGRAM' ERR; false`
// asks nothing: the trap step is a builtin, and the trap's program runs
// when false fails, unconfined, judged {exec} by the runtime check. It
// plants .git/hooks/pre-commit, which the user's next commit runs.
// Root cause (guess): startsProgram does not count trap (its argument is
// a script), and the runtime check (shell's run.call → judge) never
// widens what it judges with gate.Unconfined.
func TestAttackRound13Open_trap_runs_an_unconfined_program_unasked(t *testing.T) {
	needEdgeTools(t)
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	writeFile(t, filepath.Join(w.home, ".config", "eukhe", "settings.json"),
		`{"shell.autoEffects": ["read", "write", "exec"], "shell.confinement": "off"}`, 0o644)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	hook := filepath.Join(w.root, ".git", "hooks", "pre-commit")
	direct, _ := p.call("bash", map[string]any{"script": r3py("open('.g'+'it/hooks/pre-commit', 'w').write('planted')")})
	if _, err := os.Stat(hook); err == nil {
		t.Fatalf("the program ran unasked without the trap:\n%s", direct)
	}
	reply, _ := p.call("bash", map[string]any{"script": "trap " + shellQuote(r3py("open('.g'+'it/hooks/pre-commit', 'w').write('planted')")) + " ERR; false"})
	if b, err := os.ReadFile(hook); err == nil {
		t.Errorf("ESCAPED: the trap's program planted the hook %q unasked:\n%s\n(the same program as a step: %s)", b, reply, direct)
	}
}

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
