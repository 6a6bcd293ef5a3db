//go:build linux

package shell

// The twenty-seventh red team's runtime re-check attacks that were HELD
// (those that got through: redteam27_open_attacks_test.go).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// r27DenyWorld is a world with the default auto set whose user denies
// every question, with a private key in its credential store and, in the
// root, files that hold the words "eval" and a command that prints the key.
func r27DenyWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, gate.DefaultAuto())
	w.runner.Env = append(w.runner.Env, "TMPDIR="+w.outside)
	w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny, gate.Deny, gate.Deny, gate.Deny}
	if err := os.WriteFile(filepath.Join(w.secret, "id_ed25519"), []byte("PRIVATE-KEY-R27\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.write("ev", "eval\n")
	w.write("cmd", "cat "+filepath.Join(w.secret, "id_ed25519")+"\n")
	w.write("src.sh", "cat "+filepath.Join(w.secret, "id_ed25519")+"\n")
	return w
}

// Attack (target 1, the argv judged as data; HELD): a command whose
// words the gate could not know before it ran (read from a file: the
// shell is changed, so the step is judged exec) runs the key's reading
// through each builtin that runs shell code or another command — eval,
// command eval, builtin eval, a $f that expands to eval, exec, set -- and
// "$@", an alias, source of a file, bash -c and env sh -c — or through a
// link to the store an earlier step planted with words that name no
// secret (then a glob, a cd and a relative word, a redirection of a
// command, of an export and of a step with no words). The running argv,
// judged as its words (ClassifyArgv), and each file the shell opens are
// judged again: every one is refused, the key is never printed, and no
// question is approved.
func TestRedteam27_RuntimeRecheckHoldsAgainstBuiltinsAndPlantedLinks(t *testing.T) {
	plant := func(w *world) string {
		half := strings.TrimSuffix(w.secret, "sh")
		return "sh -c 'ln -s \"$0$1\" \"$2\"' " + half + " sh " + w.path("L") + " && "
	}
	for _, row := range []struct {
		script  string
		planted bool
	}{
		{"read f < ev; read c < cmd; $f \"$c\"", false},
		{"read c < cmd; eval \"$c\"", false},
		{"read c < cmd; command eval \"$c\"", false},
		{"read c < cmd; builtin eval \"$c\"", false},
		{"read f < ev; read c < cmd; command $f \"$c\"", false},
		{"read c < cmd; exec $c", false},
		{"read c < cmd; set -- $c; \"$@\"", false},
		{"read c < cmd; IFS=' ' ; $c", false},
		{"shopt -s expand_aliases; read c < cmd; alias x=\"$c\"; x", false},
		{"source src.sh", false},
		{"read c < cmd; bash -c \"$c\"", false},
		{"read c < cmd; env sh -c \"$c\"", false},
		{"read c < cmd; trap \"$c\" EXIT", false},
		{"cat L/id_ed25519", true},
		{"cd L && cat id_ed25519", true},
		{"cd L && cat < id_ed25519", true},
		{"cd L; source id_ed25519", true},
		{"cat < L/id_ed25519", true},
		{"export X=1 < L/id_ed25519", true},
		{"X=1 < L/id_ed25519", true},
		{"cp L/id_ed25519 copy && cat copy", true},
	} {
		w := r27DenyWorld(t)
		script := row.script
		if row.planted {
			script = plant(w) + script
		}
		res := w.run(script)
		if strings.Contains(res.Text, "PRIVATE-KEY-R27") || strings.Contains(w.readOr("copy"), "PRIVATE") {
			t.Errorf("THROUGH: %q printed or copied the key:\n%s", row.script, res.Text)
		}
		for i, a := range w.asker.given {
			if a.Runs() {
				t.Errorf("%q: question %d was approved, the user denies all", row.script, i+1)
			}
		}
	}
}

// readOr is the file's content in the root, "" when it cannot be read.
func (w *world) readOr(name string) string {
	b, _ := os.ReadFile(w.path(name))
	return string(b)
}
