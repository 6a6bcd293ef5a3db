package gate

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// G2 and S7.8: a step's effects, the auto set, and the gate over a script.

func genPart(t *rapid.T) Part {
	return Part{Own: genEffects(t, "own"), NamesSecret: rapid.Bool().Draw(t, "secret")}
}

func genParts(t *rapid.T) []Part { return rapid.SliceOfN(rapid.Custom(genPart), 0, 6).Draw(t, "parts") }

func TestLaw_step_holds_every_part(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := genParts(t)
		step := JoinParts(parts)
		for _, p := range parts {
			if !p.Effects().SubsetOf(step) {
				t.Fatalf("step %s lacks part %s", step, p.Effects())
			}
		}
	})
	// And so does every step the classifier makes.
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		sc, err := w.shell(w.root).Classify(genScript(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sc.Steps {
			if st.Effects != JoinParts(st.Parts) {
				t.Fatalf("step %q: effects %s, parts join to %s", st.Text, st.Effects, JoinParts(st.Parts))
			}
		}
	})
}

func TestLaw_secret_needs_a_secret_path(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := genParts(t)
		named := false
		for _, p := range parts {
			named = named || p.NamesSecret
		}
		if JoinParts(parts).Has(Secret) && !named {
			t.Fatalf("secret with no part naming a secret path: %+v", parts)
		}
	})
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		script := genScript(t)
		sc, err := w.shell(w.root).Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sc.Steps {
			if st.Effects.Has(Secret) && !namesASecret(st.Text, w) {
				t.Fatalf("step %q of %q has secret but names no secret path", st.Text, script)
			}
		}
	})
}

func TestLaw_secret_path_gives_secret(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := genParts(t)
		for _, p := range parts {
			if p.NamesSecret && !JoinParts(parts).Has(Secret) {
				t.Fatalf("a part names a secret, the step has no secret: %+v", parts)
			}
		}
	})
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		script := genScript(t)
		sc, err := w.shell(w.root).Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sc.Steps {
			if namesASecret(st.Text, w) && !st.Effects.Has(Secret) {
				t.Fatalf("step %q of %q names a secret path but has no secret", st.Text, script)
			}
		}
	})
}

func TestLaw_auto_needs_every_effect(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects")
		for _, e := range effs.List() {
			if (!auto.Effects().Has(e) || e == Secret) && auto.Holds(effs) {
				t.Fatalf("%s runs unasked under %s though %s is not in it", effs, auto, e)
			}
		}
	})
}

func TestLaw_auto_never_sensitive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects").With(Secret)
		if auto.Holds(effs) || !auto.Asks(effs) {
			t.Fatalf("%s runs unasked under %s", effs, auto)
		}
		// No name list makes an auto set that holds secret.
		names := rapid.SliceOf(rapid.SampledFrom(append(effectNames[:], "all", ""))).Draw(t, "names")
		if a, err := ParseAutoSet(names); err == nil && a.Effects().Has(Secret) {
			t.Fatalf("%v made an auto set with secret", names)
		}
	})
}

func TestLaw_composed_needs_every_part(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, parts := genAuto(t), genParts(t)
		if !auto.Holds(JoinParts(parts)) {
			return
		}
		for _, p := range parts {
			if !auto.Holds(p.Effects()) {
				t.Fatalf("step runs unasked under %s with part %s outside it", auto, p.Effects())
			}
		}
	})
}

// genSteps draws the steps of a script: effects and pipelines.
func genSteps(t *rapid.T) []Step {
	n := rapid.IntRange(0, 8).Draw(t, "steps")
	steps := make([]Step, n)
	group := 0
	for i := range steps {
		if i > 0 && !rapid.Bool().Draw(t, "piped") {
			group++
		}
		steps[i] = Step{Effects: genEffects(t, "effects"), Pipeline: group}
	}
	return steps
}

// gateRun runs GateSteps with answers drawn for each question, recording
// the questions.
func gateRun(t *rapid.T, steps []Step, auto AutoSet) (Ending, []int, []Answer) {
	var asked []int
	var answers []Answer
	end := GateSteps(steps, auto, func(i int, st Step) Answer {
		a := genAnswer(t, "answer")
		asked = append(asked, i)
		answers = append(answers, a)
		return a
	})
	return end, asked, answers
}

func TestLaw_auto_runs_within(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps, auto := genSteps(t), genAuto(t)
		end, asked, _ := gateRun(t, steps, auto)
		for _, i := range asked {
			if auto.Holds(steps[i].Effects) {
				t.Fatalf("step %d within %s was asked about", i, auto)
			}
		}
		all := true
		for _, st := range steps {
			all = all && auto.Holds(st.Effects)
		}
		if all && (!end.Finished || end.Asked != 0) {
			t.Fatalf("steps all within %s did not all run unasked: %+v", auto, end)
		}
	})
}

