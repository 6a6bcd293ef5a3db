package shell

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Every link on the way from a path as written to its real entry is
// found: a link to a link, relative and absolute, and one in a link's
// target.
func TestLinksOnTheWay_finds_every_link_on_the_way(t *testing.T) {
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(d, "store", "env", "bin"), 0o755))
	must(os.MkdirAll(filepath.Join(d, "state", "profiles"), 0o755))
	must(os.Symlink(filepath.Join(d, "store", "env"), filepath.Join(d, "state", "profiles", "p-1")))
	must(os.Symlink("p-1", filepath.Join(d, "state", "profiles", "profile")))
	must(os.Symlink(filepath.Join(d, "state", "profiles", "profile"), filepath.Join(d, "state", "profile")))
	must(os.Symlink("state", filepath.Join(d, "st")))
	got := linksOnTheWay(filepath.Join(d, "st", "profile", "bin"))
	want := []string{filepath.Join(d, "st"), filepath.Join(d, "state", "profile"),
		filepath.Join(d, "state", "profiles", "profile"), filepath.Join(d, "state", "profiles", "p-1")}
	if !slices.Equal(got, want) {
		t.Errorf("linksOnTheWay = %v, want %v", got, want)
	}
	if got := linksOnTheWay(filepath.Join(d, "store", "env", "bin")); len(got) != 0 {
		t.Errorf("a path with no link: %v", got)
	}
	must(os.Symlink("loop", filepath.Join(d, "loop")))
	if got := linksOnTheWay(filepath.Join(d, "loop", "bin")); !slices.Equal(got, []string{filepath.Join(d, "loop")}) {
		t.Errorf("a loop: %v", got)
	}
}
