//go:build open_attacks && linux

package shell

// The thirty-first red team's attacks that GOT THROUGH (each asserts the
// safe outcome, so it fails while the hole is open). The held ones are
// in redteam31_held_linux_test.go, with the helpers both files use.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// Attack (the stat handler's directory exception; GOT THROUGH, low):
// a step plants L as a link to ~/.ssh (its words name no secret), every
// question denied; then `[[ -d L/NAME ]]`, a test keyword (no call
// handler judges it: only the stat handler sees it). run.unseen hides a
// file the pipeline may not read but shows every directory ("cd ~/.ssh
// runs unasked"), so the test tells a directory the store holds
// (~/.ssh/work, ~/.gnupg/private-keys-v1.d, ~/.password-store/bank)
// from a missing one, and -nt/-ot against it give its change time (a
// key added). Root cause: unseen exempts directories from the narrowing
// so that cd works; a test is not a cd. Safe outcome: a store's
// directory and a missing name test alike. Suggested fix: in stat and
// access, exempt a directory only for cd's own check (the call handler
// judged the cd), or refuse the test as readDir refuses the listing.
func TestRedteam31_TestKeywordTellsAStoreDirectory(t *testing.T) {
	out := func(name string) string {
		w := r29Denied(t)
		r30HeldStore(t, w, "id_ed25519")
		if err := os.MkdirAll(filepath.Join(w.secret, "work"), 0o700); err != nil {
			t.Fatal(err)
		}
		s := r29Plant(w, "", "L") + " && if [[ -d L/" + name + " ]]; then echo HIT; else echo MISS; fi"
		txt := strings.ReplaceAll(w.run(s).Text, name, "NAME")
		return strings.ReplaceAll(txt, filepath.Dir(w.root), "BASE")
	}
	if hit, miss := out("work"), out("wzzz"); hit != miss {
		t.Errorf("a directory the store holds is told from a missing one:\n%s\n---\n%s", hit, miss)
	}
}

// Attack (stat handler, a link swapped between unseen's look and the
// stat; HELD when the red team ran): run.unseen resolves the name and
// lets a directory through, then the handler stats the name again. A
// background program flips L between a workspace directory and the key
// (a link needs no access to its target), while the shell tests [[ -f
// L ]] in a loop: a stat that lands on the key after unseen saw the
// directory says a regular file is there (dozens of hits in 20,000
// tests; a missing key gives none), so whether ~/.ssh/id_ed25519 exists
// is learned with every question denied. Root cause: unseen judges one
// resolution and the stat makes another (a time-of-check to
// time-of-use gap); the open handler avoids it by opening the real path
// it judged with openReal, the stat handler does not. Safe outcome: no
// HIT for the key. Suggested fix: stat the real path unseen judged
// (rp.Native(), with no link followed: an O_PATH openat2 with
// RESOLVE_NO_SYMLINKS, then fstat), never the name again.
func TestRedteam31_StatRaceBetweenUnseenAndTheStat(t *testing.T) {
	w := r29Denied(t)
	r30HeldStore(t, w, "id_ed25519")
	if err := os.MkdirAll(w.path("d"), 0o755); err != nil {
		t.Fatal(err)
	}
	half := strings.TrimSuffix(w.secret, "sh")
	flip := "sh -c 'end=$(($(date +%s)+4)); while [ $(date +%s) -lt $end ]; do ln -sfn d L; ln -sfn \"$0$1\" L; done' " +
		half + " sh/id_ed25519 &"
	s := flip + "\nsleep 0.2\nn=0; for i in $(seq 1 20000); do if [[ -f L ]]; then n=$((n+1)); fi; done; echo HITS=$n; wait"
	res := w.run(s)
	if strings.Contains(res.Text, "HITS=") && !strings.Contains(res.Text, "HITS=0") {
		t.Errorf("the key was seen as a regular file through the race:\n%s", res.Text)
	}
}

// Attack (false positive: a test keyword or a loop under the careful
// preset; GOT THROUGH, low: documented, but it breaks everyday scripts):
// auto set read, write. `[[ -f go.mod ]] && cat go.mod`, `for f in
// *.md; do wc -l "$f"; done` and `if [[ -s README.md ]]; then cat
// README.md; fi` read only, yet each asks about exec: a [[ ]], a for or
// an if puts the whole script outside the step grammar, one step judged
// exec with every effect of its commands. `[ -f go.mod ] && cat go.mod`
// runs unasked. Root cause: the step grammar (gate: Script.Grammar)
// holds simple commands joined by pipes, && and || only; the runtime
// re-check (call, open, readDir, stat) already judges each command of a
// compound as it runs. Safe outcome: no question for a read-only
// script. Suggested fix: take [[ ]] (its words judged as a read of the
// paths its file tests name) into the grammar, and judge a for or if
// whose every command is in the grammar by the union of its commands
// instead of exec.
func TestRedteam31_TestKeywordAndLoopAskExecUnderCarefulPreset(t *testing.T) {
	for _, s := range []string{
		"[[ -f go.mod ]] && cat go.mod", "for f in *.md; do wc -l \"$f\"; done", "if [[ -s README.md ]]; then cat README.md; fi",
	} {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
		w.write("go.mod", "module x\n")
		w.write("README.md", "hello\n")
		res := w.run(s)
		if len(w.asker.asked()) > 0 {
			t.Errorf("%s: questions %q:\n%s", s, r29Asked(w), res.Text)
		}
	}
}

// Attack (keep a process alive after its script ended; GOT THROUGH,
// medium): `sh ./d.sh </dev/null >/dev/null 2>&1 & echo started` (and the
// same with disown): the script ends ("finished"), and the background
// program runs on, under bubblewrap and Landlock alike, until the session
// closes, in the sandbox of its step (a step approved for secret leaves
// a reader of the store running while later steps are asked and
// answered). agent/shell's doc says processes a script leaves in the
// background outlive it only when no sandbox runs. Root cause: run.finish
// cancels the script's context, but a program is started with a plain
// exec.Cmd (no context), and its process group is killed only on a
// refusal or a stop (killGroups), not at a finished ending. Safe
// outcome: no process of the script is alive after it ended. Suggested
// fix: at finish, kill every group in x.groups still live (as a job's
// kill does), or wait for them within the budget and make the script a
// job.
func TestRedteam31_BackgroundStatementOutlivesItsScript(t *testing.T) {
	r31Outlive(t, []string{
		"sh ./d.sh </dev/null >/dev/null 2>&1 & disown; echo started",
		"sh ./d.sh </dev/null >/dev/null 2>&1 & echo started",
	})
}
