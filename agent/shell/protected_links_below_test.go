package shell

import (
	"os"
	"path/filepath"
	"testing"
)

// A link below a linked directory is followed as the user's git follows
// it: to a repository, into the middle of one, and (dangling first) to
// where one is made later; a loop of links ends; a link into the roots
// is the map's (the seventh red team's).
func TestLeadsToRepository_follows_the_links_below(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "root")
	mustWrite(t, filepath.Join(root, ".git", "HEAD"))
	mustWrite(t, filepath.Join(base, "hidden", "r", ".git", "HEAD"))
	mustWrite(t, filepath.Join(base, "hidden", "r", "src", "x"))
	names := []string{".git"}
	for _, c := range []struct{ target string }{{"../hidden/r"}, {"../hidden/r/src"}} {
		top := filepath.Join(base, "top"+filepath.Base(c.target))
		mustWrite(t, filepath.Join(top, "f"))
		if err := os.Symlink(c.target, filepath.Join(top, "l")); err != nil {
			t.Fatal(err)
		}
		if !leadsToRepository(top, []string{root}, names, nil) {
			t.Errorf("a directory holding a link to %s: no repository", c.target)
		}
	}
	top := filepath.Join(base, "topd")
	mustWrite(t, filepath.Join(top, "f"))
	for _, l := range [][2]string{{"../later", "l"}, {".", "loop"}, {"../root", "in"}} {
		if err := os.Symlink(l[0], filepath.Join(top, l[1])); err != nil {
			t.Fatal(err)
		}
	}
	if leadsToRepository(top, []string{root}, names, nil) {
		t.Error("a dangling link, a loop and a link into the roots: a repository")
	}
	mustWrite(t, filepath.Join(base, "later", ".git", "HEAD"))
	if !leadsToRepository(top, []string{root}, names, nil) {
		t.Error("the dangling link's target made a repository later: not seen")
	}
}
