package shell

import (
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// The sandbox's remaining edges (issue 20): the kernel's settings, a
// protected file's other names, datagrams and TCP fast-open without net,
// and abstract Unix sockets. Each probe tries one way; wantEdge says
// when it must work. The classifier is blind (confinedWorld): only the
// sandbox stands in the way.

// edgeWorld is a confinedWorld with a UDP listener and an abstract Unix
// socket listener on the host, and a .git/config.
type edgeWorld struct {
	*confinedWorld
	udpPort  int
	udpGot   atomic.Int32
	abstract string
}

func newEdgeWorld(t *testing.T, auto gate.AutoSet, judged gate.Effects) *edgeWorld {
	t.Helper()
	ew := &edgeWorld{confinedWorld: newConfinedWorld(t, auto, judged)}
	ew.write(".git/config", "[core]\n")
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	ew.udpPort = pc.LocalAddr().(*net.UDPAddr).Port
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			ew.udpGot.Add(1)
		}
	}()
	ew.abstract = "eukhe-test-" + ew.token()
	ln, err := net.Listen("unix", "@"+ew.abstract)
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
			c.Write([]byte("CONN" + "ECTED\n"))
			c.Close()
		}
	}()
	return ew
}

func (ew *edgeWorld) expand(s string) string {
	return ew.confinedWorld.expand(strings.NewReplacer("UDPDEST", fmt.Sprint(ew.udpPort), "ABSTRACT", ew.abstract).Replace(s))
}

type edgeProbe struct {
	name   string
	script string
	setup  func(ew *edgeWorld)
	done   func(ew *edgeWorld, out string) bool
	// want is when it must work, confined by m with allowed.
	want func(m Mechanism, allowed gate.Effects) bool
	// onlyRefused checks only that it does not work when not wanted.
	onlyRefused bool
}

func never(Mechanism, gate.Effects) bool { return false }

func needs(es ...gate.Effect) func(Mechanism, gate.Effects) bool {
	return func(_ Mechanism, allowed gate.Effects) bool { return gate.Of(es...).SubsetOf(allowed) }
}

func printed(s string) func(*edgeWorld, string) bool {
	return func(_ *edgeWorld, out string) bool { return strings.Contains(out, s) }
}

func wroteConfig(ew *edgeWorld, _ string) bool {
	return strings.Contains(ew.read(".git/config"), "PWNED")
}

func hardLink(name string) func(ew *edgeWorld) {
	return func(ew *edgeWorld) {
		if err := os.Link(ew.path(".git/config"), ew.path(name)); err != nil {
			ew.t.Fatal(err)
		}
	}
}

