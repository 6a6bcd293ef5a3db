//go:build unix

package userkey

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"
)

// No link below the state directory leads to a key: whichever directory
// between eukhe's state directory and a key's is a symbolic link (to a
// directory holding a key the linker knows, or an empty one), Key and
// Existing refuse, never read the key there, and Key makes nothing
// there; with no link, the same layout gives the key.
func TestLaw_no_link_below_the_state_directory_leads_to_a_key(t *testing.T) {
	planted := bytes.Repeat([]byte{9}, 32)
	rapid.Check(t, func(rt *rapid.T) {
		root, err := os.MkdirTemp(t.TempDir(), "")
		if err != nil {
			rt.Fatal(err)
		}
		parts := rapid.SliceOfN(rapid.StringMatching(`[a-z0-9]{1,6}`), 1, 3).Draw(rt, "parts")
		state := filepath.Join(root, "state", "eukhe")
		dir := filepath.Join(append([]string{state}, parts...)...)
		at := rapid.IntRange(0, len(parts)).Draw(rt, "link at (0: none)")
		withKey := rapid.Bool().Draw(rt, "the link's target holds a key")
		if err := os.MkdirAll(state, 0o700); err != nil {
			rt.Fatal(err)
		}
		var target string
		if at > 0 {
			link := filepath.Join(append([]string{state}, parts[:at]...)...)
			target = filepath.Join(root, "theirs")
			below := filepath.Join(append([]string{target}, parts[at:]...)...)
			if err := os.MkdirAll(below, 0o700); err != nil {
				rt.Fatal(err)
			}
			if withKey {
				if err := os.WriteFile(filepath.Join(below, Name), planted, 0o600); err != nil {
					rt.Fatal(err)
				}
			}
			if err := os.MkdirAll(filepath.Dir(link), 0o700); err != nil {
				rt.Fatal(err)
			}
			if err := os.Symlink(target, link); err != nil {
				rt.Fatal(err)
			}
		}
		k, err := Existing(dir)
		if at > 0 && err == nil {
			rt.Fatalf("Existing read %x through a link at %s", k, parts[:at])
		}
		if at == 0 && err == nil {
			rt.Fatalf("Existing found a key where none was made")
		}
		k, err = Key(dir)
		switch {
		case at > 0 && err == nil:
			rt.Fatalf("Key gave %x through a link at %s", k, parts[:at])
		case at == 0 && (err != nil || len(k) != 32 || bytes.Equal(k, planted)):
			rt.Fatalf("with no link: %x, %v", k, err)
		}
		if at > 0 && !withKey {
			filepath.WalkDir(target, func(p string, d os.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rt.Fatalf("Key made %s through the link", p)
				}
				return nil
			})
		}
	})
}
