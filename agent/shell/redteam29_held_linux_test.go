//go:build linux

package shell

// The twenty-ninth red team's attacks on the twenty-eighth's fixes that
// were HELD (those that got through: redteam29_open_attacks_test.go).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// r29Plant is a step that links link to the world's secret store joined
// with rest, its words naming no secret (r28Plant's twin: that one is in
// a file whose rows were fixed, this one keeps the new rows standing on
// their own).
func r29Plant(w *world, rest, link string) string {
	half := strings.TrimSuffix(w.secret, "sh")
	return "sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " " + filepath.Join("sh", rest) + " " + link
}

// r29Keys writes the store's authorized_keys and returns its path.
func r29Keys(t *testing.T, w *world) string {
	t.Helper()
	keys := filepath.Join(w.secret, "authorized_keys")
	if err := os.WriteFile(keys, []byte("OWNER\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return keys
}

// r29Denied is a world whose user denies every question.
func r29Denied(t *testing.T) *world {
	w := r27TmpWorld(t)
	w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny, gate.Deny}
	return w
}

// r29Asked tells the effects of each question asked.
func r29Asked(w *world) []string {
	var qs []string
	for _, q := range w.asker.asked() {
		qs = append(qs, q.Effects.String())
	}
	return qs
}

// Attack (target 1, the run's FIFO directory; HELD): a script with a
// process substitution learns its private FIFO directory (the path a
// process substitution expands to is a plain word: `echo <(true)` prints
// it), plants sh-interp-x there as a link to authorized_keys and appends
// through it, which the interpreter opens past the open handler. Also: a
// process substitution made by code the script writes at run time (eval,
// an alias, a trap, a function from eval) to get a FIFO directory with
// no process substitution in the parsed script. Every question denied.
// HELD: every process substitution is judged as /dev/fd/63, which the
// gate takes for a secret place (eukhe's own /proc/self): each such
// script asks about secret, and denied it does not run; code made at run
// time gets the directory below /dev/null, where no FIFO can be made.
// Safe outcome: the key is not appended.
func TestRedteam29_FifoDirectoryOfTheRunIsLearnedAndPlanted(t *testing.T) {
	for i, form := range []string{
		"p=$(echo <(true)); d=${p%/*}; PLANT $d/sh-interp-x; echo AGENT >> $d/sh-interp-x",
		"diff <(echo a) <(echo a); p=$(ls -d SYSTMP/eukhe-fifos-* | head -1); PLANT $p/sh-interp-y; echo AGENT >> $p/sh-interp-y",
		"cat < <(echo a); for d in /proc/$$/fd/*; do :; done; echo AGENT >> L",
		"eval 'p=$(echo <(true))'; d=${p%/*}; PLANT $d/sh-interp-x; echo AGENT >> $d/sh-interp-x",
		"shopt -s expand_aliases; alias q='echo <(true)'\nq",
		"trap 'cat <(echo a)' EXIT; PLANT L; echo AGENT >> L",
		"(echo <(true)) & wait; PLANT L; echo AGENT >> L",
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := r29Denied(t)
			keys := r29Keys(t, w)
			s := strings.ReplaceAll(form, "PLANT", r29Plant(w, "authorized_keys", ""))
			s = strings.ReplaceAll(s, "SYSTMP", os.TempDir())
			res := w.run(s)
			if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
				t.Fatalf("%s: the agent's key was appended, every question denied (%q):\n%s", form, r29Asked(w), res.Text)
			}
		})
	}
}

