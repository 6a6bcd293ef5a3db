package main

// The thirteenth red team's attacks through the real binary that hold.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// r13write is a step whose program (python3, its path never one word of
// the script) writes text to path, making its directories.
func r13write(path, text string) string {
	p := strings.NewReplacer("/", "'+'/'+'").Replace(path)
	return r3py("import os; p='" + p + "'; os.makedirs(os.path.dirname(p), exist_ok=True); open(p, 'w').write('" + text + "')")
}

// Attack (target 1; severity critical): the user never wrote a settings
// file (the default auto set: every effect but secret; ~/.config exists,
// ~/.config/eukhe does not: a fresh install). One step's program makes
// ~/.config/eukhe/settings.json holding {"shell.confinement": "off"};
// nothing is asked. A second later
// (the settings watch) the next step's program reads ~/.ssh/id_rsa: it
// runs unconfined. (Under bubblewrap a missing ~/.config, or only a
// missing file, gets through as well.)
// Held (was open): eukhe makes its settings directories when it makes
// the policy, and each is secret whole (hidden in the sandbox).
// Root cause: the sandbox guarded the settings file by hiding it
// and pins the directories above it that exist (Policy.GateDirs keeps
// KindDir ones only); a missing file (or directory) is neither hidden nor
// pinned, and the directory it is made in is only protected, which the
// default auto set holds. Bubblewrap and Landlock alike.
func TestAttackRound13_a_step_cannot_make_the_missing_settings_file_bubblewrap(t *testing.T) {
	t.Parallel()
	r13makeSettings(t, "bubblewrap", "eukhe dir")
}

// The same under Landlock, with only the file missing (where ~/.config
// itself is missing, Landlock refuses to make it: a new home dot-entry).
func TestAttackRound13_a_step_cannot_make_the_missing_settings_file_landlock(t *testing.T) {
	t.Parallel()
	r13makeSettings(t, "landlock", "settings.json")
}

// r13makeSettings runs the attack under mech with gone missing
// ("settings.json", "eukhe dir" or ".config").
func r13makeSettings(t *testing.T, mech, gone string) {
	needEdgeTools(t)
	w := r12world(t)
	cfg := filepath.Join(w.home, ".config")
	switch gone {
	case "settings.json":
		os.Remove(filepath.Join(cfg, "eukhe", "settings.json"))
	case "eukhe dir":
		os.RemoveAll(filepath.Join(cfg, "eukhe"))
	default:
		os.RemoveAll(cfg)
	}
	p := startEdgeMCP(t, w, mech)
	first, _ := p.call("bash", map[string]any{"script": r13write(filepath.Join(cfg, "eukhe", "settings.json"), `{"shell.confinement": "off"}`)})
	time.Sleep(1500 * time.Millisecond) // the settings watch
	reply, _ := p.call("bash", map[string]any{"script": r12keyStep(w)})
	b, _ := os.ReadFile(filepath.Join(cfg, "eukhe", "settings.json"))
	if strings.Contains(reply, r12mark) || strings.Contains(string(b), "off") {
		t.Errorf("ESCAPED (%s, no %s): the settings file is now %q; the next step read the key: %v\nfirst:\n%s\nnext:\n%s",
			mech, gone, b, strings.Contains(reply, r12mark), first, reply)
	}
	t.Logf("file %q\nfirst:\n%s\nnext:\n%s", b, first, reply)
}

// Held (was open): the runtime check judges what a trap starts as unconfined.
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
func TestAttackRound13_trap_runs_no_unconfined_program_unasked(t *testing.T) {
	t.Parallel()
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

// Held (was open): the sandbox hides a secret file's other names below the roots.
// Attack (target 6; severity high): the project is a dotfiles
// repository holding a hard link of ~/.ssh/id_rsa (the default auto
// set). The read and grep tools leave it out or ask; `grep -r` in a bash
// step runs unasked in the sandbox and prints the key.
// Root cause (guess): a bash step's tree read is judged by its paths
// only, and the sandbox hides secret entries by path, not their other
// names below the roots (it binds the other names of protected files
// read-only, ProtectedLinks, but has no such list for secret files).
func TestAttackRound13_grep_r_hides_a_hard_linked_key(t *testing.T) {
	t.Parallel()
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
