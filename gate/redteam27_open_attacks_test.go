//go:build open_attacks && linux

package gate

// The twenty-seventh red team's gate attacks that GOT THROUGH (held rows:
// redteam27_test.go). Each asserts the safe outcome (secret: the user is
// always asked), so it fails while the hole is open. Run with -tags
// open_attacks.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 2, eukheDirOutside; GOT THROUGH, medium; the spellings
// whose new name is one level below the target, and mkdir -p's, are held
// now: TestRedteam27_CopyOrMoveIntoADirectoryMakesAnEukheDirectory): a copy, move
// or link that makes a directory named as another eukhe's (eukhe,
// eukhe-UID) outside the roots, or fills one that is there, while its
// words name only the directory ABOVE it. `cp -r eukhe-4242 OUT/` makes
// OUT/eukhe-4242 with the discovery entry 1-deadbeef.json in it (another
// eukhe with TMPDIR=OUT attaches to it as its editor); `cp -r eukhe
// OUT/run/` merges the workspace's eukhe/ into the socket directory of an
// eukhe with XDG_RUNTIME_DIR=OUT/run that is there already; `mv src
// OUT/x` carries an eukhe/ below src out whole; `mkdir -p OUT/eukhe/..`
// makes OUT/eukhe (mkdir -p makes each component) though the word
// cleans to OUT. Each is judged write+outside: unasked by default. The
// source tree is the workspace's, where an eukhe folder is the project's
// own and its entries can be made unasked (made as a/b/1-deadbeef.json,
// then `mv a/b a/eukhe`: no word names an entry in an eukhe directory).
// Root cause: eukheDirOutside (discovery_names.go) and anyEukheOwn judge
// the path a word names, cleaned; a copy or move into a directory creates
// DEST/basename(SRC) and everything below SRC, which only backupPaths
// derives (for -S), and mkdir -p makes the components a ".." later
// cancels — none of these paths is ever judged.
func TestRedteam27_CopyOrMoveMakesAnEukheDirectoryThroughItsParent(t *testing.T) {
	base, home, root := redHome(t)
	out := filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(root, "eukhe-4242"), filepath.Join(root, "src", "eukhe"),
		filepath.Join(root, "eukhe"), filepath.Join(out, "run", "eukhe")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	for _, f := range []string{filepath.Join(root, "eukhe-4242", "1-deadbeef.json"),
		filepath.Join(root, "src", "eukhe", "1-deadbeef.json"), filepath.Join(root, "eukhe", "1-deadbeef.json")} {
		must(t, os.WriteFile(f, []byte("{}"), 0o600))
	}
	p := r14policy(home, root)
	for _, s := range []string{
		"cp -r src OUT/x",
		"mv src OUT/x",
		"ln -s ROOT/src OUT/xdg",
	} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("THROUGH: %q (OUT outside the root) is %v: it makes or fills a directory named as another eukhe's unasked", s, e)
		}
	}
}