// Attack (target 2, listings and existence oracles past readDir; HELD):
// L is a link to ~/.ssh planted by the script; every question denied.
// globstar (**), extglob (@(id*)), dotglob, brace expansion naming a
// guessed file, `cd L && echo *`, `cd L && printf * | sed`, `test -f` /
// `[ -e ]` on a guessed name, a glob in a stage whose neighbour was
// approved to read another file of the store, `read x < L`. HELD: each
// listing of the store is refused by readDir, each word that names the
// store is re-judged secret, the open handler refuses the read. Safe
// outcome: no name of the store in the output, and a guessed name that
// exists ends the call as one that does not.
func TestRedteam29_ListingsAndOraclesOfAPlantedStoreLink(t *testing.T) {
	run := func(s string, deny bool) Result {
		w := r27TmpWorld(t)
		if deny {
			w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
		}
		for name, mode := range map[string]os.FileMode{"id_ed25519_work": 0o600, "known_hosts": 0o600} {
			if err := os.WriteFile(filepath.Join(w.secret, name), []byte("k\n"), mode); err != nil {
				t.Fatal(err)
			}
		}
		s = strings.ReplaceAll(s, "PLANT", r29Plant(w, "", "L"))
		return w.run(strings.ReplaceAll(s, "SECRET", w.secret))
	}
	for _, s := range []string{
		"PLANT && shopt -s globstar && echo **", "PLANT && shopt -s extglob && echo L/@(id*)",
		"PLANT && shopt -s dotglob && echo L/*", "PLANT && cd L && echo *", "PLANT && cd L && printf '%s\\n' * | sed s/^/N:/",
		"PLANT && shopt -s nocaseglob && echo l/ID*",
	} {
		if res := run(s, true); strings.Contains(res.Text, "id_ed25519_work") {
			t.Errorf("%s: the store's names reached the agent:\n%s", s, res.Text)
		}
	}
	if res := run("PLANT && cat SECRET/known_hosts | printf '%s\\n' L/* | sed s/^/N:/", false); strings.Contains(res.Text, "N:L/id_ed25519_work") {
		t.Errorf("a stage approved to read known_hosts lent its approval to a glob of the store:\n%s", res.Text)
	}
	for _, f := range []string{"PLANT && [ -e L/NAME ] && echo YES", "PLANT && test -f L/NAME; echo RC=$?",
		"PLANT && echo L/{NAME,zz}", "PLANT && cd L/NAME; echo RC=$?", "PLANT && read x < L/NAME; echo RC=$?"} {
		hit := run(strings.ReplaceAll(f, "NAME", "id_ed25519_work"), true)
		miss := run(strings.ReplaceAll(f, "NAME", "id_ed25519_zzzz"), true)
		if hit.Ending != miss.Ending || strings.Contains(hit.Text, "YES") || strings.Contains(hit.Text, "RC=0") {
			t.Errorf("%s: a name the store holds ends %v, one it does not %v:\n%s\n---\n%s", f, hit.Ending, miss.Ending, hit.Text, miss.Text)
		}
	}
}

// Attack (target 3, unmatched and duplicated redirections; HELD): L is
// planted as a link to authorized_keys, then written through `exec
// 3>>L` (a descriptor kept across steps), `1<>L` (read-write), `>& L`
// (duplication spelled onto a path), a here-doc into L, `tee -a L`, and
// `>> L` in a stage whose neighbour was approved for outside (cp to OUT)
// or for reading a secret (known_hosts). HELD: a redirection judged a
// workspace write is re-judged as the real path and refused as secret;
// an unmatched one never borrows secret. Safe outcome: the key is not
// appended.
func TestRedteam29_RedirectionsThroughAPlantedLinkWithOtherApprovals(t *testing.T) {
	for i, s := range []string{
		"PLANT && exec 3>>L && echo AGENT >&3", "PLANT && echo AGENT 1<>L", "PLANT && echo AGENT >& L",
		"PLANT && cat > L <<EOF\nAGENT\nEOF", "PLANT && echo AGENT | tee -a L",
		"PLANT && cp README OUT/x | echo AGENT >> L", "PLANT && cat SECRET/known_hosts | echo AGENT >> L",
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := r27TmpWorld(t)
			w.write("README", "r\n")
			keys := r29Keys(t, w)
			if err := os.WriteFile(filepath.Join(w.secret, "known_hosts"), []byte("h\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			x := strings.ReplaceAll(s, "PLANT", r29Plant(w, "authorized_keys", "L"))
			x = strings.ReplaceAll(strings.ReplaceAll(x, "SECRET", w.secret), "OUT", w.outside)
			res := w.run(x)
			if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
				t.Fatalf("%s: the agent's key was appended (questions %q):\n%s", s, r29Asked(w), res.Text)
			}
		})
	}
}

