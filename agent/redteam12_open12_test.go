//go:build open_attacks && linux

package agent

// The twelfth red team's attacks on the ipython tool that got through (or
// are expected to): each asserts the safe outcome.

import (
	"context"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

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

// Attack (the freeze, a process escaping the tree and the session), under
// "shell.confinement": "off" (a user setting): no sandbox, so no PID
// namespace and no re-run adopting orphans. A child of the cell that calls
// setsid() and forks again is init's, in a session of its own:
// kernelProcesses never lists it, and it runs between cells and after the
// kernel is killed. What "off" gives up is the sandbox; the freeze's
// promise (nothing of a kernel runs between cells) is not kept either.
// Class: a process escaping the tree.
func TestRedTeam12_DaemonEscapesFreezeWithConfinementOff(t *testing.T) {
	w := rtSession(t, nil, nil, func(s *settings.Settings) { s.Confinement = "off" }, nil)
	if n, text := r12runsBetweenCells(t, w, true, true); n > 1 {
		t.Logf("ESCAPED: with confinement off a setsid()+double-fork daemon of the cell wrote %d lines in 1.5 s while no cell ran", n)
		t.Fatalf("%s", text)
	}
}
