package shell

import (
	"crypto/sha256"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// needTool ends the test when a program it needs is missing
// (testkit.Missing: a skip, or a failure when the tools are required).
func needTool(t testing.TB, name string) {
	t.Helper()
	if _, err := exec.LookPath(name); err != nil {
		testkit.Missing(t, fmt.Sprintf("%s is not installed (%v): the confinement tests run it (.ci/run installs it)", name, err))
	}
}

// useMechanism forces the confinement of the test's runs, and ends the
// test when it does not work here (testkit.Missing).
func useMechanism(t *testing.T, m Mechanism) {
	t.Helper()
	t.Setenv(ForceEnv, string(m))
	c := Detect()
	if c.Mechanism != m {
		testkit.Missing(t, fmt.Sprintf("confinement %s does not work here: %s (bubblewrap: apt-get install bubblewrap; Landlock: a kernel of 5.13 or later with it on)", m, c))
	}
}

// secretText is the content of the world's secret key.
const secretText = "SECRET-KEY-MATERIAL"

// confinedWorld is a world whose classifier is blind: every step is judged
// to have only the effects judged (read, unless a test says otherwise),
// so what a step can do is what the sandbox lets it. It holds a secret
// key, a .git with hooks, and a TCP listener on loopback.
type confinedWorld struct {
	*world
	home, key string
	port      int
	accepted  atomic.Int32 // connections the listener took
}

func newConfinedWorld(t *testing.T, auto gate.AutoSet, judged gate.Effects) *confinedWorld {
	t.Helper()
	w := newWorld(t, auto)
	w.runner.blind = func(gate.Effects) gate.Effects { return judged }
	key := filepath.Join(w.secret, "id_ed25519")
	if err := os.WriteFile(key, []byte(secretText+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(w.path("src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(w.path(".git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	// eukhe's state directory, as a session makes it at its start (its
	// transcripts, the discovery key): a sandbox makes it before any
	// process when it is missing, and the corpus's snapshot of the home
	// counts only what a program changed
	if err := os.MkdirAll(filepath.Join(filepath.Dir(w.secret), ".local", "state", "eukhe"), 0o700); err != nil {
		t.Fatal(err)
	}
	cw := &confinedWorld{world: w, home: filepath.Dir(w.secret), key: filepath.Join(w.secret, "id_ed25519")}
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			cw.accepted.Add(1)
			c.Close()
		}
	}()
	cw.port = ln.Addr().(*net.TCPAddr).Port
	t.Cleanup(func() { _ = w.runner.Close() })
	return cw
}

// listenUnix listens on a Unix socket at path, answering each connection
// with CONNECTED. The socket is made at a short path and renamed there: a
// socket's path is limited to 107 bytes, a test's temp directory is not.
func (cw *confinedWorld) listenUnix(path string) {
	short, err := os.MkdirTemp("", "u")
	if err != nil {
		cw.t.Fatal(err)
	}
	cw.t.Cleanup(func() { os.RemoveAll(short) })
	ln, err := net.Listen("unix", filepath.Join(short, "s"))
	if err != nil {
		cw.t.Fatal(err)
	}
	cw.t.Cleanup(func() { ln.Close() })
	if err := os.Rename(filepath.Join(short, "s"), path); err != nil {
		cw.t.Fatal(err)
	}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Write([]byte("CONN" + "ECTED\n"))
			c.Close()
		}
	}()
}

// Under Landlock without Unix sockets, a pair of connected sockets still
// works (programs use them between their own processes).
func TestLandlockKeepsSocketPairs(t *testing.T) {
	needTool(t, "python3")
	useMechanism(t, Landlock)
	cw := newConfinedWorld(t, readOnly(), gate.Of(gate.Read))
	res := cw.run(`python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"PAI" + b"RED"); print(b.recv(10).decode())'`)
	if !strings.Contains(res.Text, "PAIRED") {
		t.Fatalf("socketpair under Landlock:\n%s", res.Text)
	}
}

// Under Landlock without Unix sockets, the filter refuses socket(AF_UNIX)
// and the ways around it — io_uring (whose requests seccomp does not see)
// and the x32 ABI's numbers — and nothing else a program needs: an
// AF_INET socket and a socketpair are made. With secret and net allowed
// there is no filter.
func TestLandlockUnixSocketFilterRefusesTheWaysAround(t *testing.T) {
	useMechanism(t, Landlock)
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cw := newConfinedWorld(t, readOnly(), gate.Of(gate.Read))
	res := cw.run(self + " " + probeSyscallsArg)
	// Without net, an inet socket is refused too (issue 20: UDP and TCP
	// fast-open leave past Landlock's TCP rules).
	for _, want := range []string{"socket(AF_UNIX): EACCES", "socket(AF_INET): EACCES", "socketpair(AF_UNIX): ok", "io_uring_setup: EACCES"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("under the filter, want %q:\n%s", want, res.Text)
		}
	}
	if _, ok := x32Socket(); ok && !strings.Contains(res.Text, "x32 socket(AF_UNIX): ENOSYS") {
		t.Errorf("under the filter, the x32 socket call was not refused:\n%s", res.Text)
	}
	open := newConfinedWorld(t, gate.DefaultAuto(), gate.Of(gate.Read, gate.Secret))
	if res := open.run(self + " " + probeSyscallsArg); !strings.Contains(res.Text, "socket(AF_UNIX): ok") || !strings.Contains(res.Text, "socket(AF_INET): ok") {
		t.Errorf("with secret and net allowed, a Unix or inet socket was refused:\n%s", res.Text)
	}
	netOnly := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Net)), gate.Of(gate.Read))
	if res := netOnly.run(self + " " + probeSyscallsArg); !strings.Contains(res.Text, "socket(AF_UNIX): EACCES") || !strings.Contains(res.Text, "socket(AF_INET): ok") {
		t.Errorf("with net allowed and secret not, want Unix refused and inet made:\n%s", res.Text)
	}
}

