package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
	"pgregory.net/rapid"
)

// G4's laws of a cell, against the real runner and a real IPython kernel
// (gate/laws_runner_test.go holds them for gate.Cell alone). Each case
// runs one cell that leaves a mark on disk, under an auto set with or
// without exec and a drawn answer, and checks the mark and the questions.
// The two auto sets differ only in exec, so the kernel's confinement
// (auto ∪ exec) is the same and one kernel serves every case.

type cellWorld struct {
	w      *world
	python string
	// auto is the drawn auto set, read by the session's Gate.Auto (a
	// cell's narrowing watch reads it from its own goroutine, which may
	// outlive its cell)
	mu   sync.Mutex
	auto gate.AutoSet
}

func newCellWorld(t *testing.T) *cellWorld {
	py := testkit.IPython(t)
	cw := &cellWorld{python: py}
	cw.w = newWorld(t, gate.AutoSet{})
	cw.w.runner.Gate.Auto = func() gate.AutoSet {
		cw.mu.Lock()
		defer cw.mu.Unlock()
		return cw.auto
	}
	return cw
}

var (
	cellWithExec    = gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec))
	cellWithoutExec = gate.AutoOf(gate.Of(gate.Read, gate.Write))
)

// cellCase is one drawn cell: the auto set, the answer, what happened.
type cellCase struct {
	auto    gate.AutoSet
	answer  gate.Answer
	ran     bool
	asked   []gate.Question
	res     CellResult
	code    string
	markRel string
}

func (cw *cellWorld) draw(rt *rapid.T, n int) cellCase {
	c := cellCase{
		auto:   rapid.SampledFrom([]gate.AutoSet{cellWithExec, cellWithoutExec}).Draw(rt, "auto"),
		answer: rapid.SampledFrom([]gate.Answer{gate.Approve, gate.Deny, gate.Unanswered, gate.GatewayRefused}).Draw(rt, "answer"),
	}
	c.markRel = fmt.Sprintf("mark-%d", n)
	body := rapid.SampledFrom([]string{
		"open(%q, 'w').write('x')",
		"import subprocess\nsubprocess.run(['touch', %q])",
		"bash('touch ' + %q)",
	}).Draw(rt, "code")
	c.code = fmt.Sprintf(body, c.markRel)
	cw.mu.Lock()
	cw.auto = c.auto
	cw.mu.Unlock()
	asker := cw.w.asker
	asker.mu.Lock()
	asker.answers, asker.questions = []gate.Answer{c.answer}, nil
	asker.mu.Unlock()
	c.res = cw.w.runner.Cell(context.Background(), CellRequest{Code: c.code, Python: cw.python,
		Calls: cw.bashCall})
	c.asked = asker.asked()
	mark := cw.w.path(c.markRel)
	c.ran = exists(mark)
	_ = os.Remove(mark)
	return c
}

// bashCall serves a cell's bash() with the cell's exec granted, as the
// session does.
func (cw *cellWorld) bashCall(ctx context.Context, fn string, args json.RawMessage) KernelReply {
	var a struct{ Script string }
	if err := json.Unmarshal(args, &a); err != nil || fn != "bash" {
		return KernelReply{Kind: "bad_args", Text: fmt.Sprintf("%s %s", fn, args)}
	}
	r := cw.w.runner.Run(gate.InCell(ctx), Request{Script: a.Script, Grant: gate.CellRunner.Caps, Block: true})
	return KernelReply{OK: !r.Failed, Text: r.Text, Ending: string(r.Ending)}
}

func (c cellCase) fatalf(rt *rapid.T, format string, a ...any) {
	rt.Fatalf("cell %q under %s, answer %s: ran %v, %d questions: %s\n%s", c.code, c.auto, c.answer, c.ran, len(c.asked),
		fmt.Sprintf(format, a...), c.res.Text)
}

func cellLaw(t *testing.T, check func(rt *rapid.T, c cellCase)) {
	cw := newCellWorld(t)
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		check(rt, cw.draw(rt, n))
	})
}

