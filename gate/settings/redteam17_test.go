//go:build linux

package settings

// The seventeenth red team's attacks on the asking of the user's shells
// that HELD (the open ones are in redteam17_open_attacks_test.go, build
// tag open_attacks), kept as regression tests.

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Attack (target 1b, a shell that answers in time): the user's zsh adds
// the relative entry tools at its prompt rather than in its startup
// files' body: a precmd hook (add-zsh-hook), zle-line-init, a sched +0
// event, bash's PROMPT_COMMAND. (The entry is spelled so the scan cannot
// read it.)
// Held: the ask's answer comes after the first prompt's hooks, tools is
// on the PATH it gives, and a write of tools/ls is protected.
func TestRedteam17_PromptHooksEntryIsOnTheAnsweredPath(t *testing.T) {
	shortLinger(t, 200*time.Millisecond)
	type home struct{ shell, file, rc string }
	homes := []home{
		{"zsh", ".zshrc", "autoload -Uz add-zsh-hook\nr17() { path=(${(s: :):-tools} $path) }\nadd-zsh-hook precmd r17\n"},
		{"zsh", ".zshrc", "zle-line-init() { path=(${(s: :):-tools} $path) }\nzle -N zle-line-init\n"},
		{"zsh", ".zshrc", "zmodload zsh/sched\nsched +0 'path=(${(s: :):-tools} $path)'\n"},
		{"bash", ".bashrc", "PROMPT_COMMAND='case :$PATH: in *:tools:*) ;; *) PATH=$(printf tools):$PATH;; esac'\n"},
	}
	for _, h := range homes {
		sh, err := exec.LookPath(h.shell)
		if err != nil {
			t.Logf("%s is not installed", h.shell)
			continue
		}
		dir, ws := t.TempDir(), t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, h.file), []byte(h.rc), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
			t.Fatal(err)
		}
		env := map[string]string{"HOME": dir, "SHELL": sh, "PATH": os.Getenv("PATH")}
		p, _ := Locate(env, []string{ws}).Policy(env)
		if c := p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", "ls"))); c < gate.ClassProtected {
			t.Errorf("%s %q: a write of tools/ls is %v (unknown %v)", h.shell, h.rc, c, p.PathUnknown())
		}
	}
}
