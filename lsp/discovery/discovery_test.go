package discovery

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/eukhe/eukhe/internal/userkey"
)

// runDir is a fresh per-user directory, as Open makes it, with a fresh
// state directory for its key.
func runDir(t *testing.T) Place {
	t.Helper()
	p, err := Open(map[string]string{"XDG_RUNTIME_DIR": t.TempDir(), "XDG_STATE_HOME": t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// plant writes entry e as the file name in p's directory, signed with p's
// key as Listen signs: what an entry that passes the signature but fails
// another rule looks like.
func plant(t *testing.T, p Place, name string, e Entry) {
	t.Helper()
	key, err := userkey.Key(p.KeyDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.Dir, name), signedEntry(key, e), 0o600); err != nil {
		t.Fatal(err)
	}
}

// serve answers each connection with one line naming the server.
func serve(t *testing.T, l *Listener, name string) {
	t.Helper()
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Write([]byte(name + "\n"))
			c.Close()
		}
	}()
}

func who(t *testing.T, p Place, path string) string {
	t.Helper()
	c, _, err := p.Find(path)
	if err != nil {
		return err.Error()
	}
	defer c.Close()
	line, _ := bufio.NewReader(c).ReadString('\n')
	return line[:len(line)-1]
}

func TestDirIsPrivate(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows: mode bits say nothing of who may enter; the profile's ACL does (dir_windows.go)")
	}
	p := runDir(t)
	dir := p.Dir
	fi, err := os.Stat(dir)
	if err != nil || fi.Mode().Perm() != 0o700 {
		t.Fatalf("%s: %v %v", dir, fi.Mode(), err)
	}
	os.Chmod(dir, 0o755)
	if _, err := Dir(map[string]string{"XDG_RUNTIME_DIR": filepath.Dir(dir)}); err == nil {
		t.Fatal("a 0755 socket directory was accepted")
	}
	if _, err := p.Listen([]string{"/x"}, "t"); err == nil {
		t.Fatal("Listen in a 0755 directory")
	}
}

func TestListenWritesSocketAndFileAndCloseRemovesThem(t *testing.T) {
	p := runDir(t)
	dir := p.Dir
	l, err := p.Listen([]string{"/w"}, "nvim")
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(l.Entry.Socket)
	if err != nil || fi.Mode().Perm() != 0o600 || fi.Mode()&os.ModeSocket == 0 {
		t.Fatalf("socket: %v %v", fi.Mode(), err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("files %v", files)
	}
	var e Entry
	data, _ := os.ReadFile(files[0])
	if json.Unmarshal(data, &e) != nil || e.PID != os.Getpid() || e.Socket != l.Entry.Socket || e.Roots[0] != "/w" || e.Editor != "nvim" {
		t.Fatalf("entry %s", data)
	}
	l.Close()
	left, _ := os.ReadDir(dir)
	if len(left) != 0 {
		t.Fatalf("left after Close: %v", left)
	}
}

func TestFindPicksTheDeepestRootThatHoldsTheDirectory(t *testing.T) {
	p := runDir(t)
	for _, s := range []struct{ name, root string }{{"outer", "/w"}, {"inner", "/w/sub"}, {"other", "/v"}} {
		l, err := p.Listen([]string{"/elsewhere", s.root}, "t")
		if err != nil {
			t.Fatal(err)
		}
		serve(t, l, s.name)
	}
	for path, want := range map[string]string{
		"/w": "outer", "/w/a/b": "outer", "/w/sub": "inner", "/w/sub/x": "inner",
		"/w/subway": "outer", "/v/q": "other", "/u": ErrNone.Error(),
	} {
		if got := who(t, p, path); got != want {
			t.Errorf("Find %s: %s, want %s", path, got, want)
		}
	}
}

func TestFindRemovesStaleFiles(t *testing.T) {
	p := runDir(t)
	dir := p.Dir
	live, err := p.Listen([]string{"/w"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	serve(t, live, "live")
	// A deeper server whose socket refuses: its process (this one) lives,
	// but nothing listens.
	refusing, err := p.Listen([]string{"/w/sub"}, "t")
	if err != nil {
		t.Fatal(err)
	}
	refusing.Listener.Close()
	// A server whose process is dead.
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		testkit.Missing(t, fmt.Sprintf("true is not on PATH: %v", err))
	}
	dead := Entry{PID: cmd.Process.Pid, Socket: filepath.Join(dir, "9-0000dead.sock"), Roots: []string{"/w/sub/deeper"}}
	plant(t, p, "9-0000dead.json", dead)
	os.WriteFile(dead.Socket, nil, 0o600)

	if got := who(t, p, "/w/sub/deeper/x"); got != "live" {
		t.Fatalf("Find: %s", got)
	}
	for _, f := range []string{"9-0000dead.json", "9-0000dead.sock", filepath.Base(refusing.file), filepath.Base(refusing.Entry.Socket)} {
		if _, err := os.Lstat(filepath.Join(dir, f)); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("stale %s not removed: %v", f, err)
		}
	}
	if _, err := os.Lstat(live.file); err != nil {
		t.Errorf("the live server's file: %v", err)
	}
}
