package gate

// The twenty-seventh red team's gate attacks that were HELD (those that
// got through: redteam27_open_attacks_test.go).

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// Attack (target 2, eukheDirOutside and anyEukheRunEntry; HELD): writes
// that spell an eukhe directory outside the roots another way — a
// trailing slash or "/.", a doubled slash, "dir/../eukhe", a cd first, a
// "-T" copy, a link named so, a move out of an eukhe/ in the root to a
// name of that form, a file of that name, mkdir -m — and entries of a
// socket directory written by redirection, copy and hard link, and the
// root's own /proc spelling. Each is secret.
func TestRedteam27_EukheDirectorySpellingsAreSecret(t *testing.T) {
	base, home, root := redHome(t)
	out := filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(root, "eukhe-4242"), filepath.Join(root, "src", "eukhe"),
		filepath.Join(out, "run", "eukhe"), filepath.Join(out, "state", "eukhe", "sessions")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	must(t, os.WriteFile(filepath.Join(root, "eukhe-4242", "1-deadbeef.json"), []byte("{}"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o600))
	p := r14policy(home, root)
	proc := "/proc/self/" + "root" // spelled in parts: see COMMON.md
	for _, s := range []string{
		"mkdir -p OUT/a/eukhe/",
		"mkdir OUT/eukhe/.",
		"mkdir OUT//eukhe",
		"mkdir -p OUT/./eukhe",
		"mkdir -p OUT/nonexist/../eukhe",
		"mkdir -p OUT/eukhe-4242/../eukhe-4242",
		"mkdir -p OUT/eukhe/run/..",
		"mkdir -p OUT/x/eukhe/run",
		"mkdir -m 700 OUT/eukhe-5",
		"mkdir OUT/eukhe-0042",
		"cd OUT && mkdir eukhe",
		"touch OUT/eukhe",
		"cp -rT eukhe-4242 OUT/eukhe-1",
		"cp a.txt OUT/eukhe-6/",
		"ln -s ROOT/eukhe-4242 OUT/eukhe-4242",
		"ln -sr eukhe-4242 OUT",
		"mv src/eukhe OUT/eukhe-5",
		"mkdir -p " + proc + "OUT/eukhe",
		"cp eukhe-4242/1-deadbeef.json OUT/run/eukhe/",
		"ln eukhe-4242/1-deadbeef.json OUT/1-deadbeef.json",
		"cat a.txt > OUT/run/eukhe/2-deadbeef.json",
		"cat a.txt > OUT/run/eukhe/2-deadbeef.json.tmp",
		"cat a.txt > OUT/run/eukhe/2-deadbeef.sock",
		"cat OUT/run/eukhe/2-deadbeef.json",
		"cp -r src/eukhe OUT/state/eukhe/sessions",
	} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("THROUGH: %q (OUT outside the root) is %v, not secret", s, e)
		}
	}
}

// The twenty-seventh red team's copies, moves and links into a directory
// that make another eukhe's directory there, and mkdir -p's components:
// HELD now (into.go: the names a step makes that no word shows whole are
// judged as writes). Still open: a tree whose eukhe/ lies deeper, carried
// out whole (TestRedteam27_CopyOrMoveMakesAnEukheDirectoryThroughItsParent).
func TestRedteam27_CopyOrMoveIntoADirectoryMakesAnEukheDirectory(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the other eukhes' discovery directories named here (eukhe-UID in the temporary directory) are Unix's; on Windows it is %LOCALAPPDATA%\\eukhe\\run")
	}
	base, home, root := redHome(t)
	out := filepath.Join(base, "out")
	for _, d := range []string{filepath.Join(root, "eukhe-4242"), filepath.Join(root, "eukhe"), filepath.Join(out, "run", "eukhe")} {
		must(t, os.MkdirAll(d, 0o755))
	}
	p := r14policy(home, root)
	for _, s := range []string{
		"cp -r eukhe-4242 OUT/", "cp -r eukhe-4242 OUT", "cp -t OUT -r eukhe-4242", "cp -r --target-directory=OUT eukhe-4242",
		"cp -al eukhe-4242 OUT/", "cp -rs ROOT/eukhe-4242 OUT/", "mv eukhe-4242 OUT/", "mv -t OUT eukhe-4242",
		"ln -s ROOT/eukhe-4242 OUT/", "cp -r eukhe OUT/run/", "cp -r --parents x/eukhe OUT/", "cp a.txt eukhe OUT",
		"mkdir -p OUT/eukhe/..", "mkdir -p OUT/eukhe-77/../y", "mkdir -p OUT/eukhe/x", "mkdir -p OUT/eukhe-5/x",
		"mkdir --parents OUT/eukhe/./y", "mkdir -pm 700 OUT/eukhe-9/z",
	} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); !e.Has(Secret) {
			t.Errorf("%q (OUT outside the root) is %v: it makes a directory named as another eukhe's unasked", s, e)
		}
	}
	// the controls: the same commands without such a name stay as they were
	for _, s := range []string{"cp -r src OUT/", "mv a.txt OUT/", "mkdir -p OUT/a/b", "cp -T src OUT/eukhe-x", "mkdir -p ROOT/eukhe/x", "cp -r eukhe ROOT/sub/"} {
		script := strings.ReplaceAll(strings.ReplaceAll(s, "OUT", out), "ROOT", root)
		if e := r13classify(t, p, root, home, script); e.Has(Secret) {
			t.Errorf("%q is %v: secret, though it makes no other eukhe's directory", s, e)
		}
	}
}
