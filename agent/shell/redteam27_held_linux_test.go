//go:build linux

package shell

// The twenty-seventh red team's rows that got through and are held now.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// r27TmpWorld is a world whose shell's TMPDIR (the interpreter's
// temporary directory, where it makes its process substitutions' FIFOs)
// is the world's directory outside the root.
func r27TmpWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, gate.DefaultAuto())
	w.runner.Env = append(w.runner.Env, "TMPDIR="+w.outside)
	return w
}

// Attack (target 1, a redirection whose real path changes between
// judging and opening; GOT THROUGH, high): the interpreter (mvdan.cc/sh
// interp, Runner.open) hands a path to the open handler only when it is
// not one of its own FIFOs, and tells its FIFOs by name alone: any path
// spelled "$TMPDIR/sh-interp-*" (the server's TMPDIR, /tmp when unset) is
// opened by os.OpenFile in the server's own process, unconfined, following
// every link — eukhe's open handler (check.go: run.open, the runtime
// re-check and openReal's RESOLVE_NO_SYMLINKS) never sees it. Step 1 (a
// program whose words name no secret: the path is put together inside
// it) plants a link there to ~/.ssh/authorized_keys; step 2's `>>` was
// judged before step 1 ran, when the path did not exist (write,
// outside: auto by default), and appends the agent's key to the secret
// file. Nobody is asked. Root cause: the interpreter's FIFO shortcut
// (runner.go, `dir == r.tempDir && strings.HasPrefix(name,
// fifoNamePrefix)`) bypasses OpenHandler, and eukhe neither refuses such
// a name in a redirection nor gives the interpreter a TMPDIR no step can
// write. Safe outcome: the key is not written, or the user is asked about
// secret.
// HELD now: while the interpreter resets for a script in the grammar,
// TMPDIR names a directory below /dev/null (interp_env.go), so its FIFO
// shortcut opens nothing; the open handler judges the path, and the write
// is refused as secret.
func TestRedteam27_FifoNamedRedirectionBypassesTheOpenHandler(t *testing.T) {
	w := r27TmpWorld(t)
	keys := filepath.Join(w.secret, "authorized_keys")
	if err := os.WriteFile(keys, []byte("ssh-ed25519 OWNER\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(w.outside, "sh-interp-r27")
	half := strings.TrimSuffix(w.secret, "sh") // ".../home/.s"
	res := w.run("sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " sh/authorized_keys " + link +
		" && echo ssh-ed25519 AGENT >> " + link)
	b, _ := os.ReadFile(keys)
	for _, q := range w.asker.asked() {
		if q.Effects.Has(gate.Secret) {
			return // asked: held
		}
	}
	if strings.Contains(string(b), "AGENT") {
		t.Fatalf("the agent's key was appended to %s, nobody asked:\n%s\nresult:\n%s", keys, b, res.Text)
	}
	t.Logf("held: %s", res.Text)
}

// Attack (same hole, a read): `cat < $TMPDIR/sh-interp-x` where an earlier
// step of the script linked that name to ~/.ssh/id_ed25519: the shell
// opens the secret (unconfined, in the server) and cat prints it. GOT
// THROUGH, high; root cause as above.
// HELD now, as the row above.
func TestRedteam27_FifoNamedRedirectionReadsASecret(t *testing.T) {
	w := r27TmpWorld(t)
	key := filepath.Join(w.secret, "id_ed25519")
	if err := os.WriteFile(key, []byte("PRIVATE-KEY-R27\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(w.outside, "sh-interp-r27read")
	half := strings.TrimSuffix(w.secret, "sh")
	res := w.run("sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " sh/id_ed25519 " + link + " && cat < " + link)
	for _, q := range w.asker.asked() {
		if q.Effects.Has(gate.Secret) {
			return
		}
	}
	if strings.Contains(res.Text, "PRIVATE-KEY-R27") {
		t.Fatalf("the secret key was read, nobody asked:\n%s", res.Text)
	}
	t.Logf("held: %s", res.Text)
}

// Attack (target 1, a redirection matched to another step of its
// pipeline; GOT THROUGH, medium): the open handler finds a redirection's
// step by the real path it opens now (redirStep: the step whose part was
// Redirected there when judged), and a path no step was judged to open
// falls back to the pipeline's FIRST step, with that step's allowance.
// Step 1 plants a link L (its words name no secret) to ~/.ssh/id_ed25519;
// the next pipeline is `cat ~/.ssh/known_hosts | cat - < L`: the user is
// asked about reading known_hosts (step 2, secret) and approves; step 3's
// `< L` was judged when L did not exist (read), and at run time opens the
// private key. Its real path is no step's Redirected, so it is judged
// against step 2's allowance (which holds secret: approved for
// known_hosts) and the private key is read, though the user approved
// another file and no question named it. Root cause: check.go redirStep
// returns x.cur.start when nothing matches and open takes
// allowedAt(step, true) for it — the first step's approval covers a
// redirection of any stage; it should be the allowance of the step the
// redirection belongs to (or only what the auto set holds). Safe outcome:
// the key is not printed, or a question names it.
// HELD now: a redirection no step was judged to open may do only what the
// auto set holds (check.go: run.open).
func TestRedteam27_UnmatchedRedirectionTakesTheFirstStepsApproval(t *testing.T) {
	w := r27TmpWorld(t)
	key := filepath.Join(w.secret, "id_ed25519")
	if err := os.WriteFile(key, []byte("PRIVATE-KEY-R27\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.secret, "known_hosts"), []byte("host ssh-ed25519 PUB\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := w.path("L")
	half := strings.TrimSuffix(w.secret, "sh")
	res := w.run("sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " sh/id_ed25519 " + link +
		" && cat " + filepath.Join(w.secret, "known_hosts") + " | cat - < " + link)
	for _, q := range w.asker.asked() {
		if strings.Contains(q.What, "id_ed25519") || q.Step == 3 {
			return // the question named the key: held
		}
	}
	if strings.Contains(res.Text, "PRIVATE-KEY-R27") {
		var qs []string
		for _, q := range w.asker.asked() {
			qs = append(qs, q.What)
		}
		t.Fatalf("the private key was read, the only questions were %q:\n%s", qs, res.Text)
	}
	t.Logf("held: %s", res.Text)
}

// Ways around the FIFO fix (interp_env.go), each held: the script and its
// programs still see their own TMPDIR; with no TMPDIR the interpreter's
// fallback (the system's temporary directory) is no shortcut either; a
// script that sets TMPDIR before its redirection does not move the
// shortcut (the interpreter read it once, when it reset); a redirection
// into the trap directory itself opens nothing.
func TestRedteam27_FifoShortcutHasNoWayAround(t *testing.T) {
	t.Run("the script and its programs see their TMPDIR", func(t *testing.T) {
		w := r27TmpWorld(t)
		res := w.run(`echo "in=$TMPDIR" && sh -c 'echo "out=$TMPDIR"'`)
		if !strings.Contains(res.Text, "in="+w.outside+"\n") || !strings.Contains(res.Text, "out=") {
			t.Fatalf("the script's TMPDIR is not its own:\n%s", res.Text)
		}
		if strings.Contains(res.Text, noFifoDir()) {
			t.Fatalf("the trap directory reached the script:\n%s", res.Text)
		}
	})
	t.Run("no TMPDIR: the system's temporary directory", func(t *testing.T) {
		w := newWorld(t, gate.DefaultAuto())
		keys := filepath.Join(w.secret, "authorized_keys")
		if err := os.WriteFile(keys, []byte("OWNER\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(os.TempDir(), "sh-interp-r27none"+filepath.Base(w.root)+filepath.Base(filepath.Dir(w.root)))
		t.Cleanup(func() { os.Remove(link) })
		half := strings.TrimSuffix(w.secret, "sh")
		res := w.run("sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " sh/authorized_keys " + link + " && echo AGENT >> " + link)
		if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
			t.Fatalf("the key was appended through %s:\n%s", link, res.Text)
		}
	})
	t.Run("TMPDIR set by the script first", func(t *testing.T) {
		w := r27TmpWorld(t)
		keys := filepath.Join(w.secret, "authorized_keys")
		if err := os.WriteFile(keys, []byte("OWNER\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		other := filepath.Join(w.root, "t")
		if err := os.MkdirAll(other, 0o755); err != nil {
			t.Fatal(err)
		}
		half := strings.TrimSuffix(w.secret, "sh")
		res := w.run("export TMPDIR=" + other + " && sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " sh/authorized_keys " +
			other + "/sh-interp-x && echo AGENT >> $TMPDIR/sh-interp-x")
		if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
			t.Fatalf("the key was appended through the script's own TMPDIR:\n%s", res.Text)
		}
	})
	t.Run("the trap directory itself", func(t *testing.T) {
		w := r27TmpWorld(t)
		res := w.run("echo x > " + noFifoDir() + "/sh-interp-1")
		if res.Ending != Refused && (res.Status == 0 || !strings.Contains(res.Text, "not a directory")) {
			t.Fatalf("a redirection into %s: %v %d\n%s", noFifoDir(), res.Ending, res.Status, res.Text)
		}
	})
}

// Attack (target 1, the runtime refusal's text; GOT THROUGH, low): an
// earlier step plants a link L to ~/.ssh (its words name no secret); `echo
// L/*` was judged before (no match: read). As it runs the interpreter
// globs the store (its ReadDir is not the gate's), and the re-check
// rightly refuses `echo L/id_ed25519` — but the refusal the agent reads
// says "it would run `echo L/id_ed25519`": the names in the credential
// store, whose listing is secret, reach the agent though the user denied
// every question. Root cause: check.go changedError shows the judged argv
// (gate.Step.Text of the running words) whole; a refusal for secret
// should not show words that the refused expansion produced. Safe
// outcome: the refusal does not name a file of the store.
// HELD now: a command refused for secret is shown by its name only (check.go: run.shownRun).
func TestRedteam27_RefusalTextListsTheCredentialStore(t *testing.T) {
	w := r27TmpWorld(t)
	w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
	if err := os.WriteFile(filepath.Join(w.secret, "id_ed25519_work"), []byte("k\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	half := strings.TrimSuffix(w.secret, "sh")
	res := w.run("sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " sh " + w.path("L") + " && echo L/*")
	if strings.Contains(res.Text, "id_ed25519_work") {
		t.Fatalf("the agent read the store's file names, though every question was denied:\n%s", res.Text)
	}
}

// Attack (target 2, end to end; GOT THROUGH, medium): another eukhe runs
// with XDG_RUNTIME_DIR=OUT/run (its socket directory OUT/run/eukhe is
// there). One script, no question: the entry is written as a/b/N.json in
// the workspace (no eukhe directory in its path), the directory renamed
// a/eukhe (inside the root: the project's own), then copied into OUT/run/
// — cp merges it into the other eukhe's socket directory, and the entry
// that eukhe's discovery reads is the agent's. Root cause: as in the
// gate's TestRedteam27_CopyOrMoveMakesAnEukheDirectoryThroughItsParent —
// the copy's destination OUT/run/eukhe/N.json is named by no word, and
// the word OUT/run/ is no eukhe directory. Safe outcome: the entry is not
// there, or the user was asked about secret.
// HELD now: the gate judges the names a copy or move into a directory and
// mkdir -p make (gate/into.go intoPaths, mkdirParents).
func TestRedteam27_EntryCarriedIntoAnotherEukhesSocketDirectory_Held(t *testing.T) {
	w := r27TmpWorld(t)
	other := filepath.Join(w.outside, "run", "eukhe")
	if err := os.MkdirAll(other, 0o700); err != nil {
		t.Fatal(err)
	}
	res := w.run("mkdir -p a/b && echo '{\"pid\":1}' > a/b/1-deadbeef.json && mv a/b a/eukhe && cp -r a/eukhe " +
		filepath.Join(w.outside, "run") + "/")
	for _, q := range w.asker.asked() {
		if q.Effects.Has(gate.Secret) {
			return
		}
	}
	if exists(filepath.Join(other, "1-deadbeef.json")) {
		t.Fatalf("an entry was planted in another eukhe's socket directory, nobody asked:\n%s", res.Text)
	}
	t.Logf("held: %s", res.Text)
}

// Attack (target 2; GOT THROUGH, medium): `mkdir -p OUT/eukhe-4242/..`
// makes OUT/eukhe-4242 (mkdir -p makes every component; the ".." then
// names OUT), judged as a write of OUT. Safe outcome: no such directory,
// or a question about secret.
// HELD now: the gate judges the names a copy or move into a directory and
// mkdir -p make (gate/into.go intoPaths, mkdirParents).
func TestRedteam27_MkdirDotDotMakesAnEukheDirectory_Held(t *testing.T) {
	w := r27TmpWorld(t)
	res := w.run("mkdir -p " + filepath.Join(w.outside, "eukhe-4242") + "/..")
	for _, q := range w.asker.asked() {
		if q.Effects.Has(gate.Secret) {
			return
		}
	}
	if exists(filepath.Join(w.outside, "eukhe-4242")) {
		t.Fatalf("mkdir -p made an eukhe-UID directory outside the root, nobody asked:\n%s", res.Text)
	}
	t.Logf("held: %s", res.Text)
}