func TestLaw_cell_runs_only_within_or_approved(t *testing.T) {
	cellLaw(t, func(rt *rapid.T, c cellCase) {
		if c.ran && !c.auto.Holds(gate.CellRunner.Caps) && c.answer != gate.Approve {
			c.fatalf(rt, "it ran outside the auto set without a yes")
		}
	})
}

func TestLaw_cell_within_runs_unasked(t *testing.T) {
	cellLaw(t, func(rt *rapid.T, c cellCase) {
		if c.auto.Holds(gate.CellRunner.Caps) && (!c.ran || len(c.asked) != 0) {
			c.fatalf(rt, "a cell within the auto set must run unasked")
		}
	})
}

func TestLaw_cell_approved_runs(t *testing.T) {
	cellLaw(t, func(rt *rapid.T, c cellCase) {
		if c.answer == gate.Approve && !c.ran {
			c.fatalf(rt, "an approved cell did not run")
		}
	})
}

func TestLaw_cell_no_yes_stops(t *testing.T) {
	cellLaw(t, func(rt *rapid.T, c cellCase) {
		if c.auto.Holds(gate.CellRunner.Caps) || c.answer == gate.Approve {
			return
		}
		if c.ran || c.res.Ending != Refused || !strings.HasPrefix(c.res.Text, "ipython did not run (exec): ") {
			c.fatalf(rt, "a cell without a yes must not run, and say so")
		}
	})
}

// cell_exec_asks: code that can run a program (every drawn cell can: open,
// subprocess, bash()) is never within an auto set without exec.
func TestLaw_cell_exec_asks(t *testing.T) {
	cellLaw(t, func(rt *rapid.T, c cellCase) {
		if c.auto.Effects().Has(gate.Exec) {
			return
		}
		if len(c.asked) != 1 || c.asked[0].Effects != gate.Of(gate.Exec) || c.asked[0].What != gate.VisibleText(c.code) ||
			!strings.HasSuffix(c.asked[0].ID, ":cell") || c.asked[0].Step != 0 || !c.asked[0].Cell {
			c.fatalf(rt, "the cell must ask once, with effects exec and the code as it runs: %+v", c.asked)
		}
	})
}

// ipython_gated_each_call: every call is judged anew; an answer to one
// cell is not an answer to the next.
func TestLaw_ipython_gated_each_call(t *testing.T) {
	cw := newCellWorld(t)
	rapid.Check(t, func(rt *rapid.T) {
		k := rapid.IntRange(1, 4).Draw(rt, "cells")
		for i := 0; i < k; i++ {
			c := cw.draw(rt, i)
			want := 0
			if !c.auto.Holds(gate.CellRunner.Caps) {
				want = 1
			}
			if len(c.asked) != want {
				c.fatalf(rt, "cell %d of %d asked %d times, want %d", i+1, k, len(c.asked), want)
			}
		}
	})
}

// The kernel is confined like a bash step with exec: a secret the policy
// names is out of the kernel's reach when a sandbox works here.
func TestKernelIsConfined(t *testing.T) {
	if Detect().Mechanism == Unconfined {
		testkit.Missing(t, "no sandbox works here (bubblewrap or Landlock): "+Detect().Why)
	}
	cw := newCellWorld(t)
	cw.auto = gate.DefaultAuto()
	key := filepath.Join(cw.w.secret, "id_rsa")
	if err := os.WriteFile(key, []byte("KEY\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := cw.w.runner.Cell(context.Background(), CellRequest{Python: cw.python,
		Code: fmt.Sprintf("try:\n    print(open(%q).read())\nexcept OSError as e:\n    print('refused', type(e).__name__)", key)})
	if strings.Contains(res.Text, "KEY") || !strings.Contains(res.Text, "refused") {
		t.Fatalf("the kernel read a secret:\n%s", res.Text)
	}
}
