//go:build linux

package settings

// The seventeenth red team's attacks on the asking of the user's shells
// that HELD (the open ones are in redteam17_open_attacks_test.go, build
// tag open_attacks), kept as regression tests.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
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

// Held (was open): Paths.places reads the dirs and unknown from one answer (ShellPath)
// Attack (target 1b): the one-minute re-ask, between the two reads of
// one session's places. The user's ~/.bashrc adds the relative entry
// tools from a command's output (the scan cannot read it); it is slow
// once (a busy machine, or the agent's flooded history) and fast at the
// next session, a minute and more later. gate.Places takes PathDirs
// from ShellPathDirs and PathUnknown from ShellPathUnknown, two reads of
// the cache: the first finds the old unknown answer (the scan's dirs,
// without tools), drops it as expired, and the second asks the shell
// again, which now answers in time: PathUnknown false.
// THROUGH (severity high: for the whole first session after the re-ask
// the PATH is neither known nor unknown: the scan's guess with no
// command-name protection; with protected out of the auto set the agent
// writes tools/ls unasked and the user's next ls in the workspace runs
// it): the write of tools/ls is Inside.
// Root cause: gate/settings/paths.go Paths.places reads the answer twice
// (ShellPathDirs, ShellPathUnknown), and shellpath.go cachedShellPath
// drops an expired unknown answer after returning it, so the two reads
// can come from two different asks. One read (one *shellPathAnswer)
// must give both the dirs and unknown.
func TestRedteam17_ReAskBetweenTheTwoReadsOfOneSessionGivesOneAnswer(t *testing.T) {
	shortLinger(t, 200*time.Millisecond)
	env, ws := r17bashHome(t, "if [ -e \"$HOME/slow\" ]; then sleep 30; fi\nPATH=\"$(printf tools):$PATH\"\n")
	if err := os.WriteFile(filepath.Join(env["HOME"], "slow"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if c := r17write(env, ws, "ls"); c < gate.ClassProtected {
		t.Fatalf("control: with the slow shell a write of tools/ls is %v", c)
	}
	if err := os.Remove(filepath.Join(env["HOME"], "slow")); err != nil {
		t.Fatal(err)
	}
	r17ageAnswers(t, env)
	if c := r17write(env, ws, "ls"); c < gate.ClassProtected {
		t.Errorf("THROUGH: in the session after the re-ask, a write of tools/ls (tools on the user's PATH) is %v", c)
	}
	if c := r17write(env, ws, "ls"); c < gate.ClassProtected {
		t.Errorf("control: the next session's write of tools/ls is %v", c)
	}
}

// r17bashHome is a home whose ~/.bashrc is rc, with a workspace that has
// a tools directory.
func r17bashHome(t *testing.T, rc string) (env map[string]string, ws string) {
	t.Helper()
	_, env = attackHome(t, rc)
	ws = t.TempDir()
	if err := os.MkdirAll(filepath.Join(ws, "tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	return env, ws
}

// r17write is how a session's policy for env judges a write of
// tools/name in the workspace.
func r17write(env map[string]string, ws, name string) gate.Class {
	p, _ := Locate(env, []string{ws}).Policy(env)
	return p.ClassWrite(p.Resolve(ws, filepath.Join(ws, "tools", name)))
}

// r17ageAnswers makes the kept answers of the shells of env's home older
// than shellUnknownKept, as a session started a minute and more after
// the last ask finds them.
func r17ageAnswers(t *testing.T, env map[string]string) {
	t.Helper()
	aged := 0
	shellPaths.Range(func(k, v any) bool {
		if strings.HasPrefix(k.(string), env["HOME"]+"\x00") {
			v.(*shellPathAnswer).at = time.Now().Add(-2 * shellUnknownKept)
			aged++
		}
		return true
	})
	if aged == 0 {
		t.Fatal("control: no kept answer for the home")
	}
}
