//go:build open_attacks && linux

package discovery

// The thirty-second red team's discovery attacks that GOT THROUGH (each
// asserts the safe outcome, so it fails while the hole is open). The
// held ones are in redteam32_held_linux_test.go, with the helpers.

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/internal/userkey"
)

// Attack (a genuine entry whose socket is replaced; GOT THROUGH, low:
// the run directory is secret to every step, so only a step the user
// approved for secret there, or a program no sandbox confines, can do
// it): the editor's eukhe publishes a signed entry naming D/P-R.sock; a
// process of the agent's removes that socket and listens at the same
// path (the genuine server keeps its unlinked socket and lives on). The
// entry still verifies and its pid lives, so `eukhe mcp` attaches to the
// agent's server as its editor. Root cause: the MAC binds the socket's
// path, not the listener: nothing ties the process answering to the
// entry's pid. Safe outcome: Find does not return the agent's server.
// Suggested fix: after the dial, read the peer's credentials
// (SO_PEERCRED on Linux, LOCAL_PEERPID / getpeereid elsewhere) and refuse
// a peer whose pid is not the entry's (and whose uid is not the user's).
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

// Attack (the key's directory a link; GOT THROUGH, low: the state
// directory is secret to every step, TestRedteam32_StateDirectoryReplacedFromAbove
// in gate): the discovery directory under eukhe's state directory is
// replaced by a symbolic link to a directory of the agent's holding a
// key it knows (0600, the user's: the agent runs as the user). userkey
// opens the key with O_NOFOLLOW at its last part only, so it follows the
// link above it and reads the agent's key; every entry the agent signs
// with it verifies. Root cause: the laws of userkey refuse a link at the
// key's name but not at its directory, which is as much the key's. Safe
// outcome: no entry signed with the agent's key verifies. Suggested fix:
// open the key directory with O_NOFOLLOW|O_DIRECTORY (or openat2
// RESOLVE_NO_SYMLINKS below the state directory) and require it to be
// 0700 and the user's, then openat the key in it.
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
