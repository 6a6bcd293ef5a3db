//go:build open_attacks && linux

package agent

// The thirteenth red team's attacks that got through (build tag
// open_attacks): each test asserts the safe outcome and fails today.

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

// Attack (target 4, shell.confinement "off", auto set {read, write,
// exec}; severity high): `trap 'PROGRAM' ERR` (or EXIT, with an exit)
// stores a program in a builtin's argument; the trap step is a builtin,
// so WidenUnconfined leaves it {exec}, which the auto set holds, and
// nothing is asked. When a later builtin fails (false, a cd to nowhere,
// set -e) the trap's program runs unconfined and plants .git/hooks/
// pre-commit (a protected write the user never approved).
// Root cause (guess): startsProgram lists exec, command, eval, source, .
// and builtin as builtins that start programs, but not trap, whose
// argument is a script; and the runtime check (run.call → x.judge) never
// applies gate.Unconfined to what it judges, so the trap's perl, outside
// every step (inStep false), is judged {exec} against the pipeline's
// {exec} and runs with no sandbox. Either fix alone closes it: count
// trap (every shellState builtin with a script) as starting a program,
// or widen the runtime judgement when the runner is unconfined.
func TestRedteam13Open_TrapRunsAnUnconfinedProgramUnasked(t *testing.T) {
	p := `perl -e "open F, q(>), q(.g).q(it/hooks/pre-commit); print F q(planted)"`
	scripts := []string{
		"trap '" + p + "' ERR; false",
		"trap '" + p + "' ERR; cd /nonexistent-r13",
		"set -e; trap '" + p + "' ERR; false",
		"x=1 trap '" + p + "' ERR; false",
		"v=ERR; trap '" + p + "' $v; false",
		"t=trap; $t '" + p + "' ERR; false",
		"trap '" + p + "' EXIT; exit 0",
	}
	for _, sc := range scripts {
		w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "off")
		r := w.bash(t, sc)
		if w.hook() {
			t.Errorf("ESCAPED: %q planted .git/hooks/pre-commit, asked %d:\n%s", sc, len(w.asked()), r.Text())
		}
		os.Remove(filepath.Join(w.dir, ".git", "hooks", "pre-commit"))
	}
}

// Attack (target 3; severity medium): under shell.confinement "off" a
// step's program double-forks out of its session (setsid, then a second
// fork) and keeps a grandchild running. The user turns confinement back
// on ("auto") while the step runs: eukhe stops the step and says "the
// script and every process it started were stopped", but the grandchild
// goes on writing in the workspace, unconfined, with every effect, after
// the narrowing (bubblewrap's pid namespace kills such a grandchild; with
// no sandbox nothing does).
// Root cause (guess): a narrowing kills the process groups the runner
// recorded (killGroups/pruneGroups in exec_unix.go): one per started
// program, its own session; a process that calls setsid leaves that
// group, and nothing else (a cgroup, a subreaper, a walk of /proc for
// the step's descendants as the ipython freeze does) finds it.
func TestRedteam13Open_UnconfinedDaemonSurvivesNarrowing(t *testing.T) {
	all := gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)
	w := r13session(t, all, "off")
	t.Cleanup(func() { time.Sleep(2 * time.Second) }) // the daemon ends 3 s in; then the workspace goes
	r, n1, n2 := r13narrowDuring(t, w, r13daemon, func(s *settings.Settings) { s.Confinement = "auto" })
	if n2 > n1 {
		t.Errorf("ESCAPED: the daemon kept running unconfined after confinement was turned on (ticks %d then %d):\n%s", n1, n2, r.Text())
	}
}
