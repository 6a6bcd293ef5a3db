//go:build open_attacks && linux

package agent

// The twelfth red team's attacks on the ipython tool that got through (or
// are expected to): each asserts the safe outcome.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Attack (the freeze, a process escaping the tree and the session), under
// Landlock (the mechanism without bubblewrap: no PID namespace): a child
// that calls setsid() and forks again is neither the kernel's descendant
// (its parent is gone: it is init's or a subreaper's) nor in the kernel's
// session, so kernelProcesses never lists it; it runs between cells.
func TestRedTeam12_DaemonEscapesFreezeUnderLandlock(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "landlock")
	w := rtSession(t, nil, nil, nil, nil)
	if n, text := r12runsBetweenCells(t, w, true, true); n > 1 {
		t.Logf("ESCAPED: under Landlock a setsid()+double-fork daemon of the cell wrote %d lines in 1.5 s while no cell ran", n)
		t.Fatalf("%s", text)
	}
}

// The same daemon plants a program between cells: protected out of the
// auto set and a relative PATH entry (bin), it makes bin/git after its
// cell ended and the live watch of protected entries stopped (it runs
// only during a cell now); the next cell's watch takes bin/git as it
// finds it. Class: a process the freeze misses plants a program.
func TestRedTeam12_DaemonPlantsRelativePathProgramBetweenCellsUnderLandlock(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "landlock")
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, map[string]string{"PATH": "bin:" + os.Getenv("PATH")},
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net)), nil)
	r := cell(t, w.s, map[string]any{"code": `import os, time
pid = os.fork()
if pid == 0:
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        fd = os.open('/dev/null', os.O_RDWR)
        for i in (0, 1, 2):
            os.dup2(fd, i)
        time.sleep(1.5)
        os.makedirs('bin', exist_ok=True)
        with open('bin/git', 'w') as f:
            f.write('#!/bin/sh\necho PLANTED\n')
        os.chmod('bin/git', 0o755)
    finally:
        os._exit(0)
os.waitpid(pid, 0)
'started'`})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(2500 * time.Millisecond)
	r2 := cell(t, w.s, map[string]any{"code": "1"})
	if rtExists(filepath.Join(w.dir, "bin", "git")) {
		t.Logf("ESCAPED: a daemon of an ended cell made bin/git (a relative PATH directory, named like a command; protected not in the auto set) between cells, and the next cell left it:\n%s\n%s", r.Text(), r2.Text())
		t.Fatal("planted between cells")
	}
}

// Attack (killKernel), under Landlock: the session ends (the kernel is
// killed with its tree and session), and the daemon goes on writing.
// Class: a process escaping the tree outlives the kill.
func TestRedTeam12_DaemonOutlivesKernelKillUnderLandlock(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "landlock")
	w := rtSession(t, nil, nil, nil, nil)
	ticks := filepath.Join(w.dir, "ticks")
	r := cell(t, w.s, map[string]any{"code": r12daemonCode(ticks, time.Now().Add(6*time.Second).Unix(), true, true)})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	cell(t, w.s, map[string]any{"code": "1", "restart": true})
	w.s.Close()
	time.Sleep(300 * time.Millisecond)
	n1 := r12ticks(ticks)
	time.Sleep(1500 * time.Millisecond)
	if n := r12ticks(ticks) - n1; n > 1 {
		t.Logf("ESCAPED: under Landlock a setsid()+double-fork daemon wrote %d lines in 1.5 s after a restart and the session's end killed its kernel", n)
		t.Fatal("outlived the kill")
	}
}

