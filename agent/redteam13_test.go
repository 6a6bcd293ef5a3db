//go:build linux

package agent

// The thirteenth red team's attacks on the last stop's changes, through
// the real bash tool of a headless session: a step under
// shell.confinement "off" that starts a program without being counted as
// one (gate.Unconfined, shell.WidenUnconfined). Each test asserts the
// safe outcome; these held. The attacks that got through are in
// redteam13_open13_test.go (build tag open_attacks).

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/lsp/discovery"
)

// r13world is a headless session whose settings the test gives, with a
// client that denies every question and records it.
type r13world struct {
	s    *Session
	dir  string
	home string
	mu   sync.Mutex
	set  settings.Settings
	qs   []gate.Question
	// onAsk, when set, answers a question (called without the lock);
	// nil denies.
	onAsk func(gate.Question) gate.Answer
}

func (w *r13world) settings() settings.Settings {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.set
}

func (w *r13world) asked() []gate.Question {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]gate.Question(nil), w.qs...)
}

// r13session opens the session: auto set auto, shell.confinement conf,
// a workspace holding .git/hooks.
func r13session(t *testing.T, auto gate.Effects, conf string) *r13world {
	t.Helper()
	return r13sessionEnv(t, auto, conf, nil)
}

// r13sessionEnv is r13session with more of the session's environment
// ("$HOME" in a value is the test's home).
func r13sessionEnv(t *testing.T, auto gate.Effects, conf string, env map[string]string) *r13world {
	t.Helper()
	w := &r13world{dir: t.TempDir(), home: t.TempDir()}
	if err := os.MkdirAll(filepath.Join(w.dir, ".git", "hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.set = settings.Defaults()
	w.set.AutoEffects = gate.AutoOf(auto)
	w.set.Confinement = conf
	e := map[string]string{"HOME": w.home, "PATH": os.Getenv("PATH")}
	for k, v := range env {
		e[k] = strings.ReplaceAll(v, "$HOME", w.home)
	}
	paths := settings.Locate(e, []string{w.dir})
	client := func(_ context.Context, q gate.Question) gate.Answer {
		w.mu.Lock()
		w.qs = append(w.qs, q)
		on := w.onAsk
		w.mu.Unlock()
		if on != nil {
			return on(q)
		}
		return gate.Deny
	}
	host := &Headless{RootDir: w.dir, Disk: docs.NewDisk(), Paths: paths.Places(e).Policy(gate.OS), Client: client,
		Current: w.settings}
	s, err := Open(Options{Host: host, Env: e, ShellBudget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	w.s = s
	t.Cleanup(func() { s.Close() })
	return w
}

// bash runs one bash call.
func (w *r13world) bash(t *testing.T, script string) Result {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"script": script})
	r, err := w.s.Call(context.Background(), "bash", raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// r13plant is a program the gate cannot see into (perl, not in the
// command table: exec only) that writes a git hook.
const r13plant = `perl -e 'open F, ">", ".g"."it/hooks/pre-commit" or die; print F "planted"'`

// r13rev is s reversed: a path given to a program so that the gate does
// not see it (the sandbox is what such a test attacks).
func r13rev(s string) string {
	b := []byte(s)
	for i, j := 0, len(b)-1; i < j; i, j = i+1, j-1 {
		b[i], b[j] = b[j], b[i]
	}
	return string(b)
}

// r13eachSandbox runs f under bubblewrap and under Landlock (forced
// with shell.ForceEnv), each where it works here.
func r13eachSandbox(t *testing.T, f func(*testing.T)) {
	for _, m := range []shell.Mechanism{shell.Bubblewrap, shell.Landlock} {
		t.Run(string(m), func(t *testing.T) {
			t.Setenv(shell.ForceEnv, string(m))
			if shell.Detect().Mechanism != m {
				testkit.Missing(t, string(m)+" does not work here (bubblewrap: apt-get install bubblewrap; Landlock: a kernel of 5.13 or later with it on)")
			}
			f(t)
		})
	}
}

// r13hook tells whether the hook was planted.
func (w *r13world) hook() bool {
	b, err := os.ReadFile(filepath.Join(w.dir, ".git", "hooks", "pre-commit"))
	return err == nil && strings.Contains(string(b), "planted")
}

// Attack (target 4, shell.confinement "off", auto set {read, write,
// exec}): a program started where the step's text is not a program's —
// a command substitution in an assignment or an argument, an arithmetic
// subscript, a process substitution, eval of a made string, an alias, a
// function named like a builtin, let with a subscript — plants a git
// hook. Each must be asked for protected (and denied here).
// Class: a program not counted as one (startsProgram).
func TestRedteam13_UnconfinedProgramsByOtherSpellings(t *testing.T) {
	p := `perl -e "open F, q(>), q(.g).q(it/hooks/pre-commit); print F q(planted)"`
	scripts := []string{
		r13plant,
		"x=$(" + r13plant + ")",
		"echo $(" + r13plant + ")",
		": $(( a[$(" + r13plant + ")] ))",
		"cat <(" + r13plant + ")",
		"eval \"$(echo perl -e \\'1\\')\"",
		"f() { " + r13plant + "; }; f",
		"cd() { " + p + "; }; cd .",
		"echo() { " + p + "; }; echo hi",
		"shopt -s expand_aliases; alias p='" + p + "'\np",
		"declare -a a; let 'a[$(" + p + ")]=1'",
		"v='a[$(" + p + ")]'; (( v ))",
		"v='a[$(" + p + ")]'; [[ $v -eq 1 ]]",
		"v='a[$(" + p + ")]'; read \"$v\" <<< x",
		"v='a[$(" + p + ")]'; declare \"$v=1\"",
		"v='a[$(" + p + ")]'; echo $(( v ))",
		"v='a[$(" + p + ")]'; printf -v \"$v\" x",
		"v='a[$(" + p + ")]'; unset \"$v\"",
		"v='a[$(" + p + ")]'; echo ${!v}",
		"builtin trap '" + p + "' ERR; false",
		"command trap '" + p + "' ERR; false",
	}
	w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "off")
	for _, sc := range scripts {
		r := w.bash(t, sc)
		if w.hook() {
			t.Errorf("ESCAPED: %q planted a hook unasked (asked %d):\n%s", sc, len(w.asked()), r.Text())
		}
		os.Remove(filepath.Join(w.dir, ".git", "hooks", "pre-commit"))
	}
}

// Attack (target 1, bubblewrap, the default auto set: every effect but
// secret; the user settings file exists): an opaque program (perl)
// renames ~/.config away and links it to a workspace directory holding a
// settings file, renames the home itself, writes the file through
// /proc/self/root, and swaps ~/.config/eukhe for a directory of its own.
// The host's settings file must stay "{}" (the pinned directories give
// EBUSY). Where the file does not exist yet, it is made: see
// redteam13_open13_test.go.
// Class: replacing the settings file by a directory above it.
func TestRedteam13_SandboxedStepReplacesSettingsFile(t *testing.T) {
	r13eachSandbox(t, r13Redteam13_SandboxedStepReplacesSettingsFile)
}

func r13Redteam13_SandboxedStepReplacesSettingsFile(t *testing.T) {
	all := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)
	evil := `{"shell.confinement": "off"}`
	mk := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	withFile := func(h string) {
		mk(h + "/.config/eukhe")
		if err := os.WriteFile(h+"/.config/eukhe/settings.json", []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		setup func(home string)
		perl  string
	}{
		{"rename-config", withFile, `use File::Path qw(make_path); make_path("cfg/eukhe"); open F, ">", "cfg/eukhe/settings.json" or die; print F $ARGV[0]; close F; rename("$H/.config", "$H/.config.old") or die "rename: $!"; symlink("$W/cfg", "$H/.config") or die "symlink: $!"`},
		{"rename-home", withFile, `use File::Path qw(make_path); rename("$H", "$H.old") or die "rename: $!"; make_path("$H/.config/eukhe"); open F, ">", "$H/.config/eukhe/settings.json" or die; print F $ARGV[0]; close F`},
		{"proc-root", withFile, `open F, ">", "/proc/self/root$H/.config/eukhe/settings.json" or die "open: $!"; print F $ARGV[0]; close F or die`},
		{"rename-eukhe-dir", withFile, `use File::Path qw(make_path); make_path("e2"); open F, ">", "e2/settings.json" or die; print F $ARGV[0]; close F; rename("$H/.config/eukhe", "$H/.config/e.old") or die "rename: $!"; rename("e2", "$H/.config/eukhe") or die "rename2: $!"`},
	}
	for _, c := range cases {
		w := r13session(t, all, "auto")
		c.setup(w.home)
		// the home is given reversed as an argument (the step's
		// environment is the test process's, not the session's, and the
		// gate must not see the path: the sandbox is what is attacked)
		r := w.bash(t, "perl -MCwd -e 'my $H = reverse $ARGV[1]; my $W = getcwd(); "+c.perl+"' '"+evil+"' '"+r13rev(w.home)+"'")
		b, _ := os.ReadFile(filepath.Join(w.home, ".config", "eukhe", "settings.json"))
		if strings.Contains(string(b), "off") {
			t.Errorf("ESCAPED (%s): the settings file is now %q:\n%s", c.name, b, r.Text())
		}
		t.Logf("%s held: host file %q\n%s", c.name, b, r.Text())
	}
}

// r13daemon is a program that forks, leaves the step's session
// (setsid) and forks again, the grandchild appending a line to ticks
// every 50 ms for three seconds while the first process sleeps three
// seconds (so the step is still running when the settings narrow).
const r13daemon = `perl -MPOSIX -e 'if (fork) { sleep 3; exit } ; POSIX::setsid(); if (fork) {exit}; for (1..60) { open F, ">>", "ticks"; print F "t\n"; close F; select(undef,undef,undef,0.05) }'`

// r13ticks counts the lines in the workspace's ticks.
func r13ticks(dir string) int {
	b, _ := os.ReadFile(filepath.Join(dir, "ticks"))
	return strings.Count(string(b), "t")
}

// r13narrowDuring runs script as a bash call, applies narrow to the
// settings 600 ms in, and gives the result and the ticks right after the
// call ended and 500 ms later.
func r13narrowDuring(t *testing.T, w *r13world, script string, narrow func(*settings.Settings)) (Result, int, int) {
	t.Helper()
	done := make(chan Result, 1)
	go func() {
		raw, _ := json.Marshal(map[string]any{"script": script})
		r, _ := w.s.Call(context.Background(), "bash", raw)
		done <- r
	}()
	time.Sleep(600 * time.Millisecond)
	w.mu.Lock()
	narrow(&w.set)
	w.mu.Unlock()
	r := <-done
	n1 := r13ticks(w.dir)
	time.Sleep(500 * time.Millisecond)
	return r, n1, r13ticks(w.dir)
}

// Attack (target 3, bubblewrap): a step whose program double-forks out
// of its session (setsid), or runs in a background subshell, keeps a
// grandchild writing while the auto set narrows (net, outside and
// protected taken out). The grandchild must stop with the step.
// Class: a step that survives narrowing.
func TestRedteam13_DaemonInSandboxStopsWhenSettingsNarrow(t *testing.T) {
	if shell.Detect().Mechanism != shell.Bubblewrap {
		testkit.Missing(t, "bubblewrap does not work here (apt-get install bubblewrap; .ci/run installs it)")
	}
	all := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)
	for _, sc := range []string{r13daemon, "(" + r13daemon + ") &\nsleep 3"} {
		w := r13session(t, all, "auto")
		r, n1, n2 := r13narrowDuring(t, w, sc, func(s *settings.Settings) {
			s.AutoEffects = gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec))
		})
		if n2 > n1 || !strings.Contains(r.Text(), "killed") {
			t.Errorf("ESCAPED: %q kept running after the narrowing (ticks %d then %d):\n%s", sc, n1, n2, r.Text())
		}
	}
}

