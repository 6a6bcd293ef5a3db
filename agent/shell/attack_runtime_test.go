package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// The in-process half of issue 12: what the interpreter opens itself (a
// redirection runs in eukhe's process) is judged as eukhe's process will
// open it, and a step the gate could not see into is judged again as it
// runs.

// procEnvironLine is one entry of this process's own environment, as
// /proc/self/environ holds it: the canary no output may show.
func procEnvironLine(t *testing.T) string {
	t.Helper()
	b, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		t.Skipf("no /proc/self/environ here: %v", err)
	}
	for _, e := range strings.Split(string(b), "\x00") {
		if len(e) > 12 && strings.Contains(e, "=") {
			return e
		}
	}
	t.Skip("this process's environment is empty")
	return ""
}

func (w *world) key() string {
	w.t.Helper()
	p := filepath.Join(w.secret, "id_rsa")
	if err := os.WriteFile(p, []byte("-----BEGIN PRIVATE KEY----- canary\n"), 0o600); err != nil {
		w.t.Fatal(err)
	}
	return p
}

// eukhe's own environment, read by an in-process redirection or by a
// program, always asks (secret); denied, no byte of it reaches the model.
func TestRuntimeProcEnvironAsks(t *testing.T) {
	canary := procEnvironLine(t)
	for _, script := range []string{
		`tr '\0' '\n' < /proc/self/environ`,
		`cat /proc/self/environ`,
		`cat < /proc/$$/environ`,
		`read -d '' X < /proc/self/environ; echo $X`,
		`while read -d '' l; do echo $l; done < /proc/self/environ`,
	} {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
		w.asker.answers = []gate.Answer{gate.Deny}
		r := w.run(script)
		qs := w.asker.asked()
		if len(qs) == 0 || !qs[0].Effects.Has(gate.Secret) || r.Ending != Refused {
			t.Errorf("%q: %s %s, questions %+v:\n%s", script, r.Ending, r.Reason, qs, r.Text)
		}
		if strings.Contains(r.Text, canary) {
			t.Errorf("%q printed this process's environment:\n%s", script, r.Text)
		}
	}
}

// A path read from a file at run time: the gate judged `cat < $P` as an
// exec step, which the auto set lets run; the open handler judges the
// real path and refuses the secret no one approved — /proc/self/environ,
// /proc/self/cwd after a cd, a link into /proc, the fake home's key.
func TestRuntimeProcPathsFromAFile(t *testing.T) {
	unixPrograms(t, "cat over /proc paths (Linux's)")
	canary := procEnvironLine(t)
	for name, target := range map[string]string{
		"environ":    "/proc/self/environ",
		"cwd":        "/proc/self/cwd/../home/.ssh/id_rsa",
		"thread-cwd": "/proc/thread-self/cwd/../home/.ssh/id_rsa",
		"link":       "env-link",
		"key":        "../home/.ssh/id_rsa",
	} {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
		w.key()
		w.write("p", target+"\n")
		if err := os.Symlink("/proc/self/environ", w.path("env-link")); err != nil {
			t.Fatal(err)
		}
		r := w.run("read P < p; cat < $P")
		if r.Ending != Refused || r.Reason != Changed || !strings.Contains(r.Text, "secret") {
			t.Errorf("%s: %s %s:\n%s", name, r.Ending, r.Reason, r.Text)
		}
		if strings.Contains(r.Text, canary) || strings.Contains(r.Text, "PRIVATE KEY") {
			t.Errorf("%s: a secret reached the output:\n%s", name, r.Text)
		}
	}
}

// After a cd, /proc/self/cwd is eukhe's directory to the interpreter but
// the child's to a program: both are judged as secret, not as the
// directory the gate is in.
func TestRuntimeProcSelfCwdAfterCd(t *testing.T) {
	for _, script := range []string{
		"cd ..; sort /proc/self/cwd/home/.ssh/id_rsa",
		"cd ..; cat < /proc/self/cwd/home/.ssh/id_rsa",
		"cd /proc/self/cwd; cd ..; cat home/.ssh/id_rsa",
		"cd ..; ln /proc/self/cwd/home/.ssh/id_rsa root/k",
	} {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
		w.key()
		w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
		r := w.run(script)
		if r.Ending != Refused || strings.Contains(r.Text, "PRIVATE KEY") || exists(w.path("k")) {
			t.Errorf("%q: %s %s:\n%s", script, r.Ending, r.Reason, r.Text)
		}
		secret := false
		for _, q := range w.asker.asked() {
			secret = secret || q.Effects.Has(gate.Secret)
		}
		if !secret {
			t.Errorf("%q: no question said secret: %+v", script, w.asker.asked())
		}
	}
}

