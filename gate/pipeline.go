package gate

// AskPipeline asks about the steps of one pipeline in order, before any
// of them runs (S7.8): a step within the auto set needs no answer; any
// other needs Approve. It stops at the first step that is not approved and
// gives its index in steps and the answer; ok means every step may run.
// The shell's runner (agent/shell) calls it right before each pipeline
// runs; a refusal ends the script there (laws gate_prefix, gate_needs_yes,
// gate_deny_stops, gate_finish_runs_all, auto_runs_within,
// held_needs_a_yes, tested on that runner running real steps).
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
