//go:build linux

package shell

// The twenty-eighth red team's attacks that were HELD (those that got
// through: redteam28_open_attacks_test.go).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// r28HeldPlant is r28Plant for the held rows (the open rows' helper is
// behind their build tag).
func r28HeldPlant(w *world, rest, link string) string {
	half := strings.TrimSuffix(w.secret, "sh")
	return "sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " " + filepath.Join("sh", rest) + " " + link
}

// Attack (target 1, the FIFO shortcut inside the grammar; HELD): the FIFO
// name reached through code the script makes at run time — eval's text,
// a variable that names the link, the link under the script's own TMPDIR
// set by an assignment on the step, a cd to its directory — opens nothing past the open handler: the interpreter's
// temporary directory stays below /dev/null, and the open handler refuses
// the secret. Safe outcome: the key is not written.
func TestRedteam28_FifoShortcutInTheGrammarThroughMadeCode(t *testing.T) {
	for i, form := range []string{
		"PLANT && eval 'echo AGENT >> LINK'",
		"PLANT && l=LINK && echo AGENT >> $l",
		"PLANT && TMPDIR=OUT echo AGENT >> LINK",
		"PLANT && cd OUT && echo AGENT >> sh-interp-r28",
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := r27TmpWorld(t)
			keys := filepath.Join(w.secret, "authorized_keys")
			if err := os.WriteFile(keys, []byte("OWNER\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			link := filepath.Join(w.outside, "sh-interp-r28")
			s := strings.ReplaceAll(form, "PLANT", r28HeldPlant(w, "authorized_keys", link))
			s = strings.ReplaceAll(strings.ReplaceAll(s, "LINK", link), "OUT", w.outside)
			res := w.run(s)
			for _, q := range w.asker.asked() {
				if q.Effects.Has(gate.Secret) {
					return
				}
			}
			if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
				t.Fatalf("%s: the agent's key was appended, nobody asked:\n%s", form, res.Text)
			}
		})
	}
}

