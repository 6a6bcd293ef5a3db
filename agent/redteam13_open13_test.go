//go:build open_attacks && linux

package agent

// The thirteenth red team's attacks that got through (build tag
// open_attacks): each test asserts the safe outcome and fails today.

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/lsp/discovery"
)

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
