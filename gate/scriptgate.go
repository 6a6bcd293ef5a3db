package gate

// Ending is how a script ends under the gate (S7.8): the steps that ran
// are always its first Ran steps.
type Ending struct {
	// Ran is how many steps the gate let run: steps 0 … Ran-1.
	Ran int
	// Finished: every step was let run.
	Finished bool
	// RefusedAt is the step that was refused, when not Finished.
	RefusedAt int
	// Answer is why it was refused: Deny, Unanswered or GatewayRefused.
	Answer Answer
	// Asked is how many questions went out.
	Asked int
}

// AskPipeline asks about the steps of one pipeline in order, before any
// of them runs (S7.8): a step within the auto set needs no answer; any
// other needs Approve. It stops at the first step that is not approved and
// gives its index in steps and the answer; ok means every step may run.
func AskPipeline(steps []Step, auto AutoSet, ask func(i int, st Step) Answer) (refused int, a Answer, asked int, ok bool) {
	for i, st := range steps {
		if auto.Holds(st.Effects) {
			continue
		}
		asked++
		if a := ask(i, st); !a.Runs() {
			return i, a, asked, false
		}
	}
	return -1, Approve, asked, true
}

// GateSteps is the gate over a whole script, pipeline by pipeline (laws
// gate_prefix, gate_needs_yes, gate_deny_stops, gate_finish_runs_all): a
// refusal stops the script at that step; the earlier pipelines ran; the
// refused step, the rest of its pipeline and every later step do not run.
// ask gets the step's index in the script.
func GateSteps(steps []Step, auto AutoSet, ask func(i int, st Step) Answer) Ending {
	var e Ending
	for start := 0; start < len(steps); {
		end := start + 1
		for end < len(steps) && steps[end].Pipeline == steps[start].Pipeline {
			end++
		}
		refused, a, asked, ok := AskPipeline(steps[start:end], auto, func(i int, st Step) Answer {
			return ask(start+i, st)
		})
		e.Asked += asked
		if !ok {
			e.RefusedAt, e.Answer = start+refused, a
			return e
		}
		e.Ran = end
		start = end
	}
	e.Finished = true
	return e
}
