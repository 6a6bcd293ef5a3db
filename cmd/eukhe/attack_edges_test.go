package main

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The sandbox's remaining edges (issue 20), attacked through the real
// `eukhe mcp` under each mechanism: a kernel setting written as root,
// another name of .git/config (a hard link already in the tree), a
// datagram or a TCP fast-open without net, an abstract Unix socket of the
// host without secret. The classifier may let a row run (exec, outside
// or net in the auto set); the sandbox must stop what it does.

// mechanisms are the sandboxes every row runs under.
var mechanisms = []string{"bubblewrap", "landlock"}

// needMechanism skips a row set when bwrap or python3 is missing.
func needEdgeTools(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"bwrap", "python3", "git"} {
		if _, err := exec.LookPath(tool); err != nil {
			testkit.Missing(t, tool+" is needed by the edge attacks (.ci/run installs it)")
		}
	}
}

// startEdgeMCP is `eukhe mcp` in w's root with the mechanism forced.
func startEdgeMCP(t *testing.T, w *envWorld, mech string) *mcpProc {
	t.Helper()
	p := startMCP(t, w.withPath(os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech), w.root)
	p.waitStderr("headless")
	return p
}

// Kernel settings: with write, exec and outside in the auto set, a step
// that writes /proc/sys or /sys runs, and must fail. The rows write the
// value a setting already has (kernel.core_uses_pid) or open a /sys file
// without writing, so that nothing changes here even if one got through;
// WROTE-OK marks one that did.
func TestAttackEdges_kernel_settings_stay_read_only(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	cur, err := os.ReadFile("/proc/sys/kernel/core_uses_pid")
	if err != nil || os.Getuid() != 0 {
		t.Skip("needs root and /proc/sys/kernel/core_uses_pid")
	}
	v := strings.TrimSpace(string(cur))
	for _, mech := range mechanisms {
		w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
		p := startEdgeMCP(t, w, mech)
		for _, script := range []string{
			"echo " + v + " > /proc/sys/kernel/core_uses_pid && echo WROTE-OK",
			"sh -c 'echo " + v + " > /proc/sys/kernel/core_uses_pid' && echo WROTE-OK",
			"echo " + v + " | tee /proc/sys/kernel/core_uses_pid >/dev/null && echo WROTE-OK",
			"sysctl -q -w kernel.core_uses_pid=" + v + " && echo WROTE-OK",
			"python3 -c 'open(\"/proc/sys/kernel/core_uses_pid\", \"w\").write(\"" + v + "\")' && echo WROTE-OK",
			"cd /proc/sys/kernel && python3 -c 'open(\"core_uses_pid\", \"w\").write(\"" + v + "\")' && echo WROTE-OK",
			"python3 -c 'import os; os.close(os.open(\"/sys/kernel/profiling\", os.O_WRONLY))' && echo WROTE-OK",
			"sh -c ': >> /sys/kernel/profiling' && echo WROTE-OK",
		} {
			text, _ := p.call("bash", map[string]any{"script": script})
			if strings.Contains(text, "WROTE-OK") {
				t.Errorf("%s: %s wrote a kernel setting:\n%.600s", mech, script, text)
			}
		}
	}
}

