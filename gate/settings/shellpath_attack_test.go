//go:build linux

package settings

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The tenth red team's startup files against the ask of the user's
// shells: whatever they do, the answer comes within shellPathWait (and a
// little), the shell and its group are gone after shellLinger and
// shellHangupGrace, no goroutine is left, the user's files are not
// written, and no PATH but the one printed after the typed command is
// read.

// attackHome is a home whose ~/.bashrc is rc, with a bash to ask.
func attackHome(t *testing.T, rc string) (bash string, env map[string]string) {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed: ", err)
	}
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	return bash, map[string]string{"HOME": home, "SHELL": bash, "PATH": os.Getenv("PATH")}
}

// shortLinger makes the shells asked lingerless for the test.
func shortLinger(t *testing.T, d time.Duration) {
	old := shellLinger
	shellLinger = d
	t.Cleanup(func() { shellLinger = old })
}

// askTimed asks the interactive bash on a terminal, and says how long it
// took.
func askTimed(bash string, env map[string]string) (string, bool, time.Duration) {
	start := time.Now()
	p, ok := askShellPath(shellInvocation{bash, "-i", "-c"}, env)
	return p, ok, time.Since(start)
}

// bound is how long an answer may take: the wait, and a little for a
// loaded machine.
const bound = shellPathWait + time.Second

