//go:build linux

package gate

// Three red teams' rows on names a step makes that no word shows: a tree
// copied, moved or linked outside the roots carries an eukhe/ below it
// (another eukhe's socket directory, if that eukhe runs with
// XDG_RUNTIME_DIR or TMPDIR there), and git init makes its operand's
// parents. The gate judges the names the words show; it does not walk
// the tree a copy carries. They were open here, asserting secret; they
// are held where the attack aims, at the reader: every discovery entry is
// signed with a key no step can read, so no planted entry is a server
// (lsp/discovery TestRedteam27_APlantedSocketDirectoryOutsideTheRootsIsNoEditor,
// TestLaw_only_a_signed_entry_is_a_server). What the gate keeps of each
// step, asserted here: it writes outside the roots (asks under any auto
// set without outside).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 2, eukheDirOutside; held at the reader, medium; the spellings
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
		if e := r13classify(t, p, root, home, script); !e.Has(Outside) || !e.Has(Write) {
			t.Errorf("%q writes outside the roots, and is judged %v", script, e)
		}
	}
}

// Attack (target 4, mkdirParents; held at the reader, low): mkdir -p's prefixes
// named as an eukhe directory are judged now, but other commands make
// their operand's parents too: `git init OUT/eukhe/x` and `git clone ROOT
// OUT/eukhe-5/x` make OUT/eukhe and OUT/eukhe-5 (judged
// write+outside+protected, no secret). Root cause: mkdirParents is for
// mkdir only; the name rule (eukheDirOutside) looks at a path's last part.
// Safe outcome: secret.
func TestRedteam28_GitInitMakesAnEukheDirectoryAsAParent(t *testing.T) {
	p, home, root, out := r28Out(t)
	for _, s := range []string{"git init OUT/eukhe/x", "git clone ROOT OUT/eukhe-5/x"} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Outside) || !e.Has(Write) {
			t.Errorf("%q writes outside the roots, and is judged %v", script, e)
		}
	}
}

// Attack (target 4, intoPaths with -T / DIR/.; held at the reader, medium, a
// spelling of the twenty-seventh's open row on a tree carried whole):
// `cp -rT y OUT/run` and `cp -r y/. OUT/run` copy y's contents into
// OUT/run, so y/eukhe becomes OUT/run/eukhe (another eukhe's socket
// directory with XDG_RUNTIME_DIR=OUT/run); -T makes intoPaths derive
// nothing, and y/. derives OUT/run itself. Judged write+outside. Root
// cause: only the operand's base name is derived, never the names below
// a source a recursive copy merges. Safe outcome: secret.
func TestRedteam29_CopyOfADirectorysContentsMakesAnEukheDirectory(t *testing.T) {
	p, home, root, out := r28Out(t)
	must(t, os.MkdirAll(filepath.Join(root, "y", "eukhe"), 0o755))
	for _, s := range []string{"cp -rT y OUT/run", "cp -r y/. OUT/run", "cp -r --no-target-directory y OUT/run"} {
		script := strings.ReplaceAll(s, "OUT", out)
		if e := r13classify(t, p, root, home, script); !e.Has(Outside) || !e.Has(Write) {
			t.Errorf("%q writes outside the roots, and is judged %v", script, e)
		}
	}
}