// Attack (the freeze, a process started while it walks): a chain of
// short-lived processes, each of which writes a line, starts the next and
// exits. Under bubblewrap the PID namespace keeps each below the kernel,
// but the freeze lists /proc, then stops what it listed: a link that
// exits in between is not found stopped (ESRCH), and when a round
// stops nothing new the freeze ends while the next link runs. Class: a
// process started while the freeze walks.
func TestRedTeam12_ForkExitChainOutrunsFreeze(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	ticks := filepath.Join(w.dir, "ticks")
	chain := filepath.Join(w.dir, "chain.sh")
	deadline := time.Now().Add(7 * time.Second).Unix()
	script := fmt.Sprintf("[ \"$(date +%%s)\" -lt %d ] || exit 0\necho t >> %s\nsh %s </dev/null >/dev/null 2>&1 &\n", deadline, ticks, chain)
	if err := os.WriteFile(chain, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import subprocess, time
subprocess.Popen(['sh', %s], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.3)
'started'`, pyQuote(chain))})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(300 * time.Millisecond)
	n1 := r12ticks(ticks)
	time.Sleep(1500 * time.Millisecond)
	n := r12ticks(ticks) - n1
	cell(t, w.s, map[string]any{"code": "1", "restart": true})
	if n > 1 {
		t.Logf("ESCAPED: a fork-and-exit chain the cell started wrote %d lines in 1.5 s while no cell ran (the freeze ended while a link it had not listed ran)", n)
		t.Fatalf("%s", r.Text())
	}
}

// Attack (the question, blanks outside gate.blank's list), end to end:
// Python takes U+16FE4 (KHITAN SMALL SCRIPT FILLER, a nonspacing mark
// drawn as nothing) in a name, so `cmd` and `cmd`+U+16FE4 are two
// variables the question shows alike: the user reads os.system(cmd) with
// cmd = 'echo safe' and approves `touch pwned`. Class: a forged question.
func TestRedTeam12_CellQuestionShowsKhitanFillerRaw(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	w := rtSession(t, nil, nil, withAuto(autoOf(gate.Read, gate.Write)), func(_ context.Context, q gate.Question) gate.Answer {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, q.What)
		return gate.Approve
	})
	ch := "\U00016fe4"
	code := "import os\ncmd = 'echo safe'\ncmd" + ch + " = 'touch pwned'\nos.system(cmd" + ch + ")\n"
	cell(t, w.s, map[string]any{"code": code})
	mu.Lock()
	defer mu.Unlock()
	if len(asked) == 0 {
		t.Fatal("no question")
	}
	if strings.Contains(asked[len(asked)-1], ch) {
		ran := rtExists(filepath.Join(w.dir, "pwned"))
		t.Logf("ESCAPED: the question shows U+16FE4 raw (it prints as nothing); approved, `touch pwned` ran: %v; the user saw %q", ran, asked[len(asked)-1])
		t.Fatal("U+16FE4 not escaped")
	}
}

// Attack (settings file, its directory swapped), from a cell under the
// default settings: the file is secret and hidden, but its directory is
// only protected (in the default auto set). The cell renames
// ~/.config/eukhe away and renames a workspace directory holding its own
// settings.json (confinement off) into its place; the watch reads it and
// the next cell's kernel is unconfined and reads ~/.ssh/id_rsa.
// Class: writing eukhe's settings by another route.
func TestRedTeam12_CellSwapsSettingsDirectory(t *testing.T) {
	s, home, _, paths, watch := r12watched(t)
	py := watch.Current().IPythonPython
	evil := `{"shell.confinement": "off", "ipython.python": ` + pyQuote(py) + `}`
	r := cell(t, s, map[string]any{"code": fmt.Sprintf(`import os
D = %s
os.makedirs('cfg', exist_ok=True)
open('cfg/settings.json', 'w').write(%s)
try:
    os.rename(D, D + '.old')
    os.rename(os.path.abspath('cfg'), D)
    print('swapped')
except Exception as e:
    print('refused', type(e).__name__, e)
`, pyQuote(paths.UserDir), pyQuote(evil))})
	time.Sleep(2 * time.Second) // the settings watch
	r2 := cell(t, s, map[string]any{"code": r12readKey(home)})
	if strings.Contains(r2.Text(), secretMark) || watch.Current().Confinement == "off" {
		t.Logf("ESCAPED: a cell swapped ~/.config/eukhe for its own directory; confinement now %q", watch.Current().Confinement)
		t.Fatalf("cell 1:\n%s\ncell 2:\n%s", r.Text(), r2.Text())
	}
	t.Logf("held:\n%s\n%s", r.Text(), r2.Text())
}
