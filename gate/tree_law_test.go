package gate

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// treeNames are the names the law's trees are built from: plain ones,
// protected by name (.git, .eukhe, .vscode, HEAD, bin), a home's
// configuration (.config, .cache, .npm) and another eukhe's files.
var treeNames = []string{"a", "b", "src", ".git", ".eukhe", ".vscode", "HEAD", "bin", "hooks",
	".config", ".cache", ".npm", "eukhe", "settings.json", "auth.json", ".ssh", "id_ed25519"}

// TestLaw_a_recursive_write_has_each_entrys_effects: a recursive write
// of a directory (rm -r, chmod -R, find -delete) has at least the
// effects of the same write of each entry below it, the directory
// itself too. Drawn over trees made in the project, in the home, in its
// configuration and beside them, and over the world's own directories
// ("/" is TestRemovingTheRootCarriesEveryClassBelowIt's: its entries
// are this machine's). An entry that is a symlink is left out (a word that
// names a link is judged by what it resolves to, and rm removes the
// link), and so are files with other names (none is made here).
func TestLaw_a_recursive_write_has_each_entrys_effects(t *testing.T) {
	w := newWorld(t)
	sh := w.shell(w.root)
	effects := func(t *rapid.T, script string) Effects {
		sc, err := sh.Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		var e Effects
		for _, st := range sc.Steps {
			e = e.Union(st.Effects)
		}
		return e
	}
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		parent := rapid.SampledFrom([]string{w.root, w.root + "/src", w.home, w.home + "/.config",
			w.home + "/.cache", w.home + "/notes", w.base}).Draw(t, "parent")
		top := filepath.Join(parent, "t"+strconv.Itoa(n))
		dirs := []string{top}
		if err := os.MkdirAll(top, 0o755); err != nil {
			t.Fatal(err)
		}
		for i := rapid.IntRange(0, 10).Draw(t, "nodes"); i > 0; i-- {
			p := filepath.Join(rapid.SampledFrom(dirs).Draw(t, "in"), rapid.SampledFrom(treeNames).Draw(t, "name"))
			if _, err := os.Lstat(p); err == nil {
				continue
			}
			switch rapid.IntRange(0, 2).Draw(t, "kind") {
			case 0, 1:
				if err := os.Mkdir(p, 0o755); err != nil {
					t.Fatal(err)
				}
				dirs = append(dirs, p)
			default:
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		d := rapid.SampledFrom(append(dirs, parent, w.base, w.home, w.root, w.root+"/.git")).Draw(t, "dir")
		cmd := rapid.SampledFrom([]string{"rm -rf", "rm -r", "chmod -R 700", "chown -R u", "find %s -delete"}).Draw(t, "command")
		script := func(p string) string {
			q := "'" + p + "'"
			if strings.Contains(cmd, "%s") {
				return strings.Replace(cmd, "%s", q, 1)
			}
			return cmd + " " + q
		}
		whole := effects(t, script(d))
		ents, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range ents {
			if e.Type()&os.ModeSymlink != 0 {
				continue
			}
			p := filepath.Join(d, e.Name())
			if one := effects(t, script(p)); !one.SubsetOf(whole) {
				t.Fatalf("%s: %s, less than %s: %s", script(d), whole, script(p), one)
			}
		}
	})
}
