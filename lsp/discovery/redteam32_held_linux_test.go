//go:build linux

package discovery

// The thirty-second red team's discovery attacks that were HELD when it
// ran (each asserts the safe outcome and passes); the ones that got
// through are in redteam32_open_attacks_test.go, which uses the helpers
// here.

import (
	"bytes"
	"net"
	"os"
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/internal/userkey"
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