// Hard links: .git/config and a hook have other names in the tree (as a
// tarball unpacks them). With read, write and exec in the auto set, every
// way of writing through those names — a redirection, tee, cp, dd, a
// Python program the gate cannot read, the write and edit tools — must
// leave .git untouched; the controls run unasked.
func TestAttackEdges_a_hard_link_to_a_protected_file_writes_nothing(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		w := newEnvWorld(t, `["read", "write", "exec"]`)
		hook := filepath.Join(w.root, ".git", "hooks", "pre-commit")
		writeFile(t, hook, "#!/bin/sh\nexit 0\n", 0o755)
		writeFile(t, filepath.Join(w.root, "sub", "README"), "sub\n", 0o644)
		for _, l := range [][2]string{{".git/config", "cfg"}, {".git/config", "sub/notes.txt"}, {".git/hooks/pre-commit", "build.sh"}} {
			if err := os.Link(filepath.Join(w.root, l[0]), filepath.Join(w.root, l[1])); err != nil {
				t.Fatal(err)
			}
		}
		config, _ := os.ReadFile(filepath.Join(w.root, ".git", "config"))
		p := startEdgeMCP(t, w, mech)
		for _, script := range []string{
			"echo PWNED >> cfg",
			"printf 'PWNED\\n' 1>>sub/notes.txt",
			"echo PWNED | tee -a cfg",
			"cp a.txt cfg",
			"dd of=cfg conv=notrunc status=none <<< PWNED",
			"python3 -c 'open(\"cfg\", \"a\").write(\"PWNED\")'",
			"cd sub && python3 -c 'open(\"notes.txt\", \"a\").write(\"PWNED\")'",
			"sh -c 'echo \"echo PWNED\" >> build.sh'",
			"python3 -c 'open(\"build.sh\", \"a\").write(\"echo PWNED\")'",
			"perl -e 'open(F, \">>\", \"cfg\"); print F \"PWNED\"'",
		} {
			p.call("bash", map[string]any{"script": script})
		}
		p.call("write", map[string]any{"path": "cfg", "content": "PWNED\n"})
		p.call("write", map[string]any{"path": "build.sh", "content": "echo PWNED\n"})
		p.call("edit", map[string]any{"patch": "[sub/notes.txt]\n+PWNED\n"})
		now, _ := os.ReadFile(filepath.Join(w.root, ".git", "config"))
		h, _ := os.ReadFile(hook)
		if string(now) != string(config) || strings.Contains(string(h), "PWNED") {
			t.Errorf("%s: a write through another name reached .git:\nconfig:\n%s\nhook:\n%s", mech, now, h)
		}
		// controls: what names no protected file runs unasked
		for _, c := range []bashRow{
			{script: "echo ok > plain.txt && cat plain.txt", want: "ok"},
			{script: "sed -i s/zeta/eta/ a.txt && head -1 a.txt", want: "eta"},
			{script: "git log --oneline", want: "first"},
			{script: "python3 -c 'print(\"py\" + \"-ok\")'", want: "py-ok"},
		} {
			text, failed := p.call("bash", map[string]any{"script": c.script})
			if failed || !strings.Contains(text, c.want) {
				t.Errorf("%s: control %s did not run unasked:\n%s", mech, c.script, text)
			}
		}
	}
}

// Without net, under each mechanism, a UDP datagram (IPv4, IPv6, from
// Python, Perl or bash's /dev/udp) and a TCP fast-open sendto reach no
// listener of the host; exec is in the auto set, so each runs.
func TestAttackEdges_no_datagram_nor_fast_open_without_net(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	var got atomic.Int32
	go func() {
		buf := make([]byte, 64)
		for {
			if _, _, err := pc.ReadFrom(buf); err != nil {
				return
			}
			got.Add(1)
		}
	}()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	udp, tcp := pc.LocalAddr().(*net.UDPAddr).Port, ln.Addr().(*net.TCPAddr).Port
	goPath, goErr := exec.LookPath("go")
	for _, mech := range mechanisms {
		w := newEnvWorld(t, `["read", "write", "exec"]`)
		cache := filepath.Join(w.base, "gocache")
		writeFile(t, filepath.Join(w.home, ".config", "eukhe", "settings.json"),
			`{"shell.autoEffects": ["read", "write", "exec"], "shell.writableDirs": ["`+cache+`"]}`, 0o644)
		writeFile(t, filepath.Join(w.root, "go.mod"), "module example.org/ctl\n\ngo 1.21\n", 0o644)
		writeFile(t, filepath.Join(w.root, "main.go"), "package main\n\nfunc main() { println(\"built\") }\n", 0o644)
		p := startMCP(t, w.withPath(filepath.Dir(goPath)+":"+os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech,
			"GOCACHE="+cache, "GOFLAGS=-buildvcs=false"), w.root)
		p.waitStderr("headless")
		for _, script := range []string{
			fmt.Sprintf(`python3 -c 'import socket; socket.socket(socket.AF_INET, socket.SOCK_DGRAM).sendto(b"x", ("127.0.0.1", %d))'`, udp),
			fmt.Sprintf(`python3 -c 'import socket; socket.socket(socket.AF_INET6, socket.SOCK_DGRAM).sendto(b"x", ("::ffff:127.0.0.1", %d))'`, udp),
			fmt.Sprintf(`python3 -c 'import socket; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); s.connect(("127.0.0.1", %d)); s.send(b"x")'`, udp),
			fmt.Sprintf(`perl -MIO::Socket::INET -e 'IO::Socket::INET->new(PeerAddr => "127.0.0.1:%d", Proto => "udp")->send("x")'`, udp),
			fmt.Sprintf(`bash -c 'echo x > /dev/udp/127.0.0.1/%d'`, udp),
			fmt.Sprintf(`python3 -c 'import socket; socket.socket().sendto(b"x", socket.MSG_FASTOPEN, ("127.0.0.1", %d))'`, tcp),
			fmt.Sprintf(`python3 -c 'import socket; s = socket.socket(); s.setsockopt(6, 30, 1); s.connect(("127.0.0.1", %d)); s.send(b"x")'`, tcp),
		} {
			p.call("bash", map[string]any{"script": script})
		}
		controls := []bashRow{
			{script: "git log --oneline", want: "first"},
			{script: "python3 -c 'import socket; a, b = socket.socketpair(); a.send(b\"PAI\" + b\"RED\"); print(b.recv(9).decode())'", want: "PAIRED"},
			{script: "sed -i s/zeta/eta/ a.txt && head -1 a.txt", want: "eta"},
		}
		if goErr == nil {
			// (into sub/: under Landlock no file can be made directly in a
			// root holding a read-only .git)
			controls = append(controls, bashRow{script: "go build -o sub/out . && sub/out", want: "built"})
		}
		for _, c := range controls {
			// a go build under load may pass the call's wait and go on
			// as a job (a CI rehearsal): its end is waited for
			if text := r7wait(p, c.script); !strings.Contains(text, c.want) {
				t.Errorf("%s: control %s did not run unasked:\n%s", mech, c.script, text)
			}
		}
	}
	if n := got.Load(); n > 0 {
		t.Errorf("%d datagrams left a sandbox without net", n)
	}
	if n := accepted.Load(); n > 0 {
		t.Errorf("%d TCP connections left a sandbox without net", n)
	}
}

