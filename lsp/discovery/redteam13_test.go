package discovery

// The thirteenth red team's attack on besideIt, held.

import (
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// Held (was open): besideIt compares the sockets, each resolved as the dial resolves it (lsp/discovery).
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
func TestRedteam13_BesideItRefusesADotDotSpelling(t *testing.T) {
	p := runDir(t)
	dir := p.Dir
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
	fake, err := net.Listen("unix", filepath.Join(ws, "a", "D2", "1-000000ff.sock"))
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
	sock := ws + "/l/../D2/1-000000ff.sock"
	// signed as Listen signs, so that only besideIt stands in the way
	plant(t, p, "1-000000ff.json", Entry{PID: os.Getpid(), Socket: sock, Roots: []string{ws}, Editor: "not-an-editor"})
	conn, e, err := p.Find(ws)
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