// gone waits until the process whose pid the startup file wrote to
// $HOME/name is no more (or a zombie), and until the goroutines are back
// to before.
func gone(t *testing.T, env map[string]string, name string, within time.Duration, goroutines int) {
	t.Helper()
	deadline := time.Now().Add(within)
	// the file is made before its pid is written in it (echo $$ > FILE):
	// read until it holds one
	var pid int
	for {
		b, err := os.ReadFile(filepath.Join(env["HOME"], name))
		if err != nil {
			t.Fatalf("the startup file wrote no pid: %v", err)
		}
		if pid, err = strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s holds no pid: %q", name, b)
		}
		time.Sleep(10 * time.Millisecond)
	}
	for {
		st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		alive := err == nil && !strings.Contains(string(st), ") Z ")
		more := runtime.NumGoroutine() - goroutines
		if !alive && more <= 0 {
			return
		}
		if time.Now().After(deadline) {
			if alive {
				_ = syscall.Kill(pid, syscall.SIGKILL)
				t.Fatalf("process %d the startup file started is still running %v after the ask", pid, within)
			}
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines more than before the ask:\n%s", more, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// A startup file that traps the hangup and never reaches its prompt: no
// answer at the wait, and it and what it started are killed at the
// hangup's grace.
func TestShellAttack_a_startup_file_that_traps_the_hangup_is_killed(t *testing.T) {
	shortLinger(t, 500*time.Millisecond)
	before := runtime.NumGoroutine()
	bash, env := attackHome(t, "trap '' HUP TERM INT\necho $$ > \"$HOME/shell.pid\"\nsleep 1000 &\necho $! > \"$HOME/child.pid\"\nwhile :; do sleep 1; done\n")
	p, ok, took := askTimed(bash, env)
	if ok || took > bound {
		t.Fatalf("answer %q (%v) after %v, want none within %v", p, ok, took, bound)
	}
	gone(t, env, "shell.pid", shellLinger+shellHangupGrace+3*time.Second, before)
	gone(t, env, "child.pid", time.Second, before)
}

// A startup file that reads the terminal (read -r) eats the typed
// command: no answer, no PATH of its making, and no history written
// when it is hung up.
func TestShellAttack_a_startup_file_that_eats_the_typed_command(t *testing.T) {
	shortLinger(t, 500*time.Millisecond)
	before := runtime.NumGoroutine()
	bash, env := attackHome(t, "echo $$ > \"$HOME/shell.pid\"\nread -r line\nexport PATH=./bin:$PATH\n")
	p, ok, took := askTimed(bash, env)
	if took > bound {
		t.Fatalf("the answer took %v", took)
	}
	if ok {
		t.Fatalf("a shell whose typed command was eaten answered %q", p)
	}
	gone(t, env, "shell.pid", shellLinger+shellHangupGrace+3*time.Second, before)
	if _, err := os.Stat(filepath.Join(env["HOME"], ".bash_history")); err == nil {
		t.Errorf("the ask wrote the user's ~/.bash_history")
	}
}

// A startup file that prints marks of its own and a PATH between (a
// guess at the mark, the mark's first half from the typed line it read
// and put back): not read as the shell's PATH.
func TestShellAttack_a_startup_file_that_prints_a_fake_mark(t *testing.T) {
	for name, rc := range map[string]string{
		"a guessed mark":       "echo EUKHE-SHELL-PATH-0000000000000000; echo /fake/bin; echo EUKHE-SHELL-PATH-0000000000000000\n",
		"a mark after the ask": "PROMPT_COMMAND='echo EUKHE-SHELL-PATH-; echo /fake/bin; echo EUKHE-SHELL-PATH-'\n",
		"the echo of the line": "stty echo; printf 'printenv PATH\\n/fake/bin\\n'\n",
	} {
		t.Run(name, func(t *testing.T) {
			shortLinger(t, 500*time.Millisecond)
			bash, env := attackHome(t, rc)
			p, ok, took := askTimed(bash, env)
			if took > bound || !ok || strings.Contains(p, "/fake/bin") {
				t.Fatalf("answer %q (%v) after %v: want the shell's own PATH", p, ok, took)
			}
		})
	}
}

// A startup file whose output floods the terminal: the answer still
// comes within the bound (none, past the 1 MiB kept), and the shell is
// gone after.
func TestShellAttack_a_startup_file_that_floods_the_terminal(t *testing.T) {
	shortLinger(t, 500*time.Millisecond)
	before := runtime.NumGoroutine()
	bash, env := attackHome(t, "echo $$ > \"$HOME/shell.pid\"\nhead -c 50000000 /dev/zero | tr '\\0' x\nexport PATH=./bin:$PATH\n")
	_, _, took := askTimed(bash, env)
	if took > bound {
		t.Fatalf("the answer took %v", took)
	}
	gone(t, env, "shell.pid", shellLinger+shellHangupGrace+5*time.Second, before)
}

// A startup file that starts a daemon out of the shell's group (setsid,
// nohup and disown) holding the terminal: the answer comes, the shell
// is gone at once, and no goroutine waits on the daemon.
func TestShellAttack_a_daemon_that_leaves_the_group(t *testing.T) {
	for name, start := range map[string]string{
		"setsid": "setsid sleep 1000 </dev/tty >/dev/tty 2>&1 &\necho $! > \"$HOME/daemon.pid\"\n",
		"nohup":  "nohup sleep 1000 >/dev/null 2>&1 &\necho $! > \"$HOME/daemon.pid\"\ndisown\n",
	} {
		t.Run(name, func(t *testing.T) {
			shortLinger(t, 500*time.Millisecond)
			before := runtime.NumGoroutine()
			bash, env := attackHome(t, "echo $$ > \"$HOME/shell.pid\"\n"+start+"export PATH=./bin:$PATH\n")
			p, ok, took := askTimed(bash, env)
			if !ok || took > bound || !slices.Contains(filepath.SplitList(p), "./bin") {
				t.Fatalf("answer %q (%v) after %v, want ./bin within %v", p, ok, took, bound)
			}
			defer func() {
				if b, err := os.ReadFile(filepath.Join(env["HOME"], "daemon.pid")); err == nil {
					if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil {
						_ = syscall.Kill(pid, syscall.SIGKILL)
					}
				}
			}()
			gone(t, env, "shell.pid", shellLinger+shellHangupGrace+3*time.Second, before)
		})
	}
}

// A shell that exits at once (a ~/.bashrc that ends in exit, or in exec
// of a program that is gone) has nothing more to say: the ask does not
// wait the whole shellPathWait for it.
func TestShellAttack_a_shell_that_exits_at_once_is_not_waited_for(t *testing.T) {
	for name, rc := range map[string]string{
		"exit":            "exit 0\n",
		"exec of nothing": "exec /nonexistent/zsh\n",
	} {
		t.Run(name, func(t *testing.T) {
			bash, env := attackHome(t, rc)
			_, ok, took := askTimed(bash, env)
			if ok || took > time.Second {
				t.Fatalf("answer %v after %v, want none at once", ok, took)
			}
		})
	}
}

// A non-interactive bash asked through pipes (BASH_ENV) that traps the
// hangup: the answer still comes within the wait; its hangup and kill
// happen in the background, as on a terminal.
func TestShellAttack_a_BASH_ENV_that_traps_the_hangup_answers_within_the_wait(t *testing.T) {
	bash, env := attackHome(t, "")
	benv := filepath.Join(env["HOME"], ".bashenv")
	if err := os.WriteFile(benv, []byte("trap '' HUP\necho $$ > \"$HOME/shell.pid\"\nsleep 60\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	env["BASH_ENV"] = benv
	before := runtime.NumGoroutine()
	start := time.Now()
	if p, ok := askShellPath(shellInvocation{bash, "-c"}, env); ok {
		t.Fatalf("answered %q", p)
	}
	if took := time.Since(start); took > bound {
		t.Fatalf("the answer took %v, want at most %v", took, bound)
	}
	gone(t, env, "shell.pid", shellHangupGrace+3*time.Second, before)
}

// Many asks at once, of different keys and of one: each answers within
// the bound, one key's shells are started once.
func TestShellAttack_many_asks_at_once(t *testing.T) {
	shortLinger(t, 500*time.Millisecond)
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed: ", err)
	}
	before := runtime.NumGoroutine()
	const keys, per = 8, 4
	homes := make([]string, keys)
	for i := range homes {
		homes[i] = t.TempDir()
		rc := "echo x >> \"$HOME/started\"\nexport PATH=./bin" + strconv.Itoa(i) + ":$PATH\n"
		if err := os.WriteFile(filepath.Join(homes[i], ".bashrc"), []byte(rc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make(chan string, keys*per)
	start := time.Now()
	for i := range keys * per {
		wg.Add(1)
		go func() {
			defer wg.Done()
			h := homes[i%keys]
			got := cachedShellPathDirs(map[string]string{"HOME": h, "SHELL": bash, "PATH": os.Getenv("PATH")})
			if want := "./bin" + strconv.Itoa(i%keys); !slices.Contains(got, want) {
				errs <- h + ": " + strings.Join(got, ":") + ", want " + want
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	if took := time.Since(start); took > 2*bound {
		t.Errorf("%d asks of %d keys took %v", keys*per, keys, took)
	}
	for _, h := range homes {
		b, _ := os.ReadFile(filepath.Join(h, "started"))
		if n := strings.Count(string(b), "x"); n != 1 { // the interactive one; the login one reads no ~/.bashrc
			t.Errorf("%s: the shells read ~/.bashrc %d times, want once", h, n)
		}
	}
	deadline := time.Now().Add(shellLinger + shellHangupGrace + 5*time.Second)
	for runtime.NumGoroutine() > before && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	if more := runtime.NumGoroutine() - before; more > 0 {
		t.Errorf("%d goroutines left after the asks", more)
	}
}

// A startup file that keeps its history whatever is typed (readonly
// HISTFILE, as hardening guides set for auditing; history -a at each
// prompt): the ask writes nothing to the user's history.
func TestShellAttack_a_readonly_HISTFILE_gets_no_line_of_the_ask(t *testing.T) {
	for name, rc := range map[string]string{
		"readonly":     "HISTFILE=$HOME/.bash_history; readonly HISTFILE\nexport PATH=./bin:$PATH\n",
		"history -a":   "HISTCONTROL=; PROMPT_COMMAND='history -a'\nexport PATH=./bin:$PATH\n",
		"both, append": "shopt -s histappend; HISTFILE=$HOME/.bash_history; readonly HISTFILE HISTSIZE HISTFILESIZE; PROMPT_COMMAND='history -a'\nexport PATH=./bin:$PATH\n",
	} {
		t.Run(name, func(t *testing.T) {
			shortLinger(t, 500*time.Millisecond)
			bash, env := attackHome(t, rc)
			hist := filepath.Join(env["HOME"], ".bash_history")
			if err := os.WriteFile(hist, []byte("ls\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if p, ok, took := askTimed(bash, env); !ok || took > bound || !slices.Contains(filepath.SplitList(p), "./bin") {
				t.Fatalf("answer %q (%v) after %v", p, ok, took)
			}
			time.Sleep(shellLinger) // the shell reaches its exit
			if b, err := os.ReadFile(hist); err != nil || string(b) != "ls\n" {
				t.Errorf("the user's history after the ask: %q (%v), want it as it was", b, err)
			}
		})
	}
}

// The same for zsh: a ~/.zshrc that keeps its history (readonly
// HISTFILE, INC_APPEND_HISTORY writes each line as it is typed, SHARE_HISTORY).
func TestShellAttack_zsh_history_gets_no_line_of_the_ask(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		testkit.Missing(t, "zsh is not installed: the zsh history attack needs it (apt-get install zsh; .ci/run does)")
	}
	for name, rc := range map[string]string{
		"plain":           "HISTFILE=$HOME/.zsh_history; SAVEHIST=100; HISTSIZE=100\nexport PATH=./bin:$PATH\n",
		"readonly":        "HISTFILE=$HOME/.zsh_history; SAVEHIST=100; HISTSIZE=100; readonly HISTFILE\nexport PATH=./bin:$PATH\n",
		"inc_append":      "HISTFILE=$HOME/.zsh_history; SAVEHIST=100; HISTSIZE=100; setopt INC_APPEND_HISTORY\nexport PATH=./bin:$PATH\n",
		"share, readonly": "HISTFILE=$HOME/.zsh_history; SAVEHIST=100; HISTSIZE=100; setopt SHARE_HISTORY; readonly HISTFILE SAVEHIST HISTSIZE\nexport PATH=./bin:$PATH\n",
	} {
		t.Run(name, func(t *testing.T) {
			shortLinger(t, 500*time.Millisecond)
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte(rc), 0o644); err != nil {
				t.Fatal(err)
			}
			hist := filepath.Join(home, ".zsh_history")
			if err := os.WriteFile(hist, []byte("ls\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			env := map[string]string{"HOME": home, "SHELL": zsh, "PATH": os.Getenv("PATH")}
			start := time.Now()
			p, ok := askShellPath(shellInvocation{zsh, "-i", "-c"}, env)
			if took := time.Since(start); !ok || took > bound || !slices.Contains(filepath.SplitList(p), "./bin") {
				t.Errorf("answer %q (%v) after %v", p, ok, took)
			}
			time.Sleep(shellLinger + shellHangupGrace + 500*time.Millisecond)
			if b, err := os.ReadFile(hist); err != nil || string(b) != "ls\n" {
				t.Errorf("the user's history after the ask: %q (%v), want it as it was", b, err)
			}
		})
	}
}
