package discovery

import (
	"bufio"
	"errors"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// whoFinds is who for a Finder.
func whoFinds(t *testing.T, f *Finder, path string) string {
	t.Helper()
	c, _, err := f.Find(path)
	if err != nil {
		return err.Error()
	}
	defer c.Close()
	line, _ := bufio.NewReader(c).ReadString('\n')
	return line[:len(line)-1]
}

// A Finder finds a server that started after a look that found none, at
// the very next look: its Listen changed the directory.
func TestAFinderFindsAServerThatStartedAfterItsLastLook(t *testing.T) {
	p := runDir(t)
	f := &Finder{Place: p, Recheck: time.Hour}
	if got := whoFinds(t, f, "/w/a"); got != ErrNone.Error() {
		t.Fatalf("before any server: %s", got)
	}
	l, err := p.Listen([]string{"/w"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	serve(t, l, "late")
	if got := whoFinds(t, f, "/w/a"); got != "late" {
		t.Fatalf("after the server started: %s, want late", got)
	}
	// A server that went away and one that came back.
	l.Close()
	if got := whoFinds(t, f, "/w/a"); got != ErrNone.Error() {
		t.Fatalf("after the server went: %s", got)
	}
	l2, err := p.Listen([]string{"/w"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	serve(t, l2, "again")
	if got := whoFinds(t, f, "/w/a"); got != "again" {
		t.Fatalf("after a new server started: %s, want again", got)
	}
}

// Where the directory's time did not move (a file system with coarse
// times), the Finder still looks in full once Recheck has passed; before
// that it answers from one stat.
func TestAFinderLooksInFullEveryRecheck(t *testing.T) {
	p := runDir(t)
	dir := p.Dir
	f := &Finder{Place: p, Recheck: 200 * time.Millisecond}
	if got := whoFinds(t, f, "/w"); got != ErrNone.Error() {
		t.Fatalf("before any server: %s", got)
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	l, err := p.Listen([]string{"/w"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	serve(t, l, "coarse")
	if err := os.Chtimes(dir, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := whoFinds(t, f, "/w"); got != ErrNone.Error() {
		t.Fatalf("an unchanged directory was read again at once: %s", got)
	}
	time.Sleep(250 * time.Millisecond)
	if got := whoFinds(t, f, "/w"); got != "coarse" {
		t.Fatalf("after Recheck: %s, want coarse", got)
	}
}

// A missing directory is an error, never a server.
func TestAFinderOfNoDirectorySaysSo(t *testing.T) {
	f := &Finder{Place: Place{Dir: t.TempDir() + "/gone"}}
	if _, _, err := f.Find("/w"); err == nil || errors.Is(err, ErrNone) {
		t.Fatalf("Find in a missing directory: %v", err)
	}
}

// An entry whose socket is not the one Listen pairs with its file (a
// socket in a workspace, named by a planted file) is never dialled.
func TestAnEntryNamingASocketElsewhereIsNoServer(t *testing.T) {
	p := runDir(t)
	l, err := p.Listen([]string{"/w"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	serve(t, l, "real")
	// the agent's own server, in its workspace, answering as an editor
	sock := filepath.Join(t.TempDir(), "fake.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	serve(t, &Listener{Listener: ln}, "planted")
	planted := l.Entry
	planted.Socket = sock
	planted.Roots = []string{"/w/deeper"}
	plant(t, p, "1-00000000.json", planted)
	if got := who(t, p, "/w/deeper/x"); got != "real" {
		t.Fatalf("Find: %s, want the real server (the planted entry names another file's socket)", got)
	}
}

// An entry whose name is not of the form Listen gives (a planted
// "evil.json" beside its own "evil.sock", a live pid, the right roots) is
// no server: only a name the gate holds secret in any socket directory is
// read (gate.DiscoveryEntryName). The same entry under such a name is
// found: the control.
func TestAnEntryOfAnotherNameIsNoServer(t *testing.T) {
	for _, c := range []struct {
		base  string
		found bool
	}{{"evil", false}, {"package", false}, {"1-ff", false}, {"12-0123abcd", true}} {
		p := runDir(t)
		dir := p.Dir
		ln, err := net.Listen("unix", filepath.Join(dir, c.base+".sock"))
		if err != nil {
			t.Fatal(err)
		}
		serve(t, &Listener{Listener: ln}, "planted")
		plant(t, p, c.base+".json", Entry{PID: os.Getpid(), Socket: filepath.Join(dir, c.base+".sock"), Roots: []string{"/w"}, Editor: "planted"})
		if got := who(t, p, "/w/x"); (got == "planted") != c.found {
			t.Errorf("%s.json: Find gave %q; found %v, want %v", c.base, got, got == "planted", c.found)
		}
	}
}
