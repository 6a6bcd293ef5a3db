package shell

import (
	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/syntax"
)

// pipeline is one pipeline of a script in the step grammar: the steps the
// gate asks about together, since its stages start together (S7.8).
type pipeline struct {
	stmt       *syntax.Stmt
	start, end int // its steps are start … end-1 of the gate's Script
}

// index is where the gate's steps sit in the parsed script, as the gate
// said when it classified that very tree (Step.At, Script.Pipelines): the
// handlers look a running command up by position, never by text.
type index struct {
	pipelines map[*syntax.Stmt]pipeline
	// calls maps the position of a step's command word to the step: the
	// position an exec or call handler is handed.
	calls map[syntax.Pos]int
}

func newIndex(sc gate.Script) *index {
	ix := &index{pipelines: map[*syntax.Stmt]pipeline{}, calls: map[syntax.Pos]int{}}
	for i, st := range sc.Steps {
		if st.At.IsValid() {
			ix.calls[st.At] = i
		}
		s := sc.Pipelines[st.Pipeline]
		p, ok := ix.pipelines[s]
		if !ok {
			p = pipeline{stmt: s, start: i}
		}
		p.end = i + 1
		ix.pipelines[s] = p
	}
	return ix
}