// Opening a kernel setting for writing writes nothing: the probes never
// change this machine, even unconfined.
var edgeProbes = []edgeProbe{
	{name: "open /proc/sys/kernel/core_pattern for writing", want: never,
		script: `python3 -c 'import os; os.close(os.open("/proc/sys/kernel/core_pattern", os.O_WRONLY)); print("OPENED" + "-W")'`,
		done:   printed("OPENED-W")},
	{name: "sh opens a /proc/sys setting for appending", want: never,
		script: `sh -c ': >> /proc/sys/kernel/core_uses_pid && echo OPENED""-W'`, done: printed("OPENED-W")},
	{name: "open a /sys setting for writing", want: never,
		script: `python3 -c 'import os; os.close(os.open("/sys/kernel/profiling", os.O_WRONLY)); print("OPENED" + "-W")'`,
		done:   printed("OPENED-W")},
	{name: "append to a hard link of .git/config (sh)", want: needs(gate.Write, gate.Protected),
		setup: hardLink("cfg"), script: `sh -c 'echo PWNED >> cfg'`, done: wroteConfig},
	{name: "append to a hard link of .git/config (python, in a subdirectory)", want: needs(gate.Write, gate.Protected),
		setup: func(ew *edgeWorld) {
			if err := os.MkdirAll(ew.path("src/deep"), 0o755); err != nil {
				ew.t.Fatal(err)
			}
			hardLink("src/deep/notes.txt")(ew)
		},
		script: `python3 -c 'open("src/deep/notes.txt", "a").write("PWNED")'`, done: wroteConfig},
	// Under Landlock a link into a directory split by a mount below it
	// fails with EXDEV even when allowed: only the refusal is checked.
	{name: "link .git/config during the step, then write it", want: needs(gate.Write, gate.Protected), onlyRefused: true,
		script: `sh -c 'ln .git/config cfg2; echo PWNED >> cfg2'`, done: wroteConfig},
	{name: "a UDP datagram to a host listener", want: needs(gate.Net),
		script: `python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.sendto(b"x", ("127.0.0.1", UDPDEST))'`,
		done:   func(ew *edgeWorld, _ string) bool { return waitFor(func() bool { return ew.udpGot.Load() > 0 }) }},
	{name: "a UDP datagram over IPv6-mapped loopback", want: needs(gate.Net),
		script: `python3 -c 'import socket; s = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM); s.sendto(b"x", ("::ffff:127.0.0.1", UDPDEST))'`,
		done:   func(ew *edgeWorld, _ string) bool { return waitFor(func() bool { return ew.udpGot.Load() > 0 }) }},
	{name: "a TCP fast-open sendto to a host listener", want: needs(gate.Net),
		script: `python3 -c 'import socket; s = socket.socket(); s.sendto(b"x", socket.MSG_FASTOPEN, ("127.0.0.1", PORT))'`,
		done:   func(ew *edgeWorld, _ string) bool { return waitFor(func() bool { return ew.accepted.Load() > 0 }) }},
	// Under Landlock, abstract sockets are scoped whatever is allowed.
	{name: "connect to an abstract Unix socket of the host", want: func(m Mechanism, allowed gate.Effects) bool {
		return m == Bubblewrap && gate.Of(gate.Net, gate.Secret).SubsetOf(allowed)
	},
		script: `python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("\0ABSTRACT"); print(s.recv(20).decode())'`,
		done:   printed("CONNECTED")},
}

// waitFor is true when ok becomes true within a short while (a datagram
// is read by another goroutine).
func waitFor(ok func() bool) bool {
	for i := 0; i < 20; i++ {
		if ok() {
			return true
		}
		time.Sleep(10 * time.Millisecond)
	}
	return false
}

func runEdgeProbes(t *testing.T, m Mechanism) {
	needTool(t, "python3")
	useMechanism(t, m)
	type run struct {
		auto   gate.AutoSet
		judged gate.Effects
	}
	var runs []run
	for _, es := range autoSets {
		runs = append(runs, run{gate.AutoOf(gate.Of(es...)), gate.Of(gate.Read)})
	}
	runs = append(runs, run{gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net)), gate.Of(gate.Read, gate.Secret)})
	for _, r := range runs {
		for _, p := range edgeProbes {
			allowed := r.auto.Effects().Union(r.judged)
			t.Run(fmt.Sprintf("%s/%s", allowed, p.name), func(t *testing.T) {
				ew := newEdgeWorld(t, r.auto, r.judged)
				if p.setup != nil {
					p.setup(ew)
				}
				res := ew.run(ew.expand(p.script))
				if did, want := p.done(ew, res.Text), p.want(m, allowed); did != want && !(p.onlyRefused && want) {
					t.Fatalf("%s with %s allowed under %s: did it = %v, want %v\n%s", p.name, allowed, m, did, want, res.Text)
				}
			})
		}
	}
}

func TestSandboxEdgesBubblewrap(t *testing.T) { runEdgeProbes(t, Bubblewrap) }
func TestSandboxEdgesLandlock(t *testing.T)   { runEdgeProbes(t, Landlock) }

