package settings

import (
	"github.com/eukhe/eukhe/internal/testkit"

	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"pgregory.net/rapid"
)

// Whatever a startup file prints before and after, the PATH between the
// last pair of marks is what is read; a PATH with a line break in it is
// not a PATH.
func TestLaw_the_users_shell_PATH_is_read_between_the_marks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		noise := rapid.StringMatching(`[ -~\n]{0,40}`) // cannot make the mark's 21 characters
		path := rapid.StringMatching(`[./a-zA-Z0-9_:~-]{1,40}`).Draw(t, "path")
		out := noise.Draw(t, "before") + shellPathMark + "\n" + path + "\n" + shellPathMark + "\n" + noise.Draw(t, "after")
		got, ok := pathBetweenMarks(out)
		if !ok || got != path {
			t.Fatalf("read %q (%v) from %q, want %q", got, ok, out, path)
		}
	})
	for _, out := range []string{"", shellPathMark, shellPathMark + "\n" + shellPathMark, shellPathMark + "a\nb" + shellPathMark} {
		if p, ok := pathBetweenMarks(out); ok {
			t.Errorf("%q read as PATH %q", out, p)
		}
	}
}

// The shells asked: the user's SHELL, and each of bash, zsh and fish
// whose startup files the home has, each interactive and interactive
// login; none without an absolute home.
func TestShellInvocationsAskTheShellsTheHomeConfigures(t *testing.T) {
	files := map[string]bool{"/bin/zsh": true, "/h/.bashrc": true, "/h/.config/fish/config.fish": true}
	exists := func(p string) bool { return files[p] }
	look := func(name string) string { return "/usr/bin/" + name }
	got := shellInvocations(map[string]string{"HOME": "/h", "SHELL": "/bin/zsh"}, exists, look)
	var programs []string
	for _, inv := range got {
		if !slices.Contains(programs, inv[0]) {
			programs = append(programs, inv[0])
		}
		if inv[1] != "-i" || inv[len(inv)-1] != "-c" {
			t.Errorf("%v: not an interactive shell given a command", inv)
		}
	}
	if want := []string{"/bin/zsh", "/usr/bin/bash", "/usr/bin/fish"}; !slices.Equal(programs, want) {
		t.Errorf("asked %v, want %v", programs, want)
	}
	if len(got) != 6 {
		t.Errorf("%d invocations, want an interactive and a login one each: %v", len(got), got)
	}
	if got := shellInvocations(map[string]string{"HOME": "rel", "SHELL": "/bin/zsh"}, exists, look); got != nil {
		t.Errorf("a relative home asked %v", got)
	}
}

// A real bash: the PATH entries its startup files add (a relative one in
// ~/.bashrc, one only a login shell's ~/.profile adds) are the places'
// PATH directories too, after eukhe's own.
func TestShellPathDirsHasWhatTheUsersBashAdds(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed: ", err)
	}
	home := t.TempDir()
	for name, text := range map[string]string{
		".bashrc":  "echo a greeting\nexport PATH=./bin:$PATH\n",
		".profile": "PATH=\"node_modules/.bin:$PATH\"\n. \"$HOME/.bashrc\"\n",
	} {
		if err := os.WriteFile(filepath.Join(home, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home, "SHELL": bash, "PATH": os.Getenv("PATH")}
	got := cachedShellPathDirs(env)
	if !slices.Contains(got, "./bin") || !slices.Contains(got, "node_modules/.bin") {
		t.Fatalf("the shells' PATH entries: %q, want ./bin and node_modules/.bin", got)
	}
	for _, d := range filepath.SplitList(env["PATH"]) {
		if slices.Contains(got, d) {
			t.Errorf("%s is eukhe's own PATH, listed again", d)
		}
	}
	if _, err := os.Stat(filepath.Join(home, ".bash_history")); err == nil {
		t.Errorf("asking the shells wrote the user's ~/.bash_history")
	}
	pl := Locate(env, []string{filepath.Join(home, "proj")}).places(env, nil)
	if !slices.Contains(pl.PathDirs, "./bin") || pl.PathDirs[0] != filepath.SplitList(env["PATH"])[0] {
		t.Errorf("places' PATH directories %q: want eukhe's first, then ./bin", pl.PathDirs)
	}
}

// Through a terminal (Linux): a startup file that adds to PATH only on a
// terminal, and a prompt hook that adds before each prompt, are seen as
// the user's terminal sees them (the ninth red team's).
func TestShellPathDirsSeesTerminalOnlyAndPromptHookEntries(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed: ", err)
	}
	for name, rc := range map[string]string{
		"a tty guard":    "[ -t 0 ] || return\nexport PATH=./bin:$PATH\n",
		"PROMPT_COMMAND": "PROMPT_COMMAND='case \":$PATH:\" in *:./bin:*) ;; *) PATH=\"./bin:$PATH\";; esac'\n",
	} {
		t.Run(name, func(t *testing.T) {
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte(rc), 0o644); err != nil {
				t.Fatal(err)
			}
			got := cachedShellPathDirs(map[string]string{"HOME": home, "SHELL": bash, "PATH": os.Getenv("PATH")})
			if !slices.Contains(got, "./bin") {
				t.Fatalf("the shells' PATH entries: %q, want ./bin", got)
			}
		})
	}
}