// expand fills the world's places into an attack's text: ROOT, OUTSIDE,
// HOME, KEY, PORT.
func (cw *confinedWorld) expand(s string) string {
	return strings.NewReplacer("ROOT", cw.root, "OUTSIDE", cw.outside, "HOME", cw.home,
		"KEY", cw.key, "PORT", fmt.Sprint(cw.port), "TOKEN", cw.token()).Replace(s)
}

// probe is a program that tries one thing; done tells whether it did.
type probe struct {
	name   string
	needs  gate.Effects // the effects that must be allowed for it to work
	script string
	setup  func(cw *confinedWorld)
	done   func(cw *confinedWorld, out string) bool
}

func leaked(_ *confinedWorld, out string) bool { return strings.Contains(out, secretText) }

func wrote(name string) func(cw *confinedWorld, out string) bool {
	return func(cw *confinedWorld, _ string) bool {
		b, err := os.ReadFile(cw.expand(name))
		return err == nil && strings.Contains(string(b), "PWNED")
	}
}

func connected(_ *confinedWorld, out string) bool { return strings.Contains(out, "CONNECTED") }

var probes = []probe{
	{name: "python reads the key", needs: gate.Of(gate.Secret),
		script: `python3 -c 'print(open("KEY").read())'`, done: leaked},
	{name: "awk getline reads the key", needs: gate.Of(gate.Secret),
		script: `awk 'BEGIN { while ((getline l < "KEY") > 0) print l }'`, done: leaked},
	{name: "less reads the key", needs: gate.Of(gate.Secret),
		script: `less -f KEY`, done: leaked},
	{name: "a shell script reads the key", needs: gate.Of(gate.Secret),
		setup:  func(cw *confinedWorld) { cw.write("peek.sh", cw.expand("cat KEY\n")) },
		script: `sh peek.sh`, done: leaked},
	{name: "a symlink to the key", needs: gate.Of(gate.Secret),
		setup: func(cw *confinedWorld) {
			if err := os.Symlink(cw.key, cw.path("innocent.txt")); err != nil {
				cw.t.Fatal(err)
			}
		},
		script: `python3 -c 'print(open("innocent.txt").read())'`, done: leaked},
	{name: "/proc/self/cwd reaches the key", needs: gate.Of(gate.Secret),
		script: `python3 -c 'import os; os.chdir("HOME/.ssh"); print(open("/proc/self/cwd/id_ed25519").read())'`, done: leaked},
	{name: "write outside", needs: gate.Of(gate.Write, gate.Outside),
		script: `python3 -c 'open("OUTSIDE/x", "w").write("PWNED")'`, done: wrote("OUTSIDE/x")},
	{name: "write inside", needs: gate.Of(gate.Write),
		script: `python3 -c 'open("ROOT/src/x", "w").write("PWNED")'`, done: wrote("ROOT/src/x")},
	{name: "write a git hook", needs: gate.Of(gate.Write, gate.Protected),
		script: `sh -c 'echo PWNED > .git/hooks/pre-commit'`, done: wrote("ROOT/.git/hooks/pre-commit")},
	// An agent's socket in a hidden directory (an ssh-agent's in ~/.ssh; eukhe's
	// own approvals socket is in one too): bubblewrap hides the directory;
	// Landlock cannot hide a socket from connect, so it makes none.
	{name: "connect to a Unix socket in a hidden directory", needs: gate.Of(gate.Secret, gate.Net),
		setup: func(cw *confinedWorld) { cw.listenUnix(filepath.Join(cw.world.secret, "agent.sock")) },
		script: `python3 -c 'import os, socket; os.chdir(os.path.dirname("KEY")); s = socket.socket(socket.AF_UNIX); ` +
			`s.connect("agent.sock"); print(s.recv(20).decode())'`,
		done: connected},
	{name: "connect to a local listener", needs: gate.Of(gate.Net),
		script: `python3 -c 'import socket; socket.create_connection(("127.0.0.1", PORT), timeout=5); print("CONN" + "ECTED")'`,
		done:   connected},
}

