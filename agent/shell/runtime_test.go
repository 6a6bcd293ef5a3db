package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"

	"github.com/eukhe/eukhe/gate"
)

func wantChanged(t *testing.T, r Result, step int) {
	t.Helper()
	if r.Ending != Refused || r.Reason != Changed || r.RefusedAt != step {
		t.Fatalf("want a runtime refusal at step %d, got %s %q at %d:\n%s", step, r.Ending, r.Reason, r.RefusedAt, r.Text)
	}
	if !r.Failed || !strings.Contains(r.Text, "did not run") || !strings.Contains(r.Text, "Run it again as a call of its own") {
		t.Fatalf("the refusal does not say what happened and what to do:\n%s", r.Text)
	}
}

// A file named -i that an earlier step made turns `sed s/a/b/ *`, judged
// as a read, into an in-place write.
func TestRuntimeGlobMakesSedWrite(t *testing.T) {
	unixPrograms(t, "touch and sed")
	w := newWorld(t, readOnly())
	w.write("a.txt", "a\n")
	r := w.run("touch ./-i; sed s/a/b/ *")
	wantChanged(t, r, 2)
	if !strings.Contains(r.Text, "sed s/a/b/ -i a.txt") || !strings.Contains(r.Text, "no one approved write") {
		t.Fatalf("the refusal should show the argv as it would run and the effect:\n%s", r.Text)
	}
	if got := w.read("a.txt"); got != "a\n" {
		t.Fatalf("sed ran: a.txt is %q", got)
	}
	if qs := w.asker.asked(); len(qs) != 1 || qs[0].Step != 1 {
		t.Fatalf("only touch should ask: %+v", qs)
	}
}

// Under the default auto set the same step is a write the user lets run
// unasked: the re-check refuses only effects no one approved.
func TestRuntimeGlobWithinAutoRuns(t *testing.T) {
	unixPrograms(t, "sed")
	w := newWorld(t, gate.DefaultAuto())
	w.write("a.txt", "a\n")
	r := w.run("touch ./-i; sed s/a/b/ *")
	if r.Ending != Finished {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	if got := w.read("a.txt"); got != "b\n" {
		t.Fatalf("a.txt is %q", got)
	}
}

// A file named --pre=sh turns `rg foo *` into a step that runs sh on each
// file it searches.
func TestRuntimeGlobMakesRgRunAProgram(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		testkit.Missing(t, "rg is not on PATH; install ripgrep to run this test")
	}
	w := newWorld(t, readOnly())
	w.write("a.txt", "touch pwned\n")
	r := w.run("touch ./--pre=sh; rg foo *")
	wantChanged(t, r, 2)
	if !strings.Contains(r.Text, "--pre=sh") || !strings.Contains(r.Text, "exec") {
		t.Fatalf("the refusal should show --pre=sh and exec:\n%s", r.Text)
	}
	if exists(w.path("pwned")) {
		t.Fatal("rg ran sh on a.txt")
	}
}

// A variable the gate could not know (read from a file) changes the
// command's name.
func TestRuntimeVariableChangesCommand(t *testing.T) {
	unixPrograms(t, "rm")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Exec)))
	w.write("cmd", "rm\n")
	w.write("x", "keep\n")
	r := w.run("read C < cmd; $C x")
	wantChanged(t, r, 2)
	if !strings.Contains(r.Text, "run `rm x`") {
		t.Fatalf("the refusal should show `rm x`:\n%s", r.Text)
	}
	if !exists(w.path("x")) {
		t.Fatal("rm ran")
	}
}