// A startup file's tool that holds a lock past the wait (pyenv rehash
// does) is let go as it would be in a terminal: given time to finish, or
// hung up as a closed terminal is, so its EXIT trap runs and the lock is
// gone for the user's next shell. Killed outright at the wait, it left
// the lock, and every shell the user opened after waited a minute for it.
func TestAskingAShellPastTheWaitLetsItsTrapsRun(t *testing.T) {
	if testkit.StartedIgnoringHangup() {
		t.Log("started with the hangup ignored")
	}
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Fatal("bash is needed: ", err)
	}
	for name, c := range map[string]struct {
		sleep, trap string
		linger      time.Duration
	}{
		"it finishes in its time":              {"5", "", shellLinger},
		"it is hung up when it takes too long": {"60", "", time.Second},
		// the trap's own programs are its answer to the hangup: a
		// second SIGHUP (eukhe's, after the terminal's) killed the bash
		// running the trap, and a hangup of every newcomer of the
		// session killed its sleep; the rm after && never ran
		"its trap's programs are not hung up": {"60", "echo trap >> \"$HOME/log\"; sleep 0.5 && ", time.Second},
	} {
		t.Run(name, func(t *testing.T) {
			defer func(d time.Duration) { shellLinger = d }(shellLinger)
			shellLinger = c.linger
			home := t.TempDir()
			lock := filepath.Join(home, "shims.lock")
			tool := "#!" + bash + "\ntrap '" + c.trap + "rm -f \"$HOME/shims.lock\"' EXIT\n: > \"$HOME/shims.lock\"\nsleep " + c.sleep + "\n"
			if err := os.WriteFile(filepath.Join(home, "rehash"), []byte(tool), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, ".bashrc"), []byte("\"$HOME/rehash\"\nexport PATH=./bin:$PATH\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got := cachedShellPathDirs(map[string]string{"HOME": home, "SHELL": bash, "PATH": os.Getenv("PATH")}); !slices.Equal(got, []string{"./bin"}) {
				t.Errorf("a shell that never answered added %q; want the entry its ~/.bashrc names, ./bin", got)
			}
			for range 150 { // the shell is let go in the background
				if _, err := os.Stat(lock); os.IsNotExist(err) {
					return
				}
				time.Sleep(100 * time.Millisecond)
			}
			b, _ := os.ReadFile(filepath.Join(home, "log"))
			t.Fatalf("the startup file's lock %s is still there: its tool was killed before its trap ran (the trap's log: %q)", lock, b)
		})
	}
}

// eukhe started with the hangup ignored (under nohup, or by a client that
// ignores it) passed the ignoring on to the shell it asked, so its
// startup file's tool was never hung up and was killed without its trap:
// the user's lock was left (every CI rehearsal, run under nohup).
func TestAskingAShellUnderNohupHangsItsToolUp(t *testing.T) {
	if testkit.StartedIgnoringHangup() {
		t.Skip("the ask under nohup is the test's second process")
	}
	testkit.RunIgnoringHangup(t, "^TestAskingAShellPastTheWaitLetsItsTrapsRun$/^it_is_hung_up_when_it_takes_too_long$")
}
