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
	needLinks(t)
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

// A link eukhe renamed out of use is passed over only while it keeps the
// name eukhe gave it: renamed by a later step to another name holding
// ".eukhe-refused-", or hard-linked there, it is judged again (a CI run
// of cmd/eukhe's seventh red team's row: when the live watch had not
// seen the rename before the step ended, the refresh after it passed the
// link over by its inode alone, and it stayed in use under the step's
// name).
func TestNewLink_judges_a_renamed_out_link_under_a_name_of_its_own_again(t *testing.T) {
	needLinks(t)
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(base, "root")
	mustWrite(t, filepath.Join(root, "sub", "README"))
	mustWrite(t, filepath.Join(base, "r", ".git", "HEAD"))
	link := filepath.Join(root, "sub", "deep")
	if err := os.Symlink(filepath.Join(base, "r"), link); err != nil {
		t.Fatal(err)
	}
	tr := &protectedTree{roots: []string{root}, names: []string{".git"}, outLinks: map[string]uint64{}}
	out, err := renameOutOfUse(link, "t")
	if err != nil {
		t.Fatal(err)
	}
	if made := tr.newLink(nil, out, 0); len(made) != 0 {
		t.Errorf("the link under the name eukhe gave it was judged again: %v", made)
	}
	again := filepath.Join(root, "sub", "lib"+refusedSuffix+"x")
	if err := os.Rename(out, again); err != nil {
		t.Fatal(err)
	}
	if made := tr.newLink(nil, again, 0); len(made) != 1 {
		t.Errorf("the link renamed to %s by a step was passed over as eukhe's", filepath.Base(again))
	}
	hard := filepath.Join(root, "sub", "lib2"+refusedSuffix+"y")
	if err := os.Link(again, hard); err != nil {
		t.Fatal(err)
	}
	if made := tr.newLink(nil, hard, 0); len(made) != 1 {
		t.Errorf("a hard link %s to it was passed over as eukhe's", filepath.Base(hard))
	}
}
