package shell

import (
	"fmt"

	"mvdan.cc/sh/v3/syntax"
)

// pipeline is one pipeline of a script in the step grammar: the steps the
// gate asks about together, since its stages start together (S7.8).
type pipeline struct {
	stmt       *syntax.Stmt
	start, end int // its steps are start … end-1 of the gate's Script
}

// index is where the gate's steps sit in the parsed script. It walks the
// statements as gate.Shell does (each simple command a step, in order,
// each maximal chain of | one pipeline), so the i-th leaf is the gate's
// step i.
type index struct {
	pipelines map[*syntax.Stmt]pipeline
	// calls maps the position of a step's command word to the step: the
	// position an exec or call handler is handed.
	calls map[syntax.Pos]int
	steps int
}

func newIndex(f *syntax.File) *index {
	ix := &index{pipelines: map[*syntax.Stmt]pipeline{}, calls: map[syntax.Pos]int{}}
	for _, s := range f.Stmts {
		ix.walk(s, false)
	}
	return ix
}

func (ix *index) walk(s *syntax.Stmt, inPipe bool) {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok {
		switch b.Op {
		case syntax.Pipe:
			start := ix.steps
			ix.walk(b.X, true)
			ix.walk(b.Y, true)
			if !inPipe {
				ix.pipelines[s] = pipeline{stmt: s, start: start, end: ix.steps}
			}
			return
		case syntax.AndStmt, syntax.OrStmt:
			ix.walk(b.X, false)
			ix.walk(b.Y, false)
			return
		}
	}
	if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
		ix.calls[c.Args[0].Pos()] = ix.steps
	}
	if !inPipe {
		ix.pipelines[s] = pipeline{stmt: s, start: ix.steps, end: ix.steps + 1}
	}
	ix.steps++
}

// check is an error when the index and the gate's steps disagree: then
// the script does not run, since no step could be told from another.
func (ix *index) check(steps int, pipelineOf func(i int) int) error {
	if ix.steps != steps {
		return fmt.Errorf("the shell found %d steps where the gate found %d", ix.steps, steps)
	}
	for _, p := range ix.pipelines {
		for i := p.start + 1; i < p.end; i++ {
			if pipelineOf(i) != pipelineOf(p.start) {
				return fmt.Errorf("the shell and the gate split step %d into different pipelines", i+1)
			}
		}
	}
	return nil
}
