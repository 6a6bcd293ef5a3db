//go:build linux

package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Attack (the shadows, two programs of one pipeline narrowed to the
// same store; HELD, medium): both stages are approved to append to
// ~/.ssh/known_hosts; each has its own copy, and the second to end would
// write its copy over the first's change. HELD: the second settle sees
// the real file changed while it ran and keeps the first's change,
// saying so. Safe outcome: no change is lost silently.
func TestRedteam34_PipelineStagesOnOneStoreKeepEachOthersChange(t *testing.T) {
	w := shadowWorld(t)
	w.write("a.sh", "cat \"$1\"; sleep 0.3; echo A >> \"$1\"\n")
	w.write("b.sh", "cat >/dev/null; sleep 0.8; echo B >> \"$1\"\n")
	res := w.run("sh ./a.sh " + w.store("known_hosts") + " | sh ./b.sh " + w.store("known_hosts"))
	if got := w.storeText("known_hosts"); got != "h\nA\n" && !strings.Contains(res.Text, "changed while it ran") {
		t.Errorf("known_hosts is %q and the reply says nothing:\n%s", got, res.Text)
	}
}

// Attack (the shadows, a background child outliving its program; HELD,
// high): a program approved to append to ~/.ssh/known_hosts leaves a
// child that, after the program ended (and settle ran), writes
// authorized_keys and the named file into the shadow. HELD: the child
// dies with the sandbox's process namespace before settle; nothing it
// would write lands, and no copy is left in the state directory. Safe
// outcome: the store holds only the approved change.
func TestRedteam34_ShadowBackgroundChildOutlivesSettle(t *testing.T) {
	w := shadowWorld(t)
	w.write("b.sh", "( sleep 0.5; echo LATE >> \"$1\"; echo KEY > \"$HOME/.ssh/authorized_keys\" ) & echo now >> \"$1\"\n")
	res := w.run("sh ./b.sh " + w.store("known_hosts"))
	time.Sleep(1200 * time.Millisecond)
	if got := w.storeText("known_hosts"); strings.Contains(got, "LATE") {
		t.Errorf("the late child's write landed: %q\n%s", got, res.Text)
	}
	if exists(w.store("authorized_keys")) {
		t.Errorf("authorized_keys was made:\n%s", res.Text)
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(w.secret), ".local/state/eukhe/narrow/*")); len(left) > 0 {
		t.Errorf("copies are left: %v\n%s", left, res.Text)
	}
}

// Attack (the shadows, a missing nested directory on the way to a named
// path; HELD, high): approved to write ~/.ssh/new/key (new missing), a
// program makes new/ in the store's copy holding the key, a link key2 to
// ../id_ed25519, a directory rc.d, and ~/.ssh/new is also made as a link
// in a second try. HELD: only the named key is carried (into a real
// directory made with no link followed); the rest is told as not kept.
// Safe outcome: ~/.ssh/new holds only key.
func TestRedteam34_ShadowMissingDirOnTheWayCarriesOnlyTheNamed(t *testing.T) {
	w := shadowWorld(t)
	w.write("b.sh", "mkdir -p \"$HOME/.ssh/new/rc.d\"; echo K > \"$1\"; ln -s ../id_ed25519 \"$HOME/.ssh/new/key2\"; echo X > \"$HOME/.ssh/new/rc.d/x\"\n")
	res := w.run("sh ./b.sh " + w.store("new/key"))
	if got := w.storeText("new/key"); got != "K\n" {
		t.Errorf("the named key is %q:\n%s", got, res.Text)
	}
	for _, n := range []string{"new/key2", "new/rc.d"} {
		if _, err := os.Lstat(w.store(n)); err == nil {
			t.Errorf("~/.ssh/%s was carried:\n%s", n, res.Text)
		}
	}
	w2 := shadowWorld(t)
	w2.write("b.sh", "ln -s /tmp \"$HOME/.ssh/new\"; echo K > \"$1\"\n")
	res = w2.run("sh ./b.sh " + w2.store("new/key"))
	if fi, err := os.Lstat(w2.store("new")); err == nil && fi.Mode()&os.ModeSymlink != 0 {
		t.Errorf("~/.ssh/new was carried as a link:\n%s", res.Text)
	}
}

// Attack (the shadows, the named file made another kind; HELD, medium):
// approved to edit known_hosts, a program replaces it by a directory
// holding a file, or by a hard link of another name it made. HELD: a
// named file left as no regular file is not written back; the other name
// is not kept. Safe outcome: known_hosts stays a regular file, no new
// name is made.
func TestRedteam34_ShadowNamedFileMadeADirectoryOrHardLink(t *testing.T) {
	for i, body := range []string{
		"rm -f \"$1\"; mkdir \"$1\"; echo x > \"$1/y\"",
		"echo evil > \"$HOME/.ssh/rc\"; rm -f \"$1\"; ln \"$HOME/.ssh/rc\" \"$1\"",
	} {
		w := shadowWorld(t)
		w.write("b.sh", body+"\n")
		res := w.run("sh ./b.sh " + w.store("known_hosts"))
		if fi, err := os.Lstat(w.store("known_hosts")); err != nil || !fi.Mode().IsRegular() {
			t.Errorf("%d: known_hosts is no regular file now (%v):\n%s", i, err, res.Text)
		}
		if exists(w.store("rc")) {
			t.Errorf("%d: ~/.ssh/rc was made:\n%s", i, res.Text)
		}
	}
}

// Attack (gate.Resolve's `..` after a file, at run time; HELD, high
// if open): the gate judges `rm a.txt; mkdir a.txt; cat
// a.txt/../../home/.ssh/id_ed25519` without secret (a.txt is a file when
// judged; gate's open row TestRedteam34_DotDotAfterAFileMadeADirectory…);
// every question denied. HELD: the shell judges each step again when it
// runs; a.txt is a directory then, the step is secret, and it is refused
// as changed since the judgment (the sandbox would hide the store too).
// Safe outcome: the key is not printed.
func TestRedteam34_DotDotAfterAFileMadeADirectoryStillHidesTheKey(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			r33Deny(w)
			w.write("a.txt", "x\n")
			for _, s := range []string{
				"rm a.txt; mkdir a.txt; cat a.txt/../../home/.ssh/id_ed25519",
				"rm -r a.txt; mkdir a.txt; cat < a.txt/../../home/.ssh/id_ed25519",
			} {
				res := w.run(s)
				if strings.Contains(res.Text, r33Key) {
					t.Errorf("the key was printed by %q:\n%s", s, res.Text)
				}
				_ = os.RemoveAll(w.path("a.txt"))
				w.write("a.txt", "x\n")
			}
		})
	}
}