// With net and without secret, an abstract Unix socket of the host (an X
// server's, a session bus's, a container runtime's) is out of reach under
// each mechanism: Python (stream, and through socket.fromfd of a socket
// made by socketpair's peer), Perl and a shell's python -c in sh -c.
func TestAttackEdges_no_abstract_socket_of_the_host_without_secret(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	name := fmt.Sprintf("eukhe-attack-%d", os.Getpid())
	ln, err := net.Listen("unix", "@"+name)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var accepted atomic.Int32
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			accepted.Add(1)
			c.Close()
		}
	}()
	for _, mech := range mechanisms {
		w := newEnvWorld(t, `["read", "write", "exec", "net"]`)
		p := startEdgeMCP(t, w, mech)
		for _, script := range []string{
			`python3 -c 'import socket; socket.socket(socket.AF_UNIX).connect("\0` + name + `")'`,
			`sh -c "python3 -c 'import socket; socket.socket(socket.AF_UNIX).connect(\"\\0` + name + `\")'"`,
			`perl -MSocket -e 'socket(S, PF_UNIX, SOCK_STREAM, 0) or die; connect(S, pack_sockaddr_un("\0` + name + `")) or die'`,
			`python3 -c 'import socket; s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_NONBLOCK); s.connect_ex("\0` + name + `")'`,
		} {
			p.call("bash", map[string]any{"script": script})
		}
		for _, c := range []bashRow{
			{script: "git log --oneline", want: "first"},
			{script: "python3 -c 'import socket; l = socket.socket(socket.AF_UNIX); l.bind(\"\\0own-" + name + "\"); l.listen(); socket.socket(socket.AF_UNIX).connect(\"\\0own-" + name + "\"); print(\"OWN\" + \"-OK\")'", want: "OWN-OK"},
		} {
			text, failed := p.call("bash", map[string]any{"script": c.script})
			if strings.Contains(c.script, "own-") {
				// without secret a step makes no Unix socket, under either
				// mechanism (a docker.sock in the home has no mount to hide it)
				if !strings.Contains(text, "Permission denied") {
					t.Errorf("%s: a step without secret made a Unix socket:\n%s", mech, text)
				}
				continue
			}
			if failed || !strings.Contains(text, c.want) {
				t.Errorf("%s: control %s did not run unasked:\n%s", mech, c.script, text)
			}
		}
	}
	if n := accepted.Load(); n > 0 {
		t.Errorf("%d connections reached the host's abstract socket without secret", n)
	}
}
