//go:build linux

package shell

// The twenty-eighth red team's rows that GOT THROUGH and are held now
// (each comment says how it was, the HELD line how it holds). Still open:
// redteam28_open_attacks_test.go.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// r28Plant is a step that makes a link at link to the world's secret store
// joined with rest ("" for the store itself), its words naming no secret:
// the path is put together inside the program.
func r28Plant(w *world, rest, link string) string {
	half := strings.TrimSuffix(w.secret, "sh") // ".../home/.s"
	return "sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " " + filepath.Join("sh", rest) + " " + link
}

// r28AskedSecret tells whether the user was asked about secret.
func r28AskedSecret(w *world) bool {
	for _, q := range w.asker.asked() {
		if q.Effects.Has(gate.Secret) {
			return true
		}
	}
	return false
}

// Attack (target 1, the FIFO shortcut outside the grammar; GOT THROUGH,
// high): the fix gives the interpreter a TMPDIR below /dev/null only for
// a script in the step grammar, on the ground that "outside the grammar
// the whole script was asked with every effect". It is not: a script
// outside the grammar is one step judged by its words (exec and what
// they name), which the default auto set holds, so it runs unasked, and
// its interpreter's temporary directory is the real one. A brace group,
// an if, a subshell, a command substitution, a loop around the r27
// attack, or a here-string anywhere in it (<<< is outside the grammar) —
// plant a link $TMPDIR/sh-interp-x to ~/.ssh/authorized_keys, then `echo
// KEY >> $TMPDIR/sh-interp-x` — appends the agent's key through
// os.OpenFile in eukhe's process, past the open handler; `cat <` of such a
// link prints a private key. Nobody is asked. Root cause: run.go resets
// with interpEnv's trap only when x.sc.Grammar; a script outside the
// grammar is not asked with secret. Safe outcome: the key is not written
// or read, or the user is asked about secret.
// HELD now: the interpreter resets with TMPDIR naming a directory below
// /dev/null for every script, and one of the run's own for a script with a
// process substitution (run.execute, interp_env.go).
func TestRedteam28_FifoShortcutOutsideTheGrammar(t *testing.T) {
	for i, form := range []string{
		"{ PLANT; echo AGENT >> LINK; }",
		"if PLANT; then echo AGENT >> LINK; fi",
		"PLANT; (echo AGENT >> LINK)",
		"PLANT && echo $(echo AGENT >> LINK)",
		"for i in 1; do PLANT; echo AGENT >> LINK; done",
		"PLANT && cat <<< AGENT >> LINK",
	} {
		t.Run("write"+string(rune('a'+i)), func(t *testing.T) {
			w := r27TmpWorld(t)
			keys := filepath.Join(w.secret, "authorized_keys")
			if err := os.WriteFile(keys, []byte("OWNER\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(w.outside, "sh-interp-r28")
			s := strings.ReplaceAll(form, "PLANT", r28Plant(w, "authorized_keys", link))
			res := w.run(strings.ReplaceAll(s, "LINK", link))
			if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") && !r28AskedSecret(w) {
				t.Errorf("%s: the agent's key was appended to authorized_keys, nobody asked:\n%s", form, res.Text)
			}
		})
	}
	t.Run("read", func(t *testing.T) {
		w := r27TmpWorld(t)
		if err := os.WriteFile(filepath.Join(w.secret, "id_ed25519"), []byte("PRIVATE-KEY-R28\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(w.outside, "sh-interp-r28read")
		res := w.run("{ " + r28Plant(w, "id_ed25519", link) + "; cat < " + link + "; }")
		if strings.Contains(res.Text, "PRIVATE-KEY-R28") && !r28AskedSecret(w) {
			t.Errorf("the private key was read, nobody asked:\n%s", res.Text)
		}
	})
}

// Attack (target 3, names of a secret place; GOT THROUGH, medium): outside
// the grammar a loop's word list is globbed by the interpreter in eukhe's
// process (its default ReadDir: no handler), and what the loop does with
// each name reaches a command in another shape: `for f in L/*; do echo
// "${f#L/}"; done`, L a link to ~/.ssh planted by the same script (so the
// glob matched nothing when judged), prints every file name of the store;
// each echo's words (id_ed25519_work) name no secret, so the runtime
// re-check lets it run. Every question is denied; none is asked. Root
// cause: the interpreter's glob (and stat, for [ -e ]) reads a secret
// place past every handler; only the argv a command gets is re-judged,
// and a name cut off its directory names nothing. Safe outcome: no file
// name of the store in the output.
// HELD now: a glob's listing is judged by the path policy as the real
// directory it reads, within what the running pipeline may do (check.go:
// run.readDir); the store's listing is refused and the glob matches
// nothing.
func TestRedteam28_GlobOutsideTheGrammarListsTheStore(t *testing.T) {
	w := r27TmpWorld(t)
	w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
	if err := os.WriteFile(filepath.Join(w.secret, "id_ed25519_work"), []byte("k\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := w.run(r28Plant(w, "", w.path("L")) + ` && for f in L/*; do echo "${f#L/}"; done`)
	if strings.Contains(res.Text, "id_ed25519_work") {
		t.Fatalf("the agent read the store's file names, every question denied:\n%s", res.Text)
	}
}

// Attack (target 3, an oracle in the grammar; GOT THROUGH, low): with
// `shopt -s nullglob`, `echo L/PATTERN` (L a link to ~/.ssh planted by
// the script) runs when the store holds no name that matches (the glob
// gives nothing; echo has no words) and is refused for secret when it
// does: one bit per call on whether a name exists, so names can be found
// a prefix at a time (`L/id_e*`, `L/id_ed*`, …) with every question
// denied. Root cause: as above, the glob reads the store before any
// judgement, and whether the command is refused depends on what it found.
// Safe outcome: both runs end alike.
// HELD now, as the row above: the listing is refused whatever the store
// holds, so the outcome tells nothing.
func TestRedteam28_NullglobTellsWhetherTheStoreHoldsAName(t *testing.T) {
	ending := func(pattern string) Ending {
		w := r27TmpWorld(t)
		w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
		if err := os.WriteFile(filepath.Join(w.secret, "id_ed25519_work"), []byte("k\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		return w.run(r28Plant(w, "", w.path("L")) + " && shopt -s nullglob && echo L/" + pattern).Ending
	}
	if hit, miss := ending("id_ed*"), ending("zz*"); hit != miss {
		t.Fatalf("a name in the store ends the call %v, no name %v: the endings tell which names exist", hit, miss)
	}
}

// Attack (target 2, redirStep; GOT THROUGH, medium): a redirection whose
// real path matches any judged redirection of the pipeline takes that
// step's allowance, whatever the access. Step 1 plants L (a workspace
// name) as a link to ~/.ssh/authorized_keys; pipeline 2 is `cat <
// ~/.ssh/authorized_keys | echo ssh-ed25519 AGENT >> L`. The user is asked
// one question, about reading authorized_keys (read+secret), and approves
// it; stage 2's `>> L` was judged a workspace write. At run time it opens
// authorized_keys for appending: its real path matches stage 1's judged
// redirection, so it is let do what stage 1 was approved (secret) and the
// auto set holds (write), and the agent's key is appended. Root cause:
// check.go redirStep matches a Part by Redirected path only, not by the
// step and the access it was judged for (a read approval covers a write,
// one stage's approval another's). Safe outcome: the key is not appended,
// or a question names the write.
// HELD now: a redirection matches a judged one of the same access (a write
// a write), and an unmatched one never borrows an approval of secret or
// protected (check.go: run.open, redirStep).
func TestRedteam28_RedirectionMatchedByPathTakesAReadApprovalForAWrite(t *testing.T) {
	w := r27TmpWorld(t)
	keys := filepath.Join(w.secret, "authorized_keys")
	if err := os.WriteFile(keys, []byte("OWNER\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := w.run(r28Plant(w, "authorized_keys", w.path("L")) + " && cat < " + keys + " | echo ssh-ed25519 AGENT >> L")
	for _, q := range w.asker.asked() {
		if q.Effects.Has(gate.Write) && q.Effects.Has(gate.Secret) {
			return
		}
	}
	if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
		var qs []string
		for _, q := range w.asker.asked() {
			qs = append(qs, q.What+" ("+q.Effects.String()+")")
		}
		t.Fatalf("the agent's key was appended to authorized_keys; the only questions: %q\n%s", qs, res.Text)
	}
}

// Attack (target 2, false refusals; GOT THROUGH, low): a legit script
// whose redirection the user approved is refused at run time when the
// directory it runs in is not the one the gate judged: after `cd` into a
// link the script made (`ln -s sub lnk && cd lnk && echo x > f`: judged
// ROOT/lnk/f, opens ROOT/sub/f) or after pushd (the gate does not follow
// it: judged ROOT/f, opens ROOT/sub/f). The auto set holds read only; the
// user approves every question; the step is refused "changed". Root
// cause: a redirection no judged path matches may do only what the auto
// set holds, and the gate's judged path differs from the real one there.
// Safe outcome: each script finishes and writes sub/f.
// HELD now: an unmatched redirection may do what the auto set holds and
// what the pipeline was approved for but secret and protected, so these
// approved writes run.
func TestRedteam28_ApprovedRedirectionAfterCdThroughALinkOrPushdIsRefused(t *testing.T) {
	for i, s := range []string{
		"mkdir -p sub && ln -s sub lnk && cd lnk && echo x > f",
		"mkdir -p sub && pushd sub && echo x > f",
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := newWorld(t, readOnly())
			res := w.run(s)
			if res.Ending != Finished || !exists(w.path("sub/f")) {
				t.Errorf("%s: %v, though every question was approved:\n%s", s, res.Ending, res.Text)
			}
		})
	}
}

// Attack (target 4, end to end; GOT THROUGH, medium): another eukhe runs
// with its socket directory OUT/run/eukhe. One script, no question: the
// entry is written as a/b/N.json, the directory renamed a/eukhe, then
// `cp -r -S.T a/eukhe OUT/run/` (a backup suffix ".T") merges it into
// that socket directory. Root cause: the gate's
// TestRedteam28_ALetterTInAnOptionsValueReadsAsNoTargetDirectory (the T
// in -S.T reads as -T, so intoPaths judges no OUT/run/eukhe). Safe
// outcome: the entry is not there, or the user was asked about secret.
// HELD now: -T is read as getopt reads it (gate/into.go: argv.given), so a
// T in a value no longer drops the names a copy makes.
func TestRedteam28_CopyWithATInItsSuffixFillsAnotherEukhesSocketDirectory(t *testing.T) {
	w := r27TmpWorld(t)
	other := filepath.Join(w.outside, "run", "eukhe")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	res := w.run("mkdir -p a/b && echo '{\"pid\":1}' > a/b/1-deadbeef.json && mv a/b a/eukhe && cp -r -S.T a/eukhe " +
		filepath.Join(w.outside, "run") + "/")
	if exists(filepath.Join(other, "1-deadbeef.json")) && !r28AskedSecret(w) {
		t.Fatalf("an entry was planted in another eukhe's socket directory, nobody asked:\n%s", res.Text)
	}
}

// Attack (target 5, freezeKernel; GOT THROUGH, medium, intermittent: about
// one fresh kernel in four here): a process whose main thread ended
// (pthread_exit) while its other threads run is listed by /proc as a
// zombie (state Z: the leader's), and each look skips zombies: it is
// never stopped one by one, only by its group's stop, which each freeze
// sends once, at the group's first look. Sixteen such processes, each in
// a group of its own, whose threads send SIGCONT to one another in a
// loop: one continued after its group's stop continues the rest, and the
// freeze, finding every process it looks at stopped, ends after two quiet
// looks with all sixteen running. (They are not thawed either: thawKernel
// continues only the processes the looks listed.) Root cause:
// kernel_freeze_linux.go skips p.Zombie, where Z is the leader thread's
// state, not the process's; a zombie leader with live threads is a
// running process. Safe outcome: no line in the second after the freeze,
// in each of six fresh kernels.
// HELD now: a process whose main thread is a zombie is alive while a
// thread of it lives, and stopped when each such thread is
// (internal/procfs: threadsState); the freeze stops it (passed 3 runs of
// 3).
func TestRedteam28_FreezeSkipsAProcessWhoseMainThreadEnded(t *testing.T) {
	for i := range 6 {
		k, ticks := r25Kernel(t, r28ZombieLeaders)
		r25WaitTicks(t, ticks)
		time.Sleep(200 * time.Millisecond)
		if n := r25FrozenTicks(t, k.Process.Pid, ticks); n > 0 {
			t.Fatalf("kernel %d: its processes wrote %d lines in the second after the freeze", i, n)
		}
	}
}

// r28ZombieLeaders is a stand-in kernel's code: sixteen processes, each
// in a group of its own, whose main thread ends; a thread of each sends
// SIGCONT to the others in a loop and writes a line every 10 ms, for at
// most 8 s.
const r28ZombieLeaders = `
import ctypes, os, signal, sys, threading, time
end = time.time() + 8  # what the cleanup misses still ends
N = 16
ready = sys.argv[1] + ".pids"
def work():
    while not os.path.exists(ready):
        time.sleep(0.01)
    others = [int(x) for x in open(ready).read().split() if int(x) != os.getpid()]
    t = open(sys.argv[1], "a", buffering=1)
    last = 0
    while time.time() < end:
        for p in others:
            try:
                os.kill(p, signal.SIGCONT)
            except OSError:
                pass
        now = time.time()
        if now - last > 0.01:
            t.write("t\n")
            last = now
    os._exit(0)
kids = []
for i in range(N):
    pid = os.fork()
    if pid == 0:
        os.setpgid(0, 0)
        threading.Thread(target=work).start()
        ctypes.CDLL(None).pthread_exit(None)
    kids.append(pid)
with open(ready + ".tmp", "w") as f:
    f.write(" ".join(str(p) for p in kids))
os.rename(ready + ".tmp", ready)
while time.time() < end:
    time.sleep(0.1)
`

// Attack (target 5, thawKernel; GOT THROUGH, low: a legit program hangs):
// a kernel's program whose main thread ended and whose other thread works
// on is stopped by its group's stop at a freeze, but never continued:
// the looks skip it as a zombie, so it is not in the list thawKernel
// continues, and it stays stopped for the rest of the session. Root
// cause: as above (p.Zombie skips it from order). Safe outcome: it writes
// again after the thaw.
// HELD now, as the row above: such a process is in the freeze's list, so
// the thaw continues it.
func TestRedteam28_ProcessWhoseMainThreadEndedIsNeverThawed(t *testing.T) {
	k, ticks := r25Kernel(t, `
import ctypes, os, sys, threading, time
end = time.time() + 8
def work():
    t = open(sys.argv[1], "a", buffering=1)
    while time.time() < end:
        t.write("t\n")
        time.sleep(0.01)
    os._exit(0)
if os.fork() == 0:
    threading.Thread(target=work).start()
    ctypes.CDLL(None).pthread_exit(None)
while time.time() < end:
    time.sleep(0.1)
`)
	r25WaitTicks(t, ticks)
	r25FrozenTicks(t, k.Process.Pid, ticks) // freezes, then thaws
	n0 := r25Ticks(ticks)
	time.Sleep(500 * time.Millisecond)
	if r25Ticks(ticks) == n0 {
		t.Fatal("the program wrote nothing in the half second after the thaw: it was left stopped")
	}
}

// A glob through the read-dir handler (run.readDir) matches in name
// order, as bash and os.ReadDir give it: the handler reads the directory
// in its own order, and the interpreter does not sort.
func TestGlobThroughTheReadDirHandlerIsSorted(t *testing.T) {
	w := newWorld(t, gate.DefaultAuto())
	var want []string
	for i := range 60 {
		n := fmt.Sprintf("g/f%03d.txt", (i*37)%60)
		w.write(n, n)
		want = append(want, fmt.Sprintf("g/f%03d.txt", i))
	}
	res := w.run("echo g/*.txt")
	if !strings.Contains(res.Text, strings.Join(want, " ")) {
		t.Fatalf("the glob's matches are not in name order:\n%s", res.Text)
	}
}