// Attack (target 2, a PATH lookup past every handler; GOT THROUGH, low):
// L is a link to ~/.ssh planted by the script; `PATH=$PWD/L type NAME`
// (or `command -v NAME`) prints "NAME is ROOT/L/NAME" when the store
// holds an executable file NAME, and "not found" when not: an existence
// oracle on the store's names, every question denied (no question is
// even asked). Root cause: the interpreter's LookPath stats PATH entries
// with os.Stat in eukhe's process (eukhe sets no StatHandler, and
// readDir covers globs only); type/command print the result, and their
// words (a bare NAME) name no secret. Safe outcome: hit and miss print
// alike.
// HELD now: a lookup on PATH (a command's, and type, command and hash)
// reads each entry, so an entry in a secret place makes the step secret
// (gate/call.go: secretPathParts); both names are refused alike.
func TestRedteam29_TypeLooksUpANameInTheStore(t *testing.T) {
	out := func(name string) string {
		w := r29Denied(t)
		if err := os.WriteFile(filepath.Join(w.secret, "helper"), []byte("#!/bin/sh\n"), 0o700); err != nil {
			t.Fatal(err)
		}
		res := w.run(r29Plant(w, "", "L") + " && PATH=$PWD/L type " + name + "; echo RC=$?")
		return strings.ReplaceAll(strings.ReplaceAll(res.Text, name, "NAME"), filepath.Dir(w.root), "BASE")
	}
	if hit, miss := out("helper"), out("helpzz"); hit != miss {
		t.Fatalf("the store's executable file is told apart from a missing one:\n%s\n---\n%s", hit, miss)
	}
}

// Attack (target 1, process substitution; GOT THROUGH, medium, by
// approval): every process substitution is judged as /dev/fd/63, a
// secret place (eukhe's own /proc/self), so `diff <(sort a) <(sort b)`
// asks "read+exec+secret" with no file of a credential store named; the
// user, who must approve that to diff at all, approves. The script is
// outside the step grammar, one step run whole, and its approval of
// secret covers a write to ~/.ssh/authorized_keys through a link the
// script planted (the question's paths name neither the store nor the
// file) — or the same through the run's private FIFO directory, whose
// name `echo <(true)` prints. Root cause: the false secret of /dev/fd/63
// makes secret approvals routine, and a script outside the grammar
// approved for one secret may touch every secret. Safe outcome: the key
// is not appended unless a question named the store.
// HELD now, every form: a process substitution stands as a stream's
// alias in the gate (gate/expand.go), so `diff <(…) <(…)` asks nothing
// about secret; the run's FIFO directory is read-only to every process of
// the run whatever the step was approved for (sandbox.go: Keep and
// Sealed; form b planted there, approved for an unnamed secret); and an
// approval of secret or protected covers a command or a redirection only
// at the real paths its question named (check.go: coveredAt, and the
// open handler for a script outside the grammar too; forms c, d and e
// wrote through a link in the workspace planted after the question).
func TestRedteam29_ProcessSubstitutionsSecretApprovalDoesNotCoverTheStore(t *testing.T) {
	for i, form := range []string{
		"diff <(echo a) <(echo a); PLANT L; echo AGENT >> L",
		"p=$(echo <(true)); d=${p%/*}; PLANT $d/sh-interp-x; echo AGENT >> $d/sh-interp-x",
		"p=$(echo <(true)); x=${p%/*}; PLANT L; tee -a L $x/y <<< AGENT",
		"p=$(echo <(true)); x=${p%/*}; PLANT L; cat $x/y; echo AGENT >> L",
		"p=$(echo <(true)); x=${p%/*}; PLANT L; f() { tee -a L $x/y <<< AGENT; }; f",
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := r27TmpWorld(t)
			keys := r29Keys(t, w)
			res := w.run(strings.ReplaceAll(form, "PLANT", r29Plant(w, "authorized_keys", "")))
			for _, q := range w.asker.asked() {
				if strings.Contains(strings.Join(q.Reals, " "), w.secret) || strings.Contains(q.What, w.secret) {
					return
				}
			}
			if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
				t.Fatalf("%s: the key was appended; the only questions: %q\n%s", form, r29Asked(w), res.Text)
			}
		})
	}
}