// Attack (target 2, redirections judged and run; HELD): legit
// redirections whose spelling differs from their real path (./f, sub//f,
// d/../f after mkdir d, ../f after cd sub, &>, a redirection in each stage
// of a pipeline, a stage's redirection and another's tee) run when the
// user approved them with only read in the auto set: no false refusal.
// And a redirection a step re-pointed to a secret after the judgement, in
// the second stage of a pipeline whose first stage's approval was for
// another secret file, is refused (the r27 row's neighbour, with &>).
func TestRedteam28_RedirectionSpellingsRunAsApproved(t *testing.T) {
	for i, s := range []string{
		"echo x > ./f", "mkdir -p sub && echo x > sub//f", "mkdir -p d && echo x > d/../f",
		"mkdir -p sub && cd sub && echo x > ../f", "echo x &> f", "echo x > f 2>&1 | cat > g", "echo x | tee f > g",
	} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := newWorld(t, readOnly())
			res := w.run(s)
			if res.Ending != Finished || res.Status != 0 {
				t.Errorf("%s: %v %d, though every question was approved:\n%s", s, res.Ending, res.Status, res.Text)
			}
		})
	}
	t.Run("re-pointed, &>", func(t *testing.T) {
		w := r27TmpWorld(t)
		key := filepath.Join(w.secret, "id_ed25519")
		if err := os.WriteFile(key, []byte("PRIVATE\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(w.secret, "known_hosts"), []byte("h\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		res := w.run(r28HeldPlant(w, "id_ed25519", w.path("L")) + " && cat " + filepath.Join(w.secret, "known_hosts") +
			" | echo AGENT &> L")
		if b, _ := os.ReadFile(key); strings.Contains(string(b), "AGENT") {
			t.Fatalf("the private key was overwritten through L:\n%s", res.Text)
		}
	})
}

// Attack (target 3, the refusal's text; HELD): a command refused for
// secret whose words a glob over a planted link to ~/.ssh made is shown by
// its name only, whatever the command (ls, printf, a builtin); the step's
// text is the script's own. Safe outcome: no file name of the store in
// the text the agent reads.
func TestRedteam28_RefusalTextNamesNoFileOfTheStore(t *testing.T) {
	for i, cmd := range []string{"ls L/*", "printf %s L/*", "test -e L/*", "[ -n L/id* ]"} {
		t.Run(string(rune('a'+i)), func(t *testing.T) {
			w := r27TmpWorld(t)
			w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
			if err := os.WriteFile(filepath.Join(w.secret, "id_ed25519_work"), []byte("k\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			res := w.run(r28HeldPlant(w, "", w.path("L")) + " && " + cmd)
			if strings.Contains(res.Text, "id_ed25519_work") {
				t.Fatalf("%s: the store's file names reached the agent:\n%s", cmd, res.Text)
			}
		})
	}
}

// Attack (target 4, end to end; HELD by the sandbox): `cd OUT/run && ln
// -s ROOT/a/eukhe` (ln's lone operand makes OUT/run/eukhe, judged
// read+write: the gate's open row
// TestRedteam28_LinkWithOneOperandMakesItsNameInTheCwd) — the step is
// not judged outside, so its sandbox lets ln write the workspace only,
// and the link is not made. Safe outcome: no OUT/run/eukhe, or a
// question about secret.
func TestRedteam28_LoneLinkOperandOutsideIsHeldByTheSandbox(t *testing.T) {
	needTool(t, "bwrap")
	w := r27TmpWorld(t)
	run := filepath.Join(w.outside, "run")
	if err := os.MkdirAll(run, 0o700); err != nil {
		t.Fatal(err)
	}
	res := w.run("mkdir -p a/eukhe && echo '{\"pid\":1}' > a/eukhe/1-deadbeef.json && cd " + run + " && ln -s " + w.path("a/eukhe"))
	for _, q := range w.asker.asked() {
		if q.Effects.Has(gate.Secret) {
			return
		}
	}
	if exists(filepath.Join(run, "eukhe")) {
		t.Fatalf("a link named as another eukhe's socket directory was made outside the root, nobody asked:\n%s", res.Text)
	}
}

// Attack (target 3's neighbour, the open handler's real-path judgement;
// GOT THROUGH, medium, not from today's change): ~/.ssh/config is a link
// to a dotfiles repository (GNU stow, home-manager). Step 1 plants L to
// ~/.ssh; `cat < L/config` opens ~/.ssh/config's target, whose real path
// is no secret place, and prints it unasked; every question is denied.
// Root cause: as the gate's
// TestRedteam28_StoreFileLinkedOutOfTheStoreIsNotSecret — a path is
// judged by its real path alone, and a store's link out of the store
// makes its target no secret. Safe outcome: the file's text is not printed.
// HELD now, for a link made after the policy too (this row makes it
// after the world's policy; a dotfiles manager run mid-session): the gate
// judges a path resolved through a link that lies in a secret place as
// that place's entry (RealPath.Via; gate:
// TestLaw_a_store_entry_is_secret_by_every_route).
func TestRedteam28_StoreFileLinkedOutOfTheStoreIsNotRead(t *testing.T) {
	w := r27TmpWorld(t)
	w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
	dot := filepath.Join(filepath.Dir(w.secret), "dotfiles")
	if err := os.MkdirAll(dot, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dot, "ssh_config"), []byte("Host corp\n  ProxyJump SECRET-BASTION\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dot, "ssh_config"), filepath.Join(w.secret, "config")); err != nil {
		t.Fatal(err)
	}
	res := w.run(r28Plant(w, "", w.path("L")) + " && cat < L/config")
	if strings.Contains(res.Text, "SECRET-BASTION") {
		t.Fatalf("~/.ssh/config was read through a planted link, every question denied:\n%s", res.Text)
	}
}
