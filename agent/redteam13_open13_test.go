//go:build open_attacks && linux

package agent

// The thirteenth red team's attacks that got through (build tag
// open_attacks): each test asserts the safe outcome and fails today.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/lsp/discovery"
)

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
func TestRedteam13Open_TrapRunsAnUnconfinedProgramUnasked(t *testing.T) {
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

// Attack (target 3; severity medium): under shell.confinement "off" a
// step's program double-forks out of its session (setsid, then a second
// fork) and keeps a grandchild running. The user turns confinement back
// on ("auto") while the step runs: eukhe stops the step and says "the
// script and every process it started were stopped", but the grandchild
// goes on writing in the workspace, unconfined, with every effect, after
// the narrowing (bubblewrap's pid namespace kills such a grandchild; with
// no sandbox nothing does).
// Root cause (guess): a narrowing kills the process groups the runner
// recorded (killGroups/pruneGroups in exec_unix.go): one per started
// program, its own session; a process that calls setsid leaves that
// group, and nothing else (a cgroup, a subreaper, a walk of /proc for
// the step's descendants as the ipython freeze does) finds it.
func TestRedteam13Open_UnconfinedDaemonSurvivesNarrowing(t *testing.T) {
	all := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)
	w := r13session(t, all, "off")
	t.Cleanup(func() { time.Sleep(2 * time.Second) }) // the daemon ends 3 s in; then the workspace goes
	r, n1, n2 := r13narrowDuring(t, w, r13daemon, func(s *settings.Settings) { s.Confinement = "auto" })
	if n2 > n1 {
		t.Errorf("ESCAPED: the daemon kept running unconfined after confinement was turned on (ticks %d then %d):\n%s", n1, n2, r.Text())
	}
}

// Attack (target 2; severity low: it needs an entry written in eukhe's
// socket directory, which no step may write): besideIt accepts an entry
// whose socket is spelled W/l/../D2/x.sock where D2 is a link to the
// socket directory: filepath.Dir cleans "l/.." away on paper and finds
// the socket directory (the same file), but the kernel walks l (a link
// to W/a/b) and then "..", so the dial reaches W/a/D2/x.sock, a
// workspace socket that is no editor. Find attaches to it.
// Root cause (guess): besideIt compares the lexically cleaned directory
// with os.SameFile, while the dial resolves ".." after links; it should
// refuse any socket path that is not exactly filepath.Join(dir, base)
// (or compare the socket's own Lstat with the one in the directory).
func TestRedteam13Open_BesideItTakesADotDotSpelling(t *testing.T) {
	dir, err := discovery.Dir(map[string]string{"XDG_RUNTIME_DIR": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	for _, d := range []string{"a/b", "a/D2"} {
		if err := os.MkdirAll(filepath.Join(ws, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(ws, "a", "b"), filepath.Join(ws, "l")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(dir, filepath.Join(ws, "D2")); err != nil {
		t.Fatal(err)
	}
	fake, err := net.Listen("unix", filepath.Join(ws, "a", "D2", "1-ff.sock"))
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	got := make(chan bool, 1)
	go func() {
		if c, err := fake.Accept(); err == nil {
			got <- true
			c.Close()
		}
	}()
	sock := ws + "/l/../D2/1-ff.sock"
	entry := fmt.Sprintf(`{"pid":%d,"socket":%q,"roots":[%q],"editor":"not-an-editor"}`, os.Getpid(), sock, ws)
	if err := os.WriteFile(filepath.Join(dir, "1-ff.json"), []byte(entry), 0o600); err != nil {
		t.Fatal(err)
	}
	conn, e, err := discovery.Find(dir, ws)
	if err == nil {
		conn.Close()
		select {
		case <-got:
			t.Errorf("ESCAPED: Find attached to a workspace socket (%s, editor %q)", e.Socket, e.Editor)
		case <-time.After(time.Second):
			t.Errorf("Find took an entry whose socket is not beside it: %s", e.Socket)
		}
	}
}

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
func TestRedteam13Open_BashTreeReadShowsAHardLinkedSecret(t *testing.T) {
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
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS), Current: watch.Current}
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
// Root cause (guess): the sandbox guards the settings file by hiding it
// (secret) and pins the directories above it that exist
// (Policy.GateDirs keeps only KindDir ones); a file or directory that
// does not exist yet is neither hidden nor pinned, and its directory —
// the user config dir, a home dot-dir — is only protected, which the
// default auto set allows. The missing file (and each missing directory
// above it, up to the first that exists) would need a read-only
// placeholder in the sandbox, or the nearest existing one bound
// read-only.
func TestRedteam13Open_SandboxedStepMakesTheMissingSettingsFile(t *testing.T) {
	r13eachSandbox(t, r13Redteam13Open_SandboxedStepMakesTheMissingSettingsFile)
}

func r13Redteam13Open_SandboxedStepMakesTheMissingSettingsFile(t *testing.T) {
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
func TestRedteam13Open_AliasNamedLikeABuiltinRunsUnasked(t *testing.T) {
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
func TestRedteam13Open_NarrowedWhileAskedRunsUnderTheOldSet(t *testing.T) {
	if shell.Detect().Mechanism != shell.Bubblewrap {
		t.Skip("needs bubblewrap")
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
