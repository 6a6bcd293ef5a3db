//go:build unix

package userkey

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (a link between the state directory and a journal's key
// directory; HELD, medium if it got through: recovery acts on a journal
// it verifies, writing the files it names): the journals' directory
// $XDG_STATE_HOME/eukhe/journal is replaced by a symbolic link to a
// directory of the agent's holding <hash>/key, a key it knows, and a
// journal signed with it. A check of the key's own directory alone (its
// last part) passes: the link is one level up. HELD: every directory
// below the state directory is opened without following a link. Safe
// outcome: the journal key is refused, saying which directory is a
// link, so no journal signed with the agent's key verifies.
func TestRedteam32_JournalKeyDirLinkedAboveIsRefused(t *testing.T) {
	state := filepath.Join(t.TempDir(), "eukhe")
	theirs := filepath.Join(t.TempDir(), "journal")
	if err := os.MkdirAll(filepath.Join(theirs, "0123456789abcdef"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(theirs, "0123456789abcdef", Name), bytes.Repeat([]byte{9}, 32), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(state, "journal")
	if err := os.Symlink(theirs, link); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(link, "0123456789abcdef")
	for name, read := range map[string]func(string) ([]byte, error){"Key": Key, "Existing": Existing} {
		if k, err := read(dir); err == nil {
			t.Errorf("THROUGH: %s read %x through the linked journal directory", name, k)
		} else if !strings.Contains(err.Error(), link+" is a symbolic link") {
			t.Errorf("%s's error does not name the link: %v", name, err)
		}
	}
}

// Attack (the key's directory swapped for a link after it was opened;
// HELD, low): between the walk to the key's directory and the key's
// open, the directory is renamed away and a link to the agent's put in
// its place. HELD: the key is opened relative to the directory's
// descriptor (openat), never again by path, so it is read from the
// directory the walk checked. Safe outcome: the key read is the user's.
func TestRedteam32_KeyDirSwappedAfterTheWalkIsNotFollowed(t *testing.T) {
	state := filepath.Join(t.TempDir(), "eukhe")
	dir := filepath.Join(state, "discovery")
	mine, err := Key(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := openDir(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	defer d.close()
	theirs := t.TempDir()
	if err := os.WriteFile(filepath.Join(theirs, Name), bytes.Repeat([]byte{9}, 32), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(dir, dir+".away"); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(theirs, dir); err != nil {
		t.Fatal(err)
	}
	if k, err := d.read(); err != nil || !bytes.Equal(k, mine) {
		t.Errorf("THROUGH: the key read after the swap is %x (%v), not the user's %x", k, err, mine)
	}
}
