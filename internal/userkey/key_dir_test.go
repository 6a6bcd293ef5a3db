package userkey

import (
	"path/filepath"
	"reflect"
	"testing"
)

// A key's directory is opened from eukhe's state directory (the last
// ancestor named eukhe), else from its parent; the parts below are
// opened one at a time.
func TestSplitAtState(t *testing.T) {
	for _, c := range []struct {
		dir, base string
		parts     []string
	}{
		{"/s/eukhe/discovery", "/s/eukhe", []string{"discovery"}},
		{"/s/eukhe/journal/0123", "/s/eukhe", []string{"journal", "0123"}},
		{"/home/eukhe/.local/state/eukhe/discovery/", "/home/eukhe/.local/state/eukhe", []string{"discovery"}},
		{"/tmp/T1/001", "/tmp/T1", []string{"001"}},
		{"/s/eukhe", "/s", []string{"eukhe"}},
		{"/x", "/", []string{"x"}},
		{"/", "/", nil},
	} {
		base, parts := splitAtState(filepath.FromSlash(c.dir))
		if base != filepath.FromSlash(c.base) || !reflect.DeepEqual(parts, c.parts) {
			t.Errorf("%s: %s %q, want %s %q", c.dir, base, parts, c.base, c.parts)
		}
	}
}