// autoSets are the auto sets every probe runs under.
var autoSets = [][]gate.Effect{
	{gate.Read},
	{gate.Read, gate.Exec},
	{gate.Read, gate.Write, gate.Exec},
	{gate.Read, gate.Write, gate.Exec, gate.Outside},
	{gate.Read, gate.Write, gate.Exec, gate.Protected},
	{gate.Read, gate.Exec, gate.Net},
	{gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected},
}

// runProbes runs each probe under each auto set, and, approved with
// secret, under the default auto set: each must work exactly when its
// effects are allowed (always, unconfined).
func runProbes(t *testing.T, m Mechanism) {
	needTool(t, "python3")
	needTool(t, "awk")
	needTool(t, "less")
	useMechanism(t, m)
	type run struct {
		auto   gate.AutoSet
		judged gate.Effects
	}
	var runs []run
	for _, es := range autoSets {
		runs = append(runs, run{gate.AutoOf(gate.Of(es...)), gate.Of(gate.Read)})
	}
	runs = append(runs, run{gate.DefaultAuto(), gate.Of(gate.Read, gate.Secret)})
	if m == Unconfined {
		// Unconfined, the auto set makes no difference: one is enough.
		runs = runs[:1]
	}
	for _, r := range runs {
		for _, p := range probes {
			allowed := r.auto.Effects().Union(r.judged)
			name := fmt.Sprintf("%s/%s", allowed, p.name)
			t.Run(name, func(t *testing.T) {
				cw := newConfinedWorld(t, r.auto, r.judged)
				if p.setup != nil {
					p.setup(cw)
				}
				res := cw.run(cw.expand(p.script))
				did := p.done(cw, res.Text)
				want := m == Unconfined || p.needs.SubsetOf(allowed)
				if did != want {
					t.Fatalf("%s with %s allowed under %s: did it = %v, want %v\n%s", p.name, allowed, m, did, want, res.Text)
				}
			})
		}
	}
}

func TestConfinedProbesBubblewrap(t *testing.T) { runProbes(t, Bubblewrap) }
func TestConfinedProbesLandlock(t *testing.T)   { runProbes(t, Landlock) }
func TestConfinedProbesUnconfined(t *testing.T) { runProbes(t, Unconfined) }

