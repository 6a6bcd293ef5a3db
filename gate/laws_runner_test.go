package gate

import (
	"testing"

	"pgregory.net/rapid"
)

// G4: every runner of code goes through the gate.

func TestLaw_gate_covers_every_runner(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r := DefaultRegistry()
		n := rapid.IntRange(0, 6).Draw(t, "tools")
		for i := 0; i < n; i++ {
			var run *Runner
			if rapid.Bool().Draw(t, "runs code") {
				run = &Runner{Caps: genEffects(t, "caps"),
					Gate: GateKind(rapid.IntRange(0, 3).Draw(t, "gate"))}
			}
			_ = r.Register(rapid.SampledFrom([]string{"ipython", "x", "y", "bash", "z"}).Draw(t, "name"), run)
		}
		for _, tool := range r.Tools() {
			if tool.Runner != nil && tool.Runner.Caps.Has(Exec) && !r.Gated(tool.Name) {
				t.Fatalf("tool %s can run programs and is not gated: %+v", tool.Name, tool.Runner)
			}
			if tool.Runner != nil && tool.Runner.Gate != EachStep && tool.Runner.Gate != EachCall {
				t.Fatalf("tool %s was registered ungated", tool.Name)
			}
		}
	})
}

func TestLaw_ipython_gated_each_call(t *testing.T) {
	if CellRunner.Caps != Of(Exec) || CellRunner.Gate != EachCall {
		t.Fatalf("a cell runner is %+v, want caps exec, gate each call", CellRunner)
	}
	r := DefaultRegistry()
	var found bool
	for _, tool := range r.Tools() {
		if tool.Name == "ipython" {
			found = tool.Runner != nil && *tool.Runner == CellRunner
		}
	}
	if !found || !r.Gated("ipython") {
		t.Fatalf("ipython is not in the default registry with the cell runner, gated: %+v", r.Tools())
	}
	if !r.Gated("bash") {
		t.Fatal("bash is not gated")
	}
}

func TestLaw_cell_runs_only_within_or_approved(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		caps, auto, a := genEffects(t, "caps"), genAuto(t), genAnswer(t, "answer")
		if end := Cell(caps, auto, a); end.Runs && !auto.Holds(caps) && a != Approve {
			t.Fatalf("cell %s ran under %s on %s", caps, auto, a)
		}
	})
}

func TestLaw_cell_within_runs_unasked(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, a := genAuto(t), genAnswer(t, "answer")
		caps := genEffects(t, "caps") & auto.Effects()
		if end := Cell(caps, auto, a); !end.Runs || end.Asked {
			t.Fatalf("cell %s within %s: %+v", caps, auto, end)
		}
	})
}

func TestLaw_cell_approved_runs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		caps, auto := genEffects(t, "caps"), genAuto(t)
		if !Cell(caps, auto, Approve).Runs {
			t.Fatalf("approved cell %s did not run", caps)
		}
	})
}

func TestLaw_cell_no_yes_stops(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		caps, auto := genEffects(t, "caps"), genAuto(t)
		a := rapid.SampledFrom([]Answer{Deny, Unanswered, GatewayRefused}).Draw(t, "no")
		if !auto.Holds(caps) && Cell(caps, auto, a).Runs {
			t.Fatalf("cell %s outside %s ran on %s", caps, auto, a)
		}
	})
}

func TestLaw_cell_exec_asks(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		caps := genEffects(t, "caps").With(Exec)
		auto := AutoOf(genAuto(t).Effects().Without(Exec))
		if auto.Holds(caps) || !Cell(caps, auto, Deny).Asked {
			t.Fatalf("code that runs programs is within %s", auto)
		}
	})
}

func TestRegisterRefusesUngatedAndTwice(t *testing.T) {
	r := DefaultRegistry()
	if err := r.Register("cells", &Runner{Caps: Of(Exec)}); err == nil {
		t.Fatal("an ungated runner was registered")
	}
	if err := r.Register("bash", nil); err == nil {
		t.Fatal("bash was registered twice")
	}
}
