package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// The PATH a script and its programs get (gate/pathdirs.go), run for
// real: what an attacker controls between the judgment and the run is
// the file system — a PATH directory made, a program planted in it — and
// each row makes that change, then runs the command the step names.

const plantedProgram = "#!/bin/sh\necho PLANTED\"RAN\"\n"

func (w *world) plantAt(rel string) {
	w.t.Helper()
	p := w.path(rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	testkit.WriteProgram(w.t, p, []byte(plantedProgram))
}

func (w *world) setPath(path string) {
	for i, kv := range w.runner.Env {
		if strings.HasPrefix(kv, "PATH=") {
			w.runner.Env[i] = "PATH=" + path
		}
	}
}

// A PATH directory in the workspace, missing when the call starts and
// made by a step of it, finds nothing in that call; in a later call a
// command found there is exec and asks (here: is denied).
func TestPathDirectoryMadeDuringACall(t *testing.T) {
	unixPrograms(t, "mkdir and ls with a Unix PATH")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	sys := os.Getenv("PATH")
	w.setPath(w.path("bin") + ":" + sys)
	w.plantAt("stage/bin/sort")
	w.write("a.txt", "b\na\n")
	r := w.run("mkdir bin && cp stage/bin/sort bin/sort && sort a.txt")
	if strings.Contains(r.Text, "PLANTEDRAN") || !strings.Contains(r.Text, "a\nb") {
		t.Fatalf("in the call that made it:\n%s", r.Text)
	}
	w.asker.answers = []gate.Answer{gate.Deny}
	r = w.run("sort a.txt")
	if strings.Contains(r.Text, "PLANTEDRAN") || r.Ending != Refused {
		t.Fatalf("a later call ran the planted sort (%s):\n%s", r.Ending, r.Text)
	}
	if q := w.asker.asked(); len(q) == 0 || !q[len(q)-1].Effects.Has(gate.Exec) {
		t.Fatalf("the later sort was not asked about as exec: %v", q)
	}
}

// The exec handler judges where it finds the program again: with the
// classifier blind (every step judged a read), a program found in the
// workspace's PATH directory is still refused without exec.
func TestPathExecHandlerRefusesAProgramFromTheWorkspace(t *testing.T) {
	unixPrograms(t, "ls with a Unix PATH")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	w.setPath(w.path("bin") + ":" + os.Getenv("PATH"))
	w.plantAt("bin/ls")
	w.runner.blind = func(gate.Effects) gate.Effects { return gate.Of(gate.Read) }
	r := w.run("ls")
	if strings.Contains(r.Text, "PLANTEDRAN") || r.Ending != Refused || !strings.Contains(r.Text, "inside the workspace") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
}

// Relative and empty entries find nothing and never reach a program; an
// entry in the workspace reaches only a program whose step may exec; a
// command found only in a dropped entry says so.
func TestPathRelativeEntriesAndWhatAProgramGets(t *testing.T) {
	unixPrograms(t, "sort and env with a Unix PATH")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	sys := os.Getenv("PATH")
	bin := w.path("bin")
	w.plantAt("sort")
	w.plantAt("sub/sort")
	w.plantAt("bin/tool")
	w.write("a.txt", "b\na\n")
	w.setPath(".:sub::" + bin + ":" + sys + ":")
	for _, s := range []string{"sort a.txt", "cd sub && sort ../a.txt"} {
		if r := w.run(s); strings.Contains(r.Text, "PLANTEDRAN") || !strings.Contains(r.Text, "a\nb") {
			t.Fatalf("%s:\n%s", s, r.Text)
		}
	}
	r := w.run("printenv PATH")
	line := strings.TrimSpace(strings.SplitN(strings.SplitN(r.Text, "\n", 2)[1], "\n[", 2)[0])
	for _, e := range strings.Split(line, ":") {
		if !strings.HasPrefix(e, "/") || e == bin {
			t.Fatalf("a program that may not exec got PATH %q", line)
		}
	}
	w.setPath("sub:/usr/bin:/bin")
	r = w.run("sort a.txt")
	if !strings.Contains(r.Text, "a\nb") {
		t.Fatalf("%s", r.Text)
	}
	w.setPath("sub:" + sys)
	r = w.run("tool")
	if !strings.Contains(r.Text, "tool: command not found") {
		t.Fatalf("want command not found:\n%s", r.Text)
	}
	w.plantAt("sub/tool")
	r = w.run("tool")
	if !strings.Contains(r.Text, "command not found on PATH; PATH entry sub: relative, dropped") || strings.Contains(r.Text, "PLANTEDRAN") {
		t.Fatalf("want the dropped entry named:\n%s", r.Text)
	}
	// with exec, the workspace's entry reaches the program
	w2 := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
	w2.setPath(w2.path("bin") + ":" + sys)
	os.MkdirAll(w2.path("bin"), 0o755)
	os.WriteFile(w2.path("bin/hello"), []byte("#!/bin/sh\necho \"hello $PATH\"\n"), 0o755)
	if r := w2.run("hello"); !strings.Contains(r.Text, "hello "+w2.path("bin")+":") {
		t.Fatalf("under exec: %s", r.Text)
	}
}