// Attack (target 2, bubblewrap and Landlock, the default auto set): an
// opaque program lists, reads and writes eukhe's socket directory
// ($XDG_RUNTIME_DIR/eukhe, holding an editor's entry) by its own path,
// through /proc/self/root, through a workspace symlink to it, with a
// "x/.." spelling, and through a symlink to $XDG_RUNTIME_DIR; it plants
// an entry there. Nothing of the directory may show, and no file may be
// made in it.
// Class: planting an editor entry by another spelling.
func TestRedteam13_StepPlantsAnEditorEntry(t *testing.T) {
	r13eachSandbox(t, r13stepPlantsAnEditorEntry)
}

func r13stepPlantsAnEditorEntry(t *testing.T) {
	all := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)
	rt := t.TempDir()
	w := r13sessionEnv(t, all, "auto", map[string]string{"XDG_RUNTIME_DIR": rt})
	run := filepath.Join(rt, "eukhe")
	if err := os.Mkdir(run, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(run, "1-aa.json"), []byte(`{"pid":1,"socket":"`+run+`/1-aa.sock","roots":["/"],"editor":"EDITOR-R13"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(run, "sub"), 0o700); err != nil {
		t.Fatal(err)
	}
	perl := `my $R = reverse $ARGV[0]; symlink("$R/eukhe", "ln"); symlink($R, "rt"); mkdir "d";
for my $d ("$R/eukhe", "/proc/self/root$R/eukhe", "ln", "rt/eukhe", "$R/eukhe/sub/..", "d/../ln", "$R/./eukhe", "$R//eukhe") {
  if (opendir(my $h, $d)) { print "LIST $d: ", join(",", grep { !/^\./ } readdir $h), "\n" }
  if (open(my $f, "<", "$d/1-aa.json")) { print "READ $d: ", <$f>, "\n" }
  my $n = $d; $n =~ s/\W/_/g;
  if (open(my $f, ">", "$d/9-$n.json")) { print $f "{}"; close $f; print "WROTE $d\n" }
}`
	r := w.bash(t, "perl -e '"+strings.ReplaceAll(perl, "'", `'\''`)+"' '"+r13rev(rt)+"'")
	text := r.Text()
	if _, err := os.Lstat(filepath.Join(w.dir, "ln")); err != nil {
		t.Fatalf("the program did not run: %s", text)
	}
	names, _ := os.ReadDir(run)
	for _, n := range names {
		if strings.HasPrefix(n.Name(), "9-") {
			text += "\n[planted " + n.Name() + "]"
		}
	}
	if strings.Contains(text, "EDITOR-R13") || regexp.MustCompile(`(?m)^(LIST .*1-aa|READ |WROTE )`).MatchString(text) || strings.Contains(text, "[planted") {
		t.Errorf("ESCAPED: the socket directory showed or took an entry:\n%s", text)
	}
}

// Attack (target 2, the Finder's cache): a look that finds no editor is
// cached while the directory's time does not move; an editor that
// starts right after (the same clock tick on a coarse file system, here
// at once) must be found by the next look, and an editor that closes
// must not be dialled from a cache. Finder caches only "none", and
// every Listen and Close moves the directory's time.
// Class: a Finder that misses a new entry or keeps a stale one.
func TestRedteam13_FinderSeesAnEditorAtOnce(t *testing.T) {
	place, err := discovery.Open(map[string]string{"XDG_RUNTIME_DIR": t.TempDir(), "XDG_STATE_HOME": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	f := &discovery.Finder{Place: place, Recheck: time.Hour}
	if _, _, err := f.Find(ws); err != discovery.ErrNone {
		t.Fatalf("first look: %v", err)
	}
	l, err := place.Listen([]string{ws}, "ed")
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	conn, _, err := f.Find(ws)
	if err != nil {
		t.Errorf("MISSED: an editor listening since the last look is not found: %v", err)
	} else {
		conn.Close()
	}
	l.Close()
	if conn, _, err := f.Find(ws); err == nil {
		conn.Close()
		t.Errorf("STALE: a closed editor was dialled")
	}
	// the same directory time, set back by hand (a coarse clock): only
	// the Recheck bounds it, so a Finder with the default Recheck finds
	// the editor within a second
	fi, _ := os.Stat(place.Dir)
	f2 := &discovery.Finder{Place: place}
	f2.Find(ws)
	l2, err := place.Listen([]string{ws}, "ed")
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	go func() {
		for {
			c, err := l2.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	if err := os.Chtimes(place.Dir, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(1500 * time.Millisecond)
	for {
		conn, _, err := f2.Find(ws)
		if err == nil {
			conn.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("MISSED: an editor is not found past the Recheck when the directory's time did not move")
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Attack (target 3/4): the auto set is {read, write, exec} and
// confinement "auto" as a script starts (`sleep 1; PROGRAM`): its steps
// are judged confined, so the program's step is {exec}, unasked. The
// user turns confinement "off" during the sleep; the program would start
// unconfined (the mode is read as each process starts) with effects
// judged confined. The sleep's pipeline sees the confinement change and
// stops the script before the program starts.
// Class: a mode change between the judgement and the start.
func TestRedteam13_ConfinementTurnedOffMidScript(t *testing.T) {
	w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "auto")
	done := make(chan Result, 1)
	go func() { done <- w.bash(t, "sleep 1; "+r13plant) }()
	time.Sleep(400 * time.Millisecond)
	w.mu.Lock()
	w.set.Confinement = "off"
	w.mu.Unlock()
	r := <-done
	if w.hook() {
		t.Errorf("ESCAPED: the program ran unconfined, unasked (asked %d), and planted the hook:\n%s", len(w.asked()), r.Text())
	}
	t.Logf("held:\n%s", r.Text())
}

// Attack (target 1, bubblewrap, the default auto set, the settings file
// in place): the step makes a user and mount namespace of its own
// (unshare -Urm, and unshare -Um without the root mapping) to unmount
// the pins above the settings file and rename ~/.config away, then link
// a workspace directory holding a settings file in its place. The
// sandbox allows no new user namespace (uid_map cannot be written), and
// a pin stays a mount point (EBUSY).
// Class: unpinning by a mount trick.
func TestRedteam13_UserNamespaceUnpinsSettingsDirs(t *testing.T) {
	if shell.Detect().Mechanism != shell.Bubblewrap {
		testkit.Missing(t, "bubblewrap does not work here (apt-get install bubblewrap; .ci/run installs it)")
	}
	if _, err := exec.LookPath("unshare"); err != nil {
		testkit.Missing(t, "unshare is not installed (util-linux)")
	}
	all := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)
	w := r13session(t, all, "auto")
	user := filepath.Join(w.home, ".config", "eukhe")
	if err := os.MkdirAll(user, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(user, "settings.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	perl := `my $H = reverse $ARGV[0]; system("umount", "-l", "$H/.config/eukhe"); system("umount", "-l", "$H/.config");` +
		` mkdir "cfg"; mkdir "cfg/eukhe"; open F, ">", "cfg/eukhe/settings.json"; print F "{\"shell.confinement\": \"off\"}"; close F;` +
		` rename("$H/.config", "$H/c.old") or die "rename: $!"; symlink(getcwd() . "/cfg", "$H/.config") or die "symlink: $!"`
	for _, u := range []string{"unshare -Urm", "unshare -Um", "unshare --user --map-root-user --mount --propagation private"} {
		r := w.bash(t, u+" perl -MCwd -e '"+perl+"' '"+r13rev(w.home)+"'")
		b, _ := os.ReadFile(filepath.Join(user, "settings.json"))
		if string(b) != "{}" {
			t.Errorf("ESCAPED (%s): the settings file is now %q:\n%s", u, b, r.Text())
		}
		t.Logf("%s held:\n%s", u, r.Text())
	}
}

// r13watched is a session on a real settings watch (as eukhe mcp has
// it), HOME the test's home (which mk prepares), the default auto set
// (every effect but secret), confinement auto.
func r13watched(t *testing.T, mk func(home string)) (*Session, string, string, *settings.Watcher) {
	t.Helper()
	dir, home := t.TempDir(), t.TempDir()
	mk(home)
	env := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	paths := settings.Locate(env, []string{dir})
	watch, err := settings.Watch(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watch.Close() })
	policy, _ := paths.Policy(env) // as eukhe mcp makes it
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: policy, Current: watch.Current}
	s, err := Open(Options{Host: host, Env: env, ShellBudget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, home, dir, watch
}

// Attack (target 1; severity critical): the user has no settings file
// yet (the default: nothing written) and the auto set is the default
// (every effect but secret; confinement auto: bubblewrap, and Landlock
// alike). An opaque
// program (perl, given the home reversed so that the gate sees no path)
// makes ~/.config/eukhe/settings.json holding {"shell.confinement":
// "off"} — where ~/.config is missing, where ~/.config/eukhe is missing,
// where only the file is missing — or, where ~/.config is missing, makes
// ~/.config a symlink to a workspace directory that holds one. Nothing
// is asked; the settings watch reads the file, and the session runs
// every later program unconfined (and the next eukhe reads it too).
// Held (was open): eukhe makes its settings directories (empty, private)
// when it makes the policy, and the whole directory is secret: hidden in
// the sandbox, its parents pinned.
// Root cause: the sandbox guarded the settings file by hiding it
// (secret) and pins the directories above it that exist
// (Policy.GateDirs keeps only KindDir ones); a file or directory that
// does not exist yet is neither hidden nor pinned, and its directory —
// the user config dir, a home dot-dir — is only protected, which the
// default auto set allows. The missing file (and each missing directory
// above it, up to the first that exists) would need a read-only
// placeholder in the sandbox, or the nearest existing one bound
// read-only.
func TestRedteam13_SandboxedStepCannotMakeTheMissingSettingsFile(t *testing.T) {
	r13eachSandbox(t, r13Redteam13_SandboxedStepCannotMakeTheMissingSettingsFile)
}

func r13Redteam13_SandboxedStepCannotMakeTheMissingSettingsFile(t *testing.T) {
	evil := `{"shell.confinement": "off"}`
	mk := func(p string) {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	cases := []struct {
		name  string
		setup func(home string)
		perl  string
	}{
		{"no ~/.config", func(string) {}, `make_path("$H/.config/eukhe"); open F, ">", "$H/.config/eukhe/settings.json" or die "open: $!"; print F $ARGV[0]; close F or die`},
		{"no ~/.config/eukhe", func(h string) { mk(h + "/.config") }, `make_path("$H/.config/eukhe"); open F, ">", "$H/.config/eukhe/settings.json" or die "open: $!"; print F $ARGV[0]; close F or die`},
		{"no settings.json", func(h string) { mk(h + "/.config/eukhe") }, `open F, ">", "$H/.config/eukhe/settings.json" or die "open: $!"; print F $ARGV[0]; close F or die`},
		{"~/.config a link to the workspace", func(string) {}, `make_path("cfg/eukhe"); open F, ">", "cfg/eukhe/settings.json" or die; print F $ARGV[0]; close F; symlink(getcwd() . "/cfg", "$H/.config") or die "symlink: $!"`},
	}
	for _, c := range cases {
		s, home, _, watch := r13watched(t, c.setup)
		raw, _ := json.Marshal(map[string]any{"script": "perl -MCwd -MFile::Path=make_path -e 'my $H = reverse $ARGV[1]; " + c.perl + "' '" + evil + "' '" + r13rev(home) + "'"})
		r, err := s.Call(context.Background(), "bash", raw)
		if err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(2 * time.Second)
		for watch.Current().Confinement != "off" && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		b, _ := os.ReadFile(filepath.Join(home, ".config", "eukhe", "settings.json"))
		if strings.Contains(string(b), "off") {
			t.Errorf("ESCAPED (%s): the step made the settings file %q unasked; confinement in force now %q:\n%s",
				c.name, b, watch.Current().Confinement, r.Text())
		}
	}
}

// Held (was open): the runtime check judges what starts, after traps and aliases, as a program no sandbox confines (agent/shell/check.go judge).
// Attack (target 4, shell.confinement "off", auto set {read, write,
// exec}; severity high): `trap 'PROGRAM' ERR` (or EXIT, with an exit)
// stores a program in a builtin's argument; the trap step is a builtin,
// so WidenUnconfined leaves it {exec}, which the auto set holds, and
// nothing is asked. When a later builtin fails (false, a cd to nowhere,
// set -e) the trap's program runs unconfined and plants .git/hooks/
// pre-commit (a protected write the user never approved).
// Root cause (guess): startsProgram lists exec, command, eval, source, .
// and builtin as builtins that start programs, but not trap, whose
// argument is a script; and the runtime check (run.call → x.judge) never
// applies gate.Unconfined to what it judges, so the trap's perl, outside
// every step (inStep false), is judged {exec} against the pipeline's
// {exec} and runs with no sandbox. Either fix alone closes it: count
// trap (every shellState builtin with a script) as starting a program,
// or widen the runtime judgement when the runner is unconfined.
func TestRedteam13_TrapRunsNoUnconfinedProgramUnasked(t *testing.T) {
	p := `perl -e "open F, q(>), q(.g).q(it/hooks/pre-commit); print F q(planted)"`
	scripts := []string{
		"trap '" + p + "' ERR; false",
		"trap '" + p + "' ERR; cd /nonexistent-r13",
		"set -e; trap '" + p + "' ERR; false",
		"x=1 trap '" + p + "' ERR; false",
		"v=ERR; trap '" + p + "' $v; false",
		"t=trap; $t '" + p + "' ERR; false",
		"trap '" + p + "' EXIT; exit 0",
	}
	for _, sc := range scripts {
		w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "off")
		r := w.bash(t, sc)
		if w.hook() {
			t.Errorf("ESCAPED: %q planted .git/hooks/pre-commit, asked %d:\n%s", sc, len(w.asked()), r.Text())
		}
		os.Remove(filepath.Join(w.dir, ".git", "hooks", "pre-commit"))
	}
}

// Held (was open): as the trap row: the runtime check widens the program an alias starts.
// Attack (target 4, shell.confinement "off", auto set {read, write,
// exec}; severity high): an alias named like a builtin (cd, echo, true)
// for a program. `shopt -s expand_aliases; alias cd='PROGRAM'` then
// `cd .`: the step's word is cd, a builtin, so WidenUnconfined leaves it
// as judged ({exec}: a step after alias is exec), and nothing is asked;
// the interpreter expands the alias as the step runs and starts the
// program unconfined, which plants .git/hooks/pre-commit. (An alias
// with a name of its own, `x`, is asked about: x is no builtin.)
// Root cause (guess): startsProgram trusts the step's first word, which
// an alias changes at run time; and the runtime check, which sees the
// expanded argv (perl), judges it without gate.Unconfined. Counting a
// step as starting a program once an alias is defined (every step after
// alias is exec already), or widening in the runtime check, closes it.
func TestRedteam13_AliasNamedLikeABuiltinRunsNothingUnasked(t *testing.T) {
	p := `perl -e "open F, q(>), q(.g).q(it/hooks/pre-commit); print F q(planted)"`
	for _, sc := range []string{
		"shopt -s expand_aliases; alias cd='" + p + "'\ncd .",
		"shopt -s expand_aliases\nalias echo='" + p + "'\necho hi",
		"shopt -s expand_aliases\nalias true='" + p + " #'\ntrue",
		"shopt -s expand_aliases\nalias cd=perl\ncd -e 'open F, q(>), q(.g).q(it/hooks/pre-commit); print F q(planted)'",
	} {
		w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "off")
		r := w.bash(t, sc)
		if w.hook() {
			t.Errorf("ESCAPED: %q planted .git/hooks/pre-commit, asked %d:\n%s", sc, len(w.asked()), r.Text())
		}
	}
}

// Held (was open): the sandbox hides the other names below the roots of the secret files (agent/shell/sandbox.go hideSecretNames).
// Attack (target 6; severity high): the workspace holds another name of
// a secret file (dot/creds.txt, a hard link of ~/.aws/credentials: a
// dotfiles repository opened as the project, as in the eleventh red
// team's case), and the auto set is {read, write}. The grep tool leaves
// the file out and cat of it asks, but a bash step that reads the tree —
// grep -r, grep -rh, cp -r then cat of the copy — runs unasked inside the
// sandbox and prints the AWS key; the copy is a new file with one name,
// so every later route reads it freely.
// Root cause (guess): a bash step's tree read is judged by its paths
// (HoldsSecret of "." or "dot": no secret entry there), with no walk for
// other names of secret files as the tools' tree search has
// (DocumentsGate.SecretName); and the sandbox hides the secret entries by
// path and binds the other names of protected files read-only
// (ProtectedLinks), but hides no other name of a secret file below the
// roots.
func TestRedteam13_BashTreeReadHidesAHardLinkedSecret(t *testing.T) {
	w := newLocalWorld(t)
	aws := filepath.Join(w.home, ".aws", "credentials")
	if err := os.MkdirAll(filepath.Join(w.root, "dot"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(aws, filepath.Join(w.root, "dot", "creds.txt")); err != nil {
		t.Fatal(err)
	}
	l := w.open(t, nil)
	for _, sc := range []string{
		"grep -r aws_secret .",
		"grep -rh . dot",
		"grep -r --include=*.txt aws .",
		"cp -r dot copy; cat copy/creds.txt",
	} {
		text, _ := call(t, l, "bash", map[string]any{"script": sc})
		if strings.Contains(text, localCanary) {
			t.Errorf("ESCAPED: %q printed the AWS key through its hard link:\n%s", sc, text)
		}
	}
}

// Held (was open): a pipeline runs under the auto set as it is after its questions (agent/shell/run.go pipeline).
// Attack (target 3, narrowing during startup; severity medium): the auto
// set is {read, write, net, outside, protected} (no exec), bubblewrap.
// A step's program (perl, exec) is asked about for exec. While the
// question is open the user takes protected out of the auto set, then
// approves the step (exec is what the question asked). The step starts
// with a sandbox that still allows protected and plants
// .git/hooks/pre-commit before the narrowing watch first looks (200 ms
// in); the result says the step finished.
// Root cause (guess): shell's run.pipeline reads the auto set once,
// before asking, and after the answer allows st.Effects ∪ that old set
// (x.allowed); the watch it then starts compares with the same old set
// and only after narrowCheck. The auto set should be read again after
// the answers (and the steps asked again, or refused, when it no longer
// holds what they were let run under), before any process starts.
func TestRedteam13_NarrowedWhileAskedRunsUnderTheNewSet(t *testing.T) {
	if shell.Detect().Mechanism != shell.Bubblewrap {
		testkit.Missing(t, "bubblewrap does not work here (apt-get install bubblewrap; .ci/run installs it)")
	}
	w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Net, gate.Outside, gate.Protected), "auto")
	w.onAsk = func(q gate.Question) gate.Answer {
		w.mu.Lock()
		w.set.AutoEffects = gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Net, gate.Outside))
		w.mu.Unlock()
		return gate.Approve
	}
	r := w.bash(t, r13plant)
	if w.hook() {
		t.Errorf("ESCAPED: protected was out of the auto set before the answer, and the step planted the hook (asked %v):\n%s",
			w.asked()[0].Effects, r.Text())
	}
}

// Around the fix: a pipeline of two steps, the first held by the auto
// set (a write), the second asked (a program). While the second is
// asked the user takes write out of the auto set: the first, never
// asked, does not run, and the result says why.
func TestRedteam13_AStepTheNarrowedSetNoLongerHoldsDoesNotRun(t *testing.T) {
	if shell.Detect().Mechanism != shell.Bubblewrap {
		testkit.Missing(t, "bubblewrap does not work here (apt-get install bubblewrap; .ci/run installs it)")
	}
	w := r13session(t, gate.Of(gate.Read, gate.Write), "auto")
	w.onAsk = func(q gate.Question) gate.Answer {
		w.mu.Lock()
		w.set.AutoEffects = gate.AutoOf(gate.Of(gate.Read))
		w.mu.Unlock()
		return gate.Approve
	}
	r := w.bash(t, "echo x > made.txt | perl -e 1")
	if _, err := os.Stat(filepath.Join(w.dir, "made.txt")); err == nil {
		t.Errorf("a write the narrowed auto set no longer holds ran unasked:\n%s", r.Text())
	}
	if !strings.Contains(r.Text(), "took write out of the auto set") {
		t.Errorf("the result does not say why the step did not run:\n%s", r.Text())
	}
}