// The reply says the sandbox refused a step, and which effect would
// allow it.
func TestSandboxRefusalIsNamed(t *testing.T) {
	needTool(t, "python3")
	for _, m := range []Mechanism{Bubblewrap, Landlock} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			cw := newConfinedWorld(t, readOnly(), gate.Of(gate.Read))
			res := cw.run(cw.expand(`python3 -c 'open("ROOT/x", "w")'`))
			if !strings.Contains(res.Text, "[sandbox ("+string(m)+")") || !strings.Contains(res.Text, "approved with write") {
				t.Fatalf("no sandbox line naming write:\n%s", res.Text)
			}
			res = cw.run(cw.expand(`python3 -c 'import socket; socket.create_connection(("127.0.0.1", PORT), timeout=5)'`))
			if !regexp.MustCompile(`approved with [a-z+]*net`).MatchString(res.Text) {
				t.Fatalf("no sandbox line naming net:\n%s", res.Text)
			}
			res = cw.run(`echo fine`)
			if strings.Contains(res.Text, "[sandbox") {
				t.Fatalf("a step that worked got a sandbox line:\n%s", res.Text)
			}
		})
	}
}

// shell.confinement "require" refuses to run a program unconfined, and
// says why none works and (on Linux) how to install bubblewrap.
func TestRequireRefusesUnconfined(t *testing.T) {
	unixPrograms(t, "touch")
	t.Setenv(ForceEnv, "none")
	w := newWorld(t, gate.DefaultAuto())
	w.runner.Confine.Mode = func() string { return "require" }
	res := w.run(`touch made; echo after`)
	if exists(w.path("made")) || !strings.Contains(res.Text, Detect().Why) || !strings.Contains(res.Text, sandboxHint) || !strings.Contains(res.Text, `"require"`) {
		t.Fatalf("require ran unconfined, or did not say why or how to install bubblewrap:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "after") {
		t.Fatalf("a builtin after the refusal did not run (only external programs are refused):\n%s", res.Text)
	}
}

// The private temporary directory: TMPDIR and /tmp inside the sandbox,
// kept across steps, removed when the session ends.
func TestPrivateTempDir(t *testing.T) {
	useMechanism(t, Bubblewrap)
	w := newConfinedWorld(t, readOnly(), gate.Of(gate.Read))
	res := w.run(`sh -c 'echo kept > /tmp/note; echo "$TMPDIR"'`)
	if !strings.Contains(res.Text, "/tmp\n") {
		t.Fatalf("TMPDIR is not /tmp inside:\n%s", res.Text)
	}
	res = w.run(`cat /tmp/note`)
	if !strings.Contains(res.Text, "kept") {
		t.Fatalf("the temporary directory was not kept across steps:\n%s", res.Text)
	}
	dir := w.runner.tmp
	if dir == "" || !exists(filepath.Join(dir, "note")) {
		t.Fatalf("no session temporary directory holds the note: %q", dir)
	}
	if err := w.runner.Close(); err != nil {
		t.Fatal(err)
	}
	if exists(dir) {
		t.Fatalf("the session's temporary directory %s outlived it", dir)
	}
}

// Killing a job kills its whole sandbox, background processes included.
func TestConfinedKillLeavesNoProcess(t *testing.T) {
	useMechanism(t, Bubblewrap)
	w := newWorld(t, gate.DefaultAuto())
	settled := withJobs(w, 200*time.Millisecond)
	marker := fmt.Sprint(300 + time.Now().UnixNano()%1000)
	r := w.run(`sh -c 'trap "" TERM; sleep ` + marker + ` & sleep ` + marker + `'`)
	if r.Ending != Detached {
		t.Fatalf("want detached, got %s:\n%s", r.Ending, r.Text)
	}
	eventually(t, "both sleeps run", func() bool { return len(sleepers(marker)) >= 2 })
	if k := w.runner.Kill(r.Job); k.Ending != Killed {
		t.Fatalf("kill: got %s:\n%s", k.Ending, k.Text)
	}
	eventually(t, "no sleep is left", func() bool { return len(sleepers(marker)) == 0 })
	<-settled
}

// sleepers are the host pids of `sleep N` processes.
func sleepers(n string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && string(b) == "sleep\x00"+n+"\x00" {
			out = append(out, e.Name())
		}
	}
	return out
}

// token is a name unique to the world, for what an attack makes outside
// it.
func (cw *confinedWorld) token() string {
	return fmt.Sprintf("%x", sha256.Sum256([]byte(cw.root)))[:16]
}
