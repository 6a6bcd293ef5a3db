//go:build unix

package userkey

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// A key is made once: processes starting at once agree on the first, and
// a later read gives the same bytes.
func TestKeyIsMadeOnceAndKept(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state", "eukhe", "discovery")
	keys := make([][]byte, 8)
	var wg sync.WaitGroup
	for i := range keys {
		wg.Add(1)
		go func() {
			defer wg.Done()
			k, err := Key(dir)
			if err != nil {
				t.Error(err)
			}
			keys[i] = k
		}()
	}
	wg.Wait()
	for _, k := range keys[1:] {
		if !bytes.Equal(k, keys[0]) || len(k) != 32 {
			t.Fatalf("keys differ: %x, %x", k, keys[0])
		}
	}
	if again, err := Existing(dir); err != nil || !bytes.Equal(again, keys[0]) {
		t.Fatalf("read again: %x, %v", again, err)
	}
	fi, err := os.Stat(filepath.Join(dir, Name))
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("the key's mode: %v, %v", fi, err)
	}
}

// A key that anyone else may read, a link in the key's place, and a file
// of another length are refused, never used.
func TestAKeyNotOfThisUsersAloneIsRefused(t *testing.T) {
	dir := t.TempDir()
	if _, err := Key(dir); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, Name)
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Key(dir); err == nil {
		t.Errorf("a key readable by others was used")
	}
	other := t.TempDir()
	elsewhere := filepath.Join(other, "mine")
	if err := os.WriteFile(elsewhere, bytes.Repeat([]byte{1}, 32), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(linked, Name)); err != nil {
		t.Fatal(err)
	}
	if _, err := Key(linked); err == nil {
		t.Errorf("a link in the key's place was followed")
	}
	short := t.TempDir()
	if err := os.WriteFile(filepath.Join(short, Name), []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Existing(short); err == nil {
		t.Errorf("a 5-byte key was used")
	}
	if _, err := Existing(t.TempDir()); err == nil {
		t.Errorf("Existing made a key")
	}
}

// A MAC binds its domain and the bounds of its parts.
func TestMACBindsDomainAndParts(t *testing.T) {
	k := bytes.Repeat([]byte{3}, 32)
	a := MAC(k, "d1", []byte("ab"), []byte("c"))
	for _, b := range [][]byte{MAC(k, "d2", []byte("ab"), []byte("c")), MAC(k, "d1", []byte("a"), []byte("bc")), MAC(k, "d1", []byte("abc"))} {
		if bytes.Equal(a, b) {
			t.Errorf("two inputs gave one MAC")
		}
	}
}
