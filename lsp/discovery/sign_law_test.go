package discovery

import (
	"bytes"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"github.com/eukhe/eukhe/internal/userkey"
	"pgregory.net/rapid"
)

// drawEntry is any entry a server could publish, odd strings included.
func drawEntry(rt *rapid.T) Entry {
	str := rapid.StringMatching(`[a-z/"\\\x00-\x1f\x{7f}-\x{10ffff}]{0,12}`)
	return Entry{
		PID:     rapid.IntRange(0, 1<<31-1).Draw(rt, "pid"),
		Socket:  str.Draw(rt, "socket"),
		Roots:   rapid.SliceOfN(str, 0, 3).Draw(rt, "roots"),
		Editor:  str.Draw(rt, "editor"),
		Kind:    rapid.SampledFrom([]string{"", "approvals"}).Draw(rt, "kind"),
		Session: str.Draw(rt, "session"),
		Parent:  str.Draw(rt, "parent"),
	}
}

// Only an entry signed with the user's key is a server's: the file Listen
// writes verifies as the entry it was made from, and every other file —
// the same entry unsigned, signed with another key, changed in any one
// byte, with a member added after the MAC or before it — does not. An
// agent's step can make such files anywhere (another eukhe's socket
// directory outside the roots, through names its words never show), but
// cannot read the key, so none of them can make an eukhe attach to the
// step's server.
func TestLaw_only_a_signed_entry_is_a_server(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		key := rapid.SliceOfN(rapid.Byte(), 32, 32).Draw(rt, "key")
		e := drawEntry(rt)
		file := signedEntry(key, e)
		got, ok := verifiedEntry(key, file)
		if !ok {
			rt.Fatalf("the file Listen writes does not verify: %s", file)
		}
		// JSON gives back what it can hold (invalid UTF-8 as U+FFFD):
		// the entry the file says is the one a plain decode gives
		var want Entry
		plain, _ := json.Marshal(e)
		json.Unmarshal(plain, &want)
		if !reflect.DeepEqual(got, want) {
			rt.Fatalf("verified as %+v, want %+v", got, want)
		}
		other := rapid.SliceOfN(rapid.Byte(), 32, 32).Filter(func(k []byte) bool { return !bytes.Equal(k, key) }).Draw(rt, "other key")
		var forged []byte
		switch rapid.IntRange(0, 5).Draw(rt, "forgery") {
		case 0: // the entry as an earlier eukhe wrote it, unsigned
			forged = plain
		case 1: // signed with another key (another user's, a guess)
			forged = signedEntry(other, e)
		case 2: // one byte changed
			forged = bytes.Clone(file)
			i := rapid.IntRange(0, len(forged)-1).Draw(rt, "at")
			forged[i] ^= byte(rapid.IntRange(1, 255).Draw(rt, "xor"))
		case 3: // a member added after the MAC
			forged = append(bytes.Clone(file[:len(file)-1]), `,"socket":"/w/evil.sock"}`...)
		case 4: // a member added before the MAC
			i := bytes.LastIndex(file, macMember)
			forged = append(append(bytes.Clone(file[:i]), `,"editor":"x"`...), file[i:]...)
		case 5: // no key at all on the reader's side
			if _, ok := verifiedEntry(nil, file); ok {
				rt.Fatalf("a file verified with no key")
			}
			return
		}
		if _, ok := verifiedEntry(key, forged); ok {
			rt.Fatalf("a forged file verified: %s", forged)
		}
	})
}

// Attack (the twenty-seventh, twenty-eighth and twenty-ninth red teams'
// open gate rows, held here at the reader): a step copies, moves, links
// or unpacks a tree that holds eukhe/1-deadbeef.json (and its socket)
// into a directory outside the roots that another eukhe uses as its
// XDG_RUNTIME_DIR (`cp -rT y OUT/run`, `mv src OUT/x`, `ln -s ROOT/src
// OUT/xdg`, `git init OUT/eukhe/x`): names its words never show, which
// the gate's name rules do not see. The entry names a live server of the
// step's own, beside it. Held: the entry is not signed with the user's
// key, so that eukhe finds no editor there. The control: the same
// directory with an entry Listen signed is found.
func TestRedteam27_APlantedSocketDirectoryOutsideTheRootsIsNoEditor(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows: Unix sockets in a temporary directory; dir_windows.go")
	}
	state := t.TempDir()
	out := t.TempDir()
	// what the step made: OUT/run/eukhe, 0700, with an entry and its
	// live socket
	run := filepath.Join(out, "run")
	p, err := Open(map[string]string{"XDG_RUNTIME_DIR": run, "XDG_STATE_HOME": state})
	if err != nil {
		if err = os.MkdirAll(filepath.Join(run, "eukhe"), 0o700); err == nil {
			p, err = Open(map[string]string{"XDG_RUNTIME_DIR": run, "XDG_STATE_HOME": state})
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	sock := filepath.Join(p.Dir, "1-deadbeef.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	serve(t, &Listener{Listener: ln}, "planted")
	e := Entry{PID: os.Getpid(), Socket: sock, Roots: []string{"/"}, Editor: "planted"}
	plain, _ := json.Marshal(e)
	stepKey := bytes.Repeat([]byte{7}, 32) // the best a step can do: a key of its own
	for name, file := range map[string][]byte{
		"unsigned":                 plain,
		"signed with another key":  signedEntry(stepKey, e),
		"signed, then one changed": bytes.Replace(signedEntry(stepKey, e), []byte(`"planted"`), []byte(`"Planted"`), 1),
	} {
		if err := os.WriteFile(filepath.Join(p.Dir, "1-deadbeef.json"), file, 0o600); err != nil {
			t.Fatal(err)
		}
		if got := who(t, p, "/w/x"); got == "planted" {
			t.Errorf("THROUGH (%s): an eukhe with XDG_RUNTIME_DIR=%s attached to the step's server", name, run)
		}
	}
	// the control: an entry signed with the user's key is found
	key, err := userkey.Key(p.KeyDir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.Dir, "1-deadbeef.json"), signedEntry(key, e), 0o600); err != nil {
		t.Fatal(err)
	}
	if got := who(t, p, "/w/x"); got != "planted" {
		t.Errorf("control: the signed entry was not found: %s", got)
	}
}