// A cd through a link an earlier step made lands in .git/hooks: the
// write there is protected, which no one approved.
func TestRuntimeCdIntoGitHooks(t *testing.T) {
	unixPrograms(t, "ln")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	if err := os.MkdirAll(w.path(".git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	r := w.run("ln -s .git/hooks h; cd h && touch pre-commit")
	wantChanged(t, r, 3)
	if !strings.Contains(r.Text, "protected") {
		t.Fatalf("the refusal should name protected:\n%s", r.Text)
	}
	if exists(w.path(".git/hooks/pre-commit")) {
		t.Fatal("touch wrote a hook")
	}
}

// A redirection through a link an earlier step made writes outside the
// workspace: the open handler refuses it.
func TestRuntimeRedirectThroughLink(t *testing.T) {
	unixPrograms(t, "ln")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	target := filepath.Join(w.outside, "o")
	r := w.run("ln -s " + target + " out; echo hi > out")
	wantChanged(t, r, 2)
	if !strings.Contains(r.Text, "write "+target) {
		t.Fatalf("the refusal should name the real path:\n%s", r.Text)
	}
	if exists(target) {
		t.Fatal("the redirection wrote outside")
	}
}

// Outside the grammar the gate cannot know what a command substitution
// gives; the re-check still sees the secret the loop would read.
func TestRuntimeSecretInALoop(t *testing.T) {
	unixPrograms(t, "cat")
	w := newWorld(t, gate.DefaultAuto())
	key := filepath.Join(w.secret, "id_ed25519")
	if err := os.WriteFile(key, []byte("PRIVATE\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	w.write("names", key+"\n")
	r := w.run("for f in $(cat names); do cat $f; done")
	wantChanged(t, r, 1)
	if strings.Contains(r.Text, "PRIVATE") {
		t.Fatalf("the key reached the output:\n%s", r.Text)
	}
	if len(w.asker.asked()) != 0 {
		t.Fatal("the loop had no secret the gate could see; it should not ask")
	}
}

// /dev/stdout is the script's output, never the server's; the server's
// other descriptors are not the script's.
func TestRuntimeStandardStreams(t *testing.T) {
	w := newWorld(t, gate.DefaultAuto())
	r := w.run("echo to-stdout > /dev/stdout; echo to-stderr > /dev/stderr; echo x > /dev/fd/7; echo after")
	for _, want := range []string{"to-stdout", "to-stderr", "/dev/fd/7: permission denied", "after"} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("want %q in:\n%s", want, r.Text)
		}
	}
}

// A script outside the grammar is one step with exec: asked once, then
// run whole; denied, none of it runs.
func TestOutsideTheGrammarIsOneStep(t *testing.T) {
	unixPrograms(t, "touch")
	w := newWorld(t, readOnly())
	w.asker.answers = []gate.Answer{gate.Deny}
	r := w.run("for i in 1 2; do touch f$i; done")
	if r.Ending != Refused || r.Reason != "denied" || r.RefusedAt != 1 || exists(w.path("f1")) {
		t.Fatalf("got %s %s:\n%s", r.Ending, r.Reason, r.Text)
	}
	if !strings.Contains(r.Text, "Do not try it again unless the user asks for it") {
		t.Fatalf("no next-step advice:\n%s", r.Text)
	}
	r = w.run("for i in 1 2; do touch f$i; done")
	qs := w.asker.asked()
	if r.Ending != Finished || !exists(w.path("f1")) || !exists(w.path("f2")) || len(qs) != 2 {
		t.Fatalf("got %s with %d questions:\n%s", r.Ending, len(qs), r.Text)
	}
	if !qs[1].Effects.Has(gate.Exec) || !qs[1].Effects.Has(gate.Write) {
		t.Fatalf("the question should hold exec and write: %v", qs[1].Effects)
	}
}

// Each refusal answer gives the seed's text and its advice.
func TestRefusalText(t *testing.T) {
	for _, c := range []struct {
		a      gate.Answer
		reason string
		advice string
	}{
		{gate.Deny, "denied", "Do not try it again unless the user asks for it"},
		{gate.Unanswered, "unanswered", "or to add write to shell.autoEffects"},
		{gate.GatewayRefused, "gateway_refused", "Ask the user to run it from the editor"},
	} {
		w := newWorld(t, readOnly())
		w.asker.answers = []gate.Answer{c.a}
		r := w.run("echo one; touch f; echo three")
		want := gate.RefusalText("step 2 (touch f)", gate.Of(gate.Write), c.a)
		if r.Reason != c.reason || r.RefusedAt != 2 || !strings.Contains(r.Text, want) || !strings.Contains(r.Text, c.advice) {
			t.Fatalf("%v: got %s at %d:\n%s", c.a, r.Reason, r.RefusedAt, r.Text)
		}
		if !strings.Contains(r.Text, "one") || strings.Contains(r.Text, "three") || exists(w.path("f")) {
			t.Fatalf("%v: the steps around the refusal:\n%s", c.a, r.Text)
		}
	}
}

// A session with no one to ask: every gated step is unanswered.
func TestNoAskerIsUnanswered(t *testing.T) {
	w := newWorld(t, readOnly())
	w.runner.Gate.Chain = nil
	r := w.run("touch f")
	if r.Reason != "unanswered" || exists(w.path("f")) {
		t.Fatalf("got %s:\n%s", r.Reason, r.Text)
	}
}

// Scripts that cannot run say why, and run nothing.
func TestInvalidScripts(t *testing.T) {
	w := newWorld(t, gate.DefaultAuto())
	for _, s := range []string{"touch a\x00b", "echo 'unclosed"} {
		r := w.run(s)
		if r.Ending != Invalid || !r.Failed || !strings.Contains(r.Text, "nothing ran") {
			t.Fatalf("%q: got %s:\n%s", s, r.Ending, r.Text)
		}
	}
	w.runner.Gate.Policy = nil
	if r := w.run("echo hi"); r.Ending != Invalid {
		t.Fatalf("no policy: got %s", r.Ending)
	}
}