func TestLaw_held_needs_a_yes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps, auto := genSteps(t), genAuto(t)
		end, asked, answers := gateRun(t, steps, auto)
		for k, i := range asked {
			if answers[k] != Approve && (end.Finished || end.RefusedAt != i) {
				t.Fatalf("step %d answered %s, but the script went on: %+v", i, answers[k], end)
			}
		}
		for i := 0; i < end.Ran; i++ {
			if auto.Holds(steps[i].Effects) {
				continue
			}
			yes := false
			for k, j := range asked {
				yes = yes || (j == i && answers[k] == Approve)
			}
			if !yes {
				t.Fatalf("step %d outside %s ran without a yes", i, auto)
			}
		}
	})
}

func TestLaw_gate_prefix(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps, auto := genSteps(t), genAuto(t)
		end, asked, _ := gateRun(t, steps, auto)
		if end.Ran < 0 || end.Ran > len(steps) {
			t.Fatalf("ran %d of %d steps", end.Ran, len(steps))
		}
		if end.Ran > 0 && end.Ran < len(steps) && steps[end.Ran].Pipeline == steps[end.Ran-1].Pipeline {
			t.Fatalf("ran part of a pipeline: %d steps of %+v", end.Ran, steps)
		}
		for k := 1; k < len(asked); k++ {
			if asked[k] <= asked[k-1] {
				t.Fatalf("asked out of order: %v", asked)
			}
		}
	})
}

func TestLaw_gate_needs_yes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps, auto := genSteps(t), genAuto(t)
		end, _, answers := gateRun(t, steps, auto)
		gated, yes := 0, 0
		for i := 0; i < end.Ran; i++ {
			if !auto.Holds(steps[i].Effects) {
				gated++
			}
		}
		for _, a := range answers {
			if a == Approve {
				yes++
			}
		}
		if gated > yes {
			t.Fatalf("%d gated steps ran on %d approvals", gated, yes)
		}
	})
}

func TestLaw_gate_deny_stops(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps, auto := genSteps(t), genAuto(t)
		end, asked, answers := gateRun(t, steps, auto)
		if end.Finished {
			return
		}
		r := end.RefusedAt
		if end.Answer == Approve || len(asked) == 0 || asked[len(asked)-1] != r || answers[len(answers)-1] != end.Answer {
			t.Fatalf("refused at %d with %s after %v %v", r, end.Answer, asked, answers)
		}
		start := r
		for start > 0 && steps[start-1].Pipeline == steps[r].Pipeline {
			start--
		}
		if end.Ran != start {
			t.Fatalf("refused at %d (pipeline from %d), yet %d steps ran", r, start, end.Ran)
		}
	})
}

func TestLaw_gate_finish_runs_all(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		steps, auto := genSteps(t), genAuto(t)
		end, _, _ := gateRun(t, steps, auto)
		if end.Finished != (end.Ran == len(steps)) {
			t.Fatalf("finished=%v with %d of %d run", end.Finished, end.Ran, len(steps))
		}
	})
}

// Scripts for the classifier laws: table commands and commands not in it,
// secret and plain paths, redirections, joined every way the grammar
// allows.
var (
	scriptCommands = []string{"cat", "ls", "echo", "rm -f", "git log", "sed -n p", "grep -r x",
		"touch", "cp", "curl -o out", "bash -c true", "sort", "head", "python3", "find", "wc", "tee",
		"git -C src ls-files", "rg x", "du", "mv"}
	plainPaths  = []string{"a.txt", "src", "src/main.go", "/tmp/x", "../proj_extra/y", "-n", "'a b'", "notes"}
	secretPaths = []string{"~/.ssh/id_ed25519", "~/.netrc", "keys/id_ed25519", "~", "$HOME/.aws/config", "keys"}
	joiners     = []string{"; ", " && ", " || ", " | ", "\n"}
)

func genScript(t *rapid.T) string {
	n := rapid.IntRange(1, 4).Draw(t, "steps")
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(rapid.SampledFrom(joiners).Draw(t, "join"))
		}
		b.WriteString(rapid.SampledFrom(scriptCommands).Draw(t, "command"))
		words := rapid.IntRange(0, 3).Draw(t, "words")
		for j := 0; j < words; j++ {
			pool := plainPaths
			if rapid.IntRange(0, 3).Draw(t, "secret?") == 0 {
				pool = secretPaths
			}
			b.WriteString(" " + rapid.SampledFrom(pool).Draw(t, "word"))
		}
		switch rapid.IntRange(0, 5).Draw(t, "redirect") {
		case 0:
			b.WriteString(" > " + rapid.SampledFrom(append(plainPaths[:5:5], secretPaths...)).Draw(t, "to"))
		case 1:
			b.WriteString(" < " + rapid.SampledFrom(append(plainPaths[:5:5], secretPaths...)).Draw(t, "from"))
		}
	}
	return b.String()
}

// namesASecret reports whether a shown step names one of the secret words,
// as written or expanded.
func namesASecret(text string, w *world) bool {
	for _, f := range strings.Fields(text) {
		switch {
		case f == w.home, f == "keys",
			strings.HasPrefix(f, w.home+"/.ssh"), strings.HasPrefix(f, w.home+"/.netrc"),
			strings.HasPrefix(f, w.home+"/.aws"), strings.HasPrefix(f, "keys/"):
			return true
		}
	}
	return false
}
