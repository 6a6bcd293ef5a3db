package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"pgregory.net/rapid"
)

// A generated script is a list of units joined by ;, newline or &&; each
// unit is one step or a two-stage pipeline. Every step leaves evidence
// when it runs (a file, or a line of output no other text holds), so the
// laws are checked against what happened, not against what the runner
// says.
type unit struct {
	text  string
	steps int
	// ran reports, after the script, whether the unit's steps ran.
	ran func(w *world, out string) bool
}

func genUnit(w *world, n int) *rapid.Generator[unit] {
	return rapid.Custom(func(t *rapid.T) unit {
		tok := fmt.Sprintf("t%d", n)
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0: // read
			return unit{text: fmt.Sprintf("printf '%%s-ran\\n' %s", tok), steps: 1,
				ran: func(_ *world, out string) bool { return strings.Contains(out, tok+"-ran") }}
		case 1: // write
			return unit{text: "touch f" + tok, steps: 1,
				ran: func(w *world, _ string) bool { return exists(w.path("f" + tok)) }}
		case 2: // write
			return unit{text: "mkdir d" + tok, steps: 1,
				ran: func(w *world, _ string) bool { return exists(w.path("d" + tok)) }}
		case 3: // write, outside
			o := filepath.Join(w.outside, "o"+tok)
			return unit{text: "touch " + o, steps: 1,
				ran: func(*world, string) bool { return exists(o) }}
		case 4: // read, secret: always asks
			k := filepath.Join(w.secret, "k"+tok)
			if err := os.WriteFile(k, []byte(tok+"-key\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return unit{text: "cat " + k, steps: 1,
				ran: func(_ *world, out string) bool { return strings.Contains(out, tok+"-key") }}
		default: // a pipeline: read | write
			return unit{text: fmt.Sprintf("printf '%%s-ran\\n' %s | tee p%s", tok, tok), steps: 2,
				ran: func(w *world, _ string) bool {
					b, err := os.ReadFile(w.path("p" + tok))
					return err == nil && string(b) == tok+"-ran\n"
				}}
		}
	})
}

var allAnswers = []gate.Answer{gate.Approve, gate.Deny, gate.Unanswered, gate.GatewayRefused}

// lawCase runs one generated script and returns what the laws look at.
type lawCase struct {
	w       *world
	units   []unit
	res     Result
	ran     []bool // per step, from the evidence
	starts  []int  // first step of each unit
	steps   int
	script  string
	answers map[int]gate.Answer // step number → the answer its question got
}

func drawCase(t *testing.T, rt *rapid.T) lawCase {
	var auto gate.Effects
	for _, e := range []gate.Effect{gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected} {
		if rapid.Bool().Draw(rt, "auto "+e.String()) {
			auto = auto.With(e)
		}
	}
	w := newWorld(t, gate.AutoOf(auto))
	n := rapid.IntRange(1, 5).Draw(rt, "units")
	c := lawCase{w: w}
	var b strings.Builder
	for i := 0; i < n; i++ {
		u := genUnit(w, i).Draw(rt, "unit")
		if i > 0 {
			b.WriteString(rapid.SampledFrom([]string{"; ", "\n", " && "}).Draw(rt, "join"))
		}
		b.WriteString(u.text)
		c.starts = append(c.starts, c.steps)
		c.steps += u.steps
		c.units = append(c.units, u)
	}
	c.script = b.String()
	w.asker.answers = rapid.SliceOfN(rapid.SampledFrom(allAnswers), c.steps, c.steps).Draw(rt, "answers")
	c.res = w.run(c.script)
	out := c.res.Text
	for _, u := range c.units {
		r := u.ran(w, out)
		for k := 0; k < u.steps; k++ {
			c.ran = append(c.ran, r)
		}
	}
	c.answers = map[int]gate.Answer{}
	for i, q := range w.asker.asked() {
		c.answers[q.Step] = w.asker.given[i]
	}
	return c
}

func (c lawCase) fatalf(rt *rapid.T, format string, a ...any) {
	rt.Fatalf("%s\nscript:\n%s\nresult:\n%s", fmt.Sprintf(format, a...), c.script, c.res.Text)
}

// prefix is k when the steps that ran are exactly 0 … k-1, else -1.
func (c lawCase) prefix() int {
	k := 0
	for k < len(c.ran) && c.ran[k] {
		k++
	}
	for _, r := range c.ran[k:] {
		if r {
			return -1
		}
	}
	return k
}

// pipelineStart is the index of the first step of the pipeline that
// holds step i (from 0).
func (c lawCase) pipelineStart(i int) int {
	start := 0
	for _, s := range c.starts {
		if s <= i {
			start = s
		}
	}
	return start
}

// TestLaw_gate_prefix: the steps that ran are the first steps of the
// script, in order, and the result lists exactly them.
func TestLaw_gate_prefix(t *testing.T) {
	unixPrograms(t, "the generated steps' touch, mkdir, cat and tee")
	rapid.Check(t, func(rt *rapid.T) {
		c := drawCase(t, rt)
		k := c.prefix()
		if k < 0 {
			c.fatalf(rt, "the steps that ran %v are not a prefix", c.ran)
		}
		if len(c.res.Steps) != k {
			c.fatalf(rt, "the result lists %d steps, %d ran", len(c.res.Steps), k)
		}
		for i, s := range c.res.Steps {
			if s.N != i+1 {
				c.fatalf(rt, "the result lists step %d in place %d", s.N, i+1)
			}
		}
	})
}