// The controls: what a build needs keeps working under both mechanisms
// with the default auto set — a local TCP server and client inside one
// step (bubblewrap's own loopback), a pair of sockets, a Unix socket
// inside the private /tmp, and writing a file with one name.
func TestSandboxEdgesControls(t *testing.T) {
	needTool(t, "python3")
	for _, m := range []Mechanism{Bubblewrap, Landlock} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			ew := newEdgeWorld(t, gate.DefaultAuto(), gate.Of(gate.Read))
			res := ew.run(`python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"PAI" + b"RED"); print(b.recv(10).decode())'; ` +
				`sh -c 'echo ok > src/plain.txt && cat src/plain.txt'; sed -i s/ok/OK/ src/plain.txt; cat src/plain.txt`)
			for _, want := range []string{"PAIRED", "ok", "OK"} {
				if !strings.Contains(res.Text, want) {
					t.Fatalf("under %s, want %q:\n%s", m, want, res.Text)
				}
			}
			if m == Bubblewrap {
				res := ew.run(`python3 -c 'import socket; l = socket.socket(); l.bind(("127.0.0.1", 0)); l.listen(); c = socket.create_connection(l.getsockname()); print("LOOP" + "BACK")'`)
				if !strings.Contains(res.Text, "LOOPBACK") {
					t.Fatalf("a loopback server inside the step does not work under bubblewrap:\n%s", res.Text)
				}
			}
		})
	}
}

// Under bubblewrap, unless net and secret are both allowed, a step makes
// no Unix socket (the --seccomp filter, as under Landlock): neither a
// host's abstract one nor one by its path in the home (a container
// runtime's docker.sock, the third red team's); inet sockets still work
// with net; socketpair always.
func TestBubblewrapRefusesUnixSocketsUnlessNetAndSecret(t *testing.T) {
	needTool(t, "python3")
	useMechanism(t, Bubblewrap)
	for _, auto := range []gate.Effects{gate.Of(gate.Read, gate.Exec, gate.Net), gate.Of(gate.Read, gate.Write, gate.Exec)} {
		ew := newEdgeWorld(t, gate.AutoOf(auto), gate.Of(gate.Read))
		// a short directory: a Unix socket's path must fit in 108 bytes
		home, err := os.MkdirTemp("", "sk")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { os.RemoveAll(home) })
		sock := home + "/d.sock"
		ln, err := net.Listen("unix", sock)
		if err != nil {
			t.Fatal(err)
		}
		var reached atomic.Int32
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				reached.Add(1)
				c.Close()
			}
		}()
		script := `test -S ` + sock + ` && echo SOCKET-SEEN; ` +
			`python3 -c 'import socket; s = socket.socket(socket.AF_UNIX); s.connect("\0ABSTRACT"); print(s.recv(20).decode())'; ` +
			`python3 -c 'import socket; socket.socket(socket.AF_UNIX).connect("` + sock + `")'; ` +
			`python3 -c 'import socket; a, b = socket.socketpair(); a.send(b"PAI" + b"RED"); print(b.recv(10).decode())'`
		if auto.Has(gate.Net) {
			script += `; python3 -c 'import socket; socket.create_connection(("127.0.0.1", PORT), timeout=5); print("INET" + "-OK")'`
		}
		res := ew.run(ew.expand(script))
		ln.Close()
		if strings.Contains(res.Text, "CONNECTED") || reached.Load() > 0 || !strings.Contains(res.Text, "Permission denied") {
			t.Fatalf("%s: a host's Unix socket was reached (by path: %d), or a Unix socket not refused:\n%s", auto, reached.Load(), res.Text)
		}
		if !strings.Contains(res.Text, "SOCKET-SEEN") {
			t.Fatalf("%s: the socket is not seen in the step, so the row proves nothing:\n%s", auto, res.Text)
		}
		if !strings.Contains(res.Text, "PAIRED") {
			t.Fatalf("%s: socketpair failed under the filter:\n%s", auto, res.Text)
		}
		if auto.Has(gate.Net) && !strings.Contains(res.Text, "INET-OK") {
			t.Fatalf("%s: with net allowed, an inet connection failed under the filter:\n%s", auto, res.Text)
		}
	}
}