// A link an earlier step copied in (the gate judged grep -R before the
// copy ran, when src held no link): grep -R is walked again as it runs,
// and refused. The tree copied lies in the workspace: a copy reads its
// sources, so one from outside is no longer asked about as outside, and
// this world's outside lies in the temporary directory, which a
// confined step sees only as its own.
func TestRuntimeWalkSeesALinkMadeEarlier(t *testing.T) {
	unixPrograms(t, "cp and grep")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	w.key()
	w.write("src/a.txt", "nothing\n")
	if err := os.MkdirAll(w.path("tree"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(w.secret, filepath.Join(w.path("tree"), "k")); err != nil {
		t.Fatal(err)
	}
	r := w.run("cp -r tree src/; grep -R PRIVATE src")
	if r.Ending != Refused || r.Reason != Changed || r.RefusedAt != 2 || strings.Contains(r.Text, "canary") {
		t.Fatalf("got %s %s at %d:\n%s", r.Ending, r.Reason, r.RefusedAt, r.Text)
	}
	// With no link under it, the walk lets grep -R run unasked.
	w = newWorld(t, gate.AutoOf(gate.Of(gate.Read)))
	w.write("src/a.txt", "needle\n")
	if r := w.run("grep -R needle src"); r.Ending != Finished || !strings.Contains(r.Text, "needle") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
}

// A link to a standard stream's alias is the script's own stream, never
// the server's: reading it does not take the server's input.
func TestRuntimeLinkToAStreamIsTheScripts(t *testing.T) {
	unixPrograms(t, "cat and xxd over links to /dev/fd and /proc")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	if err := os.Symlink("/proc/self/fd/0", w.path("in")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/proc/self/fd/7", w.path("other")); err != nil {
		t.Fatal(err)
	}
	if r := w.run("cat < in; echo done"); r.Ending != Finished || !strings.Contains(r.Text, "done") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	w.asker.answers = []gate.Answer{gate.Deny}
	if r := w.run("cat < other"); r.Ending != Refused {
		t.Fatalf("another descriptor of the server: got %s:\n%s", r.Ending, r.Text)
	}
}

// The too-strict cases run unasked under {read, write}, and cd
// takes bash's options: -P moves to the physical directory.
func TestRuntimeTooStrictCasesRun(t *testing.T) {
	unixPrograms(t, "xxd, tee and ln")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	w.write("f.txt", "hi\n")
	w.write("real/sub/x", "")
	if err := os.Symlink(w.path("real/sub"), w.path("lnk")); err != nil {
		t.Fatal(err)
	}
	r := w.run("xxd f.txt -; tee -a log.txt < f.txt; cd lnk; cd -P ..; pwd; cd -L ..; cd -LP -- lnk; pwd; cd -P; echo ok")
	if r.Ending != Finished || len(w.asker.asked()) != 0 {
		t.Fatalf("got %s with %d questions:\n%s", r.Ending, len(w.asker.asked()), r.Text)
	}
	if !strings.Contains(r.Text, w.path("real")+"\n") || !strings.Contains(r.Text, w.path("real/sub")+"\n") ||
		!strings.Contains(r.Text, "00000000: 6869 0a") {
		t.Fatalf("cd -P did not move to the physical parent, or xxd did not print:\n%s", r.Text)
	}
	if got := w.read("log.txt"); got != "hi\n" {
		t.Fatalf("tee -a wrote %q", got)
	}
}

// What the user is shown is what runs: runtime-only parameters are shown
// unquoted, and the step runs with their values.
func TestRuntimeShownParameters(t *testing.T) {
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read)))
	r := w.run("echo $$ $RANDOM; false; echo $?")
	if r.Ending != Finished || !strings.Contains(r.Text, "$ echo ") || strings.Contains(r.Text, "'$") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	if !strings.Contains(r.Text, "$ echo $?\n1\n") {
		t.Fatalf("$? is not shown as written or did not run:\n%s", r.Text)
	}
}