// classify is the gate's judgement of the script, as the runner makes it:
// its steps, in order, with their effects.
func (c lawCase) classify(rt *rapid.T) []gate.Step {
	judge := &gate.Shell{Policy: c.w.runner.Gate.Policy, Dir: c.w.root,
		Env: gate.EnvFromList(scriptEnv(c.w.runner.Env, nil)), ReadDir: os.ReadDir}
	sc, err := judge.Classify(c.script)
	if err != nil {
		rt.Fatal(err)
	}
	if len(sc.Steps) != c.steps {
		c.fatalf(rt, "the gate sees %d steps, the script has %d", len(sc.Steps), c.steps)
	}
	return sc.Steps
}

// TestLaw_gate_needs_yes: a step the auto set does not hold runs only
// after its question was approved, so the gated steps that ran are at
// most the approvals given.
func TestLaw_gate_needs_yes(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := drawCase(t, rt)
		steps := c.classify(rt)
		auto := c.w.runner.Gate.Auto()
		gatedRan, approvals := 0, 0
		for _, a := range c.answers {
			if a == gate.Approve {
				approvals++
			}
		}
		for i, st := range steps {
			if !c.ran[i] || auto.Holds(st.Effects) {
				continue
			}
			gatedRan++
			if a, asked := c.answers[i+1]; !asked || a != gate.Approve {
				c.fatalf(rt, "step %d (%s, %s) ran without an approval", i+1, st.Text, st.Effects)
			}
		}
		if gatedRan > approvals {
			c.fatalf(rt, "%d gated steps ran on %d approvals", gatedRan, approvals)
		}
	})
}

// TestLaw_auto_runs_within: a step the auto set holds is never asked
// about, and runs when the script reaches it; a script whose steps it all
// holds runs every step and asks nothing.
func TestLaw_auto_runs_within(t *testing.T) {
	unixPrograms(t, "the generated steps' touch, mkdir, cat and tee")
	rapid.Check(t, func(rt *rapid.T) {
		c := drawCase(t, rt)
		steps := c.classify(rt)
		auto := c.w.runner.Gate.Auto()
		all := true
		for i, st := range steps {
			within := auto.Holds(st.Effects)
			all = all && within
			if _, asked := c.answers[i+1]; within && asked {
				c.fatalf(rt, "step %d (%s) is within %s, yet it was asked about", i+1, st.Effects, auto)
			}
		}
		stop := len(steps) // the first step of the refused pipeline
		if c.res.Ending == Refused {
			stop = c.pipelineStart(c.res.RefusedAt - 1)
		}
		for i, st := range steps[:stop] {
			if auto.Holds(st.Effects) && !c.ran[i] {
				c.fatalf(rt, "step %d (%s) is within %s and was reached, yet did not run", i+1, st.Effects, auto)
			}
		}
		if all && (c.res.Ending != Finished || len(c.answers) != 0) {
			c.fatalf(rt, "every step is within %s, yet the script ended %s after %d questions",
				auto, c.res.Ending, len(c.answers))
		}
	})
}

// TestLaw_held_needs_a_yes: a step the auto set does not hold runs only
// on a yes; any other answer stops the script at that step: it, the rest
// of its pipeline and every later step do not run.
func TestLaw_held_needs_a_yes(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := drawCase(t, rt)
		steps := c.classify(rt)
		auto := c.w.runner.Gate.Auto()
		for i, st := range steps {
			if auto.Holds(st.Effects) {
				continue
			}
			a, asked := c.answers[i+1]
			if c.ran[i] && (!asked || a != gate.Approve) {
				c.fatalf(rt, "step %d (%s) outside %s ran on %v (asked %v)", i+1, st.Effects, auto, a, asked)
			}
			if !asked || a == gate.Approve {
				continue
			}
			if c.res.Ending != Refused || c.res.RefusedAt != i+1 {
				c.fatalf(rt, "step %d was answered %v, yet the script ended %s at %d",
					i+1, a, c.res.Ending, c.res.RefusedAt)
			}
			for j := c.pipelineStart(i); j < len(c.ran); j++ {
				if c.ran[j] {
					c.fatalf(rt, "step %d was answered %v, yet step %d ran", i+1, a, j+1)
				}
			}
		}
	})
}

// TestLaw_gate_deny_stops: on a refusal, the steps before the refused
// step's pipeline ran, and it, the rest of its pipeline and every later
// step did not.
func TestLaw_gate_deny_stops(t *testing.T) {
	unixPrograms(t, "the generated steps' touch, mkdir, cat and tee")
	rapid.Check(t, func(rt *rapid.T) {
		c := drawCase(t, rt)
		if c.res.Ending != Refused {
			return
		}
		m := c.res.RefusedAt
		a, asked := c.answers[m]
		if !asked || a == gate.Approve {
			c.fatalf(rt, "step %d was refused, but its question got %v (asked %v)", m, a, asked)
		}
		if c.res.Reason != ReasonOf(a) {
			c.fatalf(rt, "refused as %q, answered %v", c.res.Reason, a)
		}
		start := c.pipelineStart(m - 1)
		for i, r := range c.ran {
			if r != (i < start) {
				c.fatalf(rt, "refused at step %d (pipeline from step %d): step %d ran=%v", m, start+1, i+1, r)
			}
		}
		if !strings.Contains(c.res.Text, "did not run") {
			c.fatalf(rt, "no refusal text")
		}
	})
}

// TestLaw_gate_finish_runs_all: a finished script ran every step.
func TestLaw_gate_finish_runs_all(t *testing.T) {
	unixPrograms(t, "the generated steps' touch, mkdir, cat and tee")
	rapid.Check(t, func(rt *rapid.T) {
		c := drawCase(t, rt)
		if c.res.Ending != Finished {
			if c.res.Ending != Refused {
				c.fatalf(rt, "ended %s", c.res.Ending)
			}
			return
		}
		for i, r := range c.ran {
			if !r {
				c.fatalf(rt, "finished, but step %d did not run", i+1)
			}
		}
	})
}
