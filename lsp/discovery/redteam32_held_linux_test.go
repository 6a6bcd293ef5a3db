//go:build linux

package discovery

// The thirty-second red team's discovery attacks, all HELD (each asserts
// the safe outcome and passes): those held when it ran, the two that got
// through then and are held since (a genuine entry's socket replaced, a
// linked key directory), and the variations made around their fixes.

import (
	"bufio"
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/internal/userkey"
	"github.com/eukhe/eukhe/protocol"
)

// r32Genuine is a Place (fresh run and state directories) with a server
// of eukhe's listening in it, answering "genuine", whose roots hold /w.
func r32Genuine(t *testing.T) (Place, *Listener) {
	t.Helper()
	p := runDir(t)
	l, err := p.Listen([]string{"/w"}, "genuine")
	if err != nil {
		t.Fatal(err)
	}
	serve(t, l, "genuine")
	return p, l
}

// r32Serve listens on sock and answers each connection with name.
func r32Serve(t *testing.T, sock, name string) {
	t.Helper()
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	serve(t, &Listener{Listener: ln}, name)
}

// Attack (a replayed genuine entry; HELD, high): an eukhe's signed entry
// (the agent can see its name, and where no sandbox hides the run
// directory, its bytes) copied or hard-linked into a directory of the
// agent's that another eukhe reads (XDG_RUNTIME_DIR set to it), beside a
// socket of the agent's of the same name. HELD: the MAC covers the
// socket path, and besideIt requires the socket beside the entry to be
// the file the entry names; the copy names the genuine socket elsewhere.
// Safe outcome: the agent's server is never found.
func TestRedteam32_ReplayedEntryFindsNoPlant(t *testing.T) {
	p, l := r32Genuine(t)
	data, err := os.ReadFile(l.file)
	if err != nil {
		t.Fatal(err)
	}
	q := Place{Dir: t.TempDir(), KeyDir: p.KeyDir}
	if err := os.Chmod(q.Dir, 0o700); err != nil {
		t.Fatal(err)
	}
	base := filepath.Base(l.file)
	r32Serve(t, filepath.Join(q.Dir, base[:len(base)-len(".json")]+".sock"), "planted")
	for name, put := range map[string]func(string) error{
		"copied":      func(dst string) error { return os.WriteFile(dst, data, 0o600) },
		"hard-linked": func(dst string) error { return os.Link(l.file, dst) },
	} {
		dst := filepath.Join(q.Dir, base)
		os.Remove(dst)
		if err := put(dst); err != nil {
			t.Fatal(err)
		}
		if got := who(t, q, "/w/x"); got == "planted" {
			t.Errorf("THROUGH (%s): the replayed entry found the agent's server", name)
		}
	}
	if got := who(t, p, "/w/x"); got != "genuine" {
		t.Errorf("control: the genuine server was not found: %s", got)
	}
}

// Attack (two eukhes with different environments; HELD, medium): an
// eukhe started with XDG_STATE_HOME=A (the agent's step runs `eukhe lsp`
// or `eukhe mcp` with a state directory of its own, so a key it can
// read) publishes an entry in the run directory the user's eukhe reads.
// HELD: the user's eukhe verifies with its own key, so an entry signed
// with A's key is no server of its. Safe outcome: the agent's server is
// never found, and the genuine one is.
func TestRedteam32_OtherStateDirEntryIsNoServer(t *testing.T) {
	p, _ := r32Genuine(t)
	agent := Place{Dir: p.Dir, KeyDir: filepath.Join(t.TempDir(), "eukhe", "discovery")}
	l, err := agent.Listen([]string{"/w/x"}, "planted") // deeper root: it would win
	if err != nil {
		t.Fatal(err)
	}
	serve(t, l, "planted")
	if got := who(t, p, "/w/x/y"); got != "genuine" {
		t.Errorf("THROUGH: the user's eukhe found %q", got)
	}
}

// Attack (the key file replaced by the agent's; HELD, high): a key the
// agent knows put at the key's name as a symbolic link to a file of the
// agent's, or as a file readable by others (written by a step's umask).
// HELD: userkey opens the key without following a link at its last part
// and refuses a file that is not of this user's alone. Safe outcome: no
// entry signed with the agent's key verifies.
func TestRedteam32_LinkedOrLooseKeyRefused(t *testing.T) {
	agentKey := bytes.Repeat([]byte{9}, 32)
	for name, plant := range map[string]func(dir string) error{
		"link": func(dir string) error {
			f := filepath.Join(t.TempDir(), "k")
			if err := os.WriteFile(f, agentKey, 0o600); err != nil {
				return err
			}
			return os.Symlink(f, filepath.Join(dir, userkey.Name))
		},
		"loose": func(dir string) error { return os.WriteFile(filepath.Join(dir, userkey.Name), agentKey, 0o644) },
	} {
		t.Run(name, func(t *testing.T) {
			p := runDir(t)
			if err := os.MkdirAll(p.KeyDir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := plant(p.KeyDir); err != nil {
				t.Fatal(err)
			}
			if name == "loose" {
				if err := os.Chmod(filepath.Join(p.KeyDir, userkey.Name), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			sock := filepath.Join(p.Dir, "1-deadbeef.sock")
			r32Serve(t, sock, "planted")
			e := Entry{PID: os.Getpid(), Socket: sock, Roots: []string{"/"}, Editor: "planted"}
			if err := os.WriteFile(filepath.Join(p.Dir, "1-deadbeef.json"), signedEntry(agentKey, e), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := who(t, p, "/w/x"); got == "planted" {
				t.Errorf("THROUGH: the agent's key (%s) signed a server", name)
			}
		})
	}
}

// Attack (a genuine entry whose socket is replaced; HELD since, low:
// the run directory is secret to every step, so only a step the user
// approved for secret there, or a program no sandbox confines, can do
// it): the editor's eukhe publishes a signed entry naming D/P-R.sock; a
// process of the agent's removes that socket and listens at the same
// path (the genuine server keeps its unlinked socket and lives on). The
// entry still verifies and its pid lives, so `eukhe mcp` attached to the
// agent's server as its editor: the MAC binds the socket's path, not the
// listener. HELD: Dial (peer.go), which every dial of an entry goes
// through, reads the peer's credentials (SO_PEERCRED: the process that
// made the listening socket) and refuses a process that is not the
// entry's, or a user that is not this one. Safe outcome: Find does not
// return the agent's server.
func TestRedteam32_GenuineEntrySocketReplaced(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		testkit.Missing(t, "python3")
	}
	p, l := r32Genuine(t)
	sock := l.Entry.Socket
	if err := os.Remove(sock); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(py, "-c", `import socket,sys
s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
print("up", flush=True)
while True:
    c,_=s.accept(); c.sendall(b"planted\n"); c.close()`, sock)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // the process this test started
	up := make(chan string, 1)
	go func() { line, _ := bufio.NewReader(out).ReadString('\n'); up <- line }()
	select {
	case line := <-up:
		if !strings.HasPrefix(line, "up") {
			t.Fatalf("the agent's server did not start: %q", line)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the agent's server did not start in a minute")
	}
	if got := who(t, p, "/w/x"); got == "planted" {
		t.Errorf("THROUGH: the genuine entry led to the agent's server")
	}
}

// Attack (the key's directory a link; HELD since, low: the state
// directory is secret to every step, TestRedteam32_StateDirectoryReplacedFromAbove
// in gate): the discovery directory under eukhe's state directory is
// replaced by a symbolic link to a directory of the agent's holding a
// key it knows (0600, the user's: the agent runs as the user). userkey
// opened the key with O_NOFOLLOW at its last part only, so it followed
// the link above it and read the agent's key. HELD: userkey opens each
// directory below the state directory with O_NOFOLLOW|O_DIRECTORY, one
// part at a time, requires each to be the user's and not writable by
// others, and opens the key in the directory so opened (openat). Safe
// outcome: no entry signed with the agent's key verifies.
func TestRedteam32_LinkedKeyDirIsFollowed(t *testing.T) {
	p := runDir(t)
	agentKey := bytes.Repeat([]byte{9}, 32)
	mine := filepath.Join(t.TempDir(), "mine")
	if err := os.MkdirAll(mine, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(mine, userkey.Name), agentKey, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p.KeyDir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mine, p.KeyDir); err != nil {
		t.Fatal(err)
	}
	sock := filepath.Join(p.Dir, "1-deadbeef.sock")
	r32Serve(t, sock, "planted")
	e := Entry{PID: os.Getpid(), Socket: sock, Roots: []string{"/"}, Editor: "planted"}
	if err := os.WriteFile(filepath.Join(p.Dir, "1-deadbeef.json"), signedEntry(agentKey, e), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := who(t, p, "/w/x"); got == "planted" {
		t.Errorf("THROUGH: the agent's key, through a linked key directory, signed a server")
	}
}

// r32Agent starts a process of the agent's (python3, not this test's)
// listening at sock and answering each connection "planted".
func r32Agent(t *testing.T, sock string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		testkit.Missing(t, "python3")
	}
	cmd := exec.Command(py, "-c", `import socket,sys
s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(8)
print("up", flush=True)
while True:
    c,_=s.accept(); c.sendall(b"planted\n"); c.close()`, sock)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() }) // the process this test started
	up := make(chan string, 1)
	go func() { line, _ := bufio.NewReader(out).ReadString('\n'); up <- line }()
	select {
	case line := <-up:
		if !strings.HasPrefix(line, "up") {
			t.Fatalf("the agent's server did not start: %q", line)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("the agent's server did not start in a minute")
	}
}

// r32Line is the first line conn answers, without its newline.
func r32Line(conn net.Conn) string {
	defer conn.Close()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	line, _ := bufio.NewReader(conn).ReadString('\n')
	return strings.TrimSuffix(line, "\n")
}

// Attack (a genuine entry's socket replaced by a link; HELD, low: as
// TestRedteam32_GenuineEntrySocketReplaced, the run directory is secret
// to every step): the agent's process listens at a socket of its own
// elsewhere and puts a symbolic link to it at the genuine entry's socket
// path. besideIt compares the socket beside the entry with the one the
// entry names, each reached by the same path through the same link, so
// both are the agent's and agree; the dial follows the link. HELD: Dial
// reads who answers, the agent's process, not the entry's. Safe outcome:
// Find does not return the agent's server, and its error says another
// program took the socket's path (errors.Is ErrNone still holds).
func TestRedteam32_EntrySocketLinkedToAnotherServer(t *testing.T) {
	p, l := r32Genuine(t)
	theirs := filepath.Join(t.TempDir(), "a.sock")
	r32Agent(t, theirs)
	if err := os.Remove(l.Entry.Socket); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(theirs, l.Entry.Socket); err != nil {
		t.Fatal(err)
	}
	conn, _, err := p.Find("/w/x")
	if err == nil {
		if got := r32Line(conn); got == "planted" {
			t.Fatalf("THROUGH: a link at the genuine entry's socket led to the agent's server")
		}
		t.Fatalf("found a server through the link, not the agent's: want none")
	}
	var taken *NotTheServer
	if !errors.Is(err, ErrNone) || !errors.As(err, &taken) || !strings.Contains(err.Error(), "another program took") {
		t.Errorf("the error does not say another program answers: %v", err)
	}
	if _, err := os.Stat(l.file); err != nil {
		t.Errorf("the live server's entry was removed: %v", err)
	}
}

// Attack (a headless session's approvals endpoint replaced; HELD, low:
// the run directory is secret to every step): a headless `eukhe mcp`
// publishes its session's approvals endpoint; a process of the agent's
// removes its socket and listens there. A subagent in another process
// relays its questions to that endpoint (FindSession, G5) and `eukhe
// approvals` answers them through it (FindApprovals): the agent's server
// would be asked, and would answer, every question. HELD: FindSession
// and FindApprovals dial through Dial, which refuses a process that is
// not the entry's. Safe outcome: neither returns the agent's server.
func TestRedteam32_SessionEndpointSocketReplaced(t *testing.T) {
	p := runDir(t)
	l, err := p.ListenEntry(Entry{Roots: []string{"/w"}, Kind: protocol.KindApprovals, Session: "s1"})
	if err != nil {
		t.Fatal(err)
	}
	serve(t, l, "genuine")
	if err := os.Remove(l.Entry.Socket); err != nil {
		t.Fatal(err)
	}
	r32Agent(t, l.Entry.Socket)
	if conn, _, err := p.FindSession("s1"); err == nil {
		t.Errorf("THROUGH: FindSession dialled %q", r32Line(conn))
	} else if !errors.Is(err, ErrNone) || !strings.Contains(err.Error(), "another program took") {
		t.Errorf("FindSession's error does not say another program answers: %v", err)
	}
	eps, err := p.FindApprovals("/w/x", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, ep := range eps {
		t.Errorf("THROUGH: FindApprovals dialled %q", r32Line(ep.Conn))
	}
}

// Attack (the key's directory open to others; HELD, low: another user
// of the machine, where the user made the state directory with a loose
// mode or umask): the discovery key's directory, or the state directory
// above it, is mode 0777; another user replaces the key with one of
// theirs (here the file is the user's: what counts is the directory
// anyone may write). HELD: userkey refuses a directory on the key's way
// that others may write, and says to chmod go-w it. Safe outcome: no
// entry signed with the planted key verifies, and Listen signs nothing.
func TestRedteam32_KeyDirOpenToOthersIsRefused(t *testing.T) {
	agentKey := bytes.Repeat([]byte{9}, 32)
	for name, loose := range map[string]func(p Place) string{
		"key directory":   func(p Place) string { return p.KeyDir },
		"state directory": func(p Place) string { return filepath.Dir(p.KeyDir) },
	} {
		t.Run(name, func(t *testing.T) {
			p := runDir(t)
			if err := os.MkdirAll(p.KeyDir, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(p.KeyDir, userkey.Name), agentKey, 0o600); err != nil {
				t.Fatal(err)
			}
			dir := loose(p)
			if err := os.Chmod(dir, 0o777); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
			sock := filepath.Join(p.Dir, "1-deadbeef.sock")
			r32Serve(t, sock, "planted")
			e := Entry{PID: os.Getpid(), Socket: sock, Roots: []string{"/"}, Editor: "planted"}
			if err := os.WriteFile(filepath.Join(p.Dir, "1-deadbeef.json"), signedEntry(agentKey, e), 0o600); err != nil {
				t.Fatal(err)
			}
			if got := who(t, p, "/w/x"); got == "planted" {
				t.Errorf("THROUGH: a key in a directory anyone may write signed a server")
			}
			if l, err := p.Listen([]string{"/w"}, "genuine"); err == nil {
				l.Close()
				t.Errorf("THROUGH: Listen signed with a key in a directory anyone may write")
			} else if !strings.Contains(err.Error(), "chmod go-w "+dir) {
				t.Errorf("Listen's error does not say what to do: %v", err)
			}
		})
	}
}

// Attack (a linked key directory with no key yet; HELD, low: the state
// directory is secret to every step): before eukhe's first start (or
// after the user removed the key), the discovery directory is a link to
// an empty directory of the agent's. Were the key made through the link,
// it would lie where the agent reads it, and the agent could sign every
// entry from then on. HELD: the key is made in the directory opened
// without following a link; the link is refused before anything is
// made. Safe outcome: Listen fails saying the directory is a link, and
// nothing is made in the agent's directory.
func TestRedteam32_LinkedKeyDirGetsNoKeyMade(t *testing.T) {
	p := runDir(t)
	mine := filepath.Join(t.TempDir(), "mine")
	if err := os.MkdirAll(mine, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(p.KeyDir), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(mine, p.KeyDir); err != nil {
		t.Fatal(err)
	}
	l, err := p.Listen([]string{"/w"}, "genuine")
	if err == nil {
		l.Close()
		t.Errorf("THROUGH: Listen signed with a key made through a linked directory")
	} else if !strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("Listen's error does not say the directory is a link: %v", err)
	}
	if names, _ := os.ReadDir(mine); len(names) != 0 {
		t.Errorf("THROUGH: something was made in the agent's directory: %v", names)
	}
}

// Attack (the genuine server's listener handed down; HELD, medium if it
// got through: the peer check would pass): Dial trusts the kernel's word
// that the process that made the listening socket is the entry's, and
// every process holding that socket may accept on it. In attach mode the
// editor's eukhe runs the agent's steps as its children: a step that
// inherited the listener would accept `eukhe mcp`'s connection and
// answer as the editor's server, past the check. HELD: Go opens every
// socket close-on-exec, so no exec'd child holds it. Safe outcome: no
// listening socket at the entry's path is open in a child.
func TestRedteam32_ServersChildrenInheritNoListener(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		testkit.Missing(t, "python3")
	}
	_, l := r32Genuine(t)
	cmd := exec.Command(py, "-c", `import os,socket
for fd in range(min(os.sysconf("SC_OPEN_MAX"), 65536)):
    try:
        s=socket.socket(fileno=os.dup(fd))
    except OSError:
        continue
    try:
        if s.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
            print(s.getsockname())
    except OSError:
        pass
    s.close()`)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the child: %v: %s", err, out)
	}
	if strings.Contains(string(out), l.Entry.Socket) {
		t.Errorf("THROUGH: a child holds the server's listening socket: %s", out)
	}
}
