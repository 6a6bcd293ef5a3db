package gate

import (
	"bytes"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// subParts are the parts of shell code a step runs (eval, sh -c, an
// alias): every part of every step of it.
func (r *classifying) subParts(src string) []Part {
	if r.depth >= maxDepth || strings.IndexByte(src, 0) >= 0 {
		return []Part{NewPart(Of(Exec), false, "shell code the gate cannot read")}
	}
	f, err := parse(src)
	if err != nil {
		return []Part{NewPart(Of(Exec), false, "shell code that does not parse")}
	}
	sc := r.child().script(f)
	var parts []Part
	for _, st := range sc.Steps {
		for _, real := range st.Reals {
			r.reals = appendNew(r.reals, real) // a grant covers the paths shell code names too
		}
		for _, p := range st.Parts {
			p.Why = "in shell code it runs, " + p.Why
			parts = append(parts, p)
		}
	}
	return parts
}

// whole classifies a script outside the grammar as one step: exec, and
// every part of every command it holds, in functions, loops, subshells
// and substitutions alike, of every redirection, and of every word.
func (r *classifying) whole(f *syntax.File) Step {
	var b bytes.Buffer
	syntax.NewPrinter().Print(&b, f)
	st := Step{Text: VisibleText(strings.TrimRight(b.String(), "\n"))}
	parts := []Part{NewPart(Of(Exec), false, "a script outside the step grammar runs as one program")}
	r.everyCd(f)
	hdocs := map[*syntax.Word]bool{}
	syntax.Walk(f, func(n syntax.Node) bool {
		if rd, ok := n.(*syntax.Redirect); ok && rd.Hdoc != nil {
			hdocs[rd.Hdoc] = true
		}
		return true
	})
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			var s Step
			switch c := n.Cmd.(type) {
			case *syntax.CallExpr:
				s = r.call(c.Assigns, c.Args, n.Redirs, "", false)
			case *syntax.DeclClause:
				s = r.call(c.Args, nil, n.Redirs, c.Variant.Value, false)
			default:
				s = r.call(nil, nil, n.Redirs, "", false)
			}
			parts = append(parts, s.Parts...)
		case *syntax.Word:
			if !hdocs[n] {
				fs, _ := r.fields(n)
				for _, f := range fs {
					parts = append(parts, r.judgeWord(f, false, false, r.cwds)...)
				}
			}
		}
		return true
	})
	st.Parts = dedupParts(parts)
	st.Effects = JoinParts(st.Parts)
	return st
}

// everyCd adds to the run's directories every directory a cd anywhere in
// the script may move to, from any directory it may run in, until no new
// one turns up (loops and functions run a cd in any order).
func (r *classifying) everyCd(f *syntax.File) {
	for round := 0; round < 4; round++ {
		before := len(r.cwds)
		syntax.Walk(f, func(n syntax.Node) bool {
			c, ok := n.(*syntax.CallExpr)
			if !ok || len(c.Args) == 0 {
				return true
			}
			argv, _ := r.fields(c.Args...)
			if len(argv) > 0 && argv[0] == "cd" {
				if fc := cdFacts(argv[1:]); fc.cd != "" {
					r.cd(fc.cd)
				}
			}
			return true
		})
		if len(r.cwds) == before || r.lost {
			return
		}
	}
}

func dedupParts(parts []Part) []Part {
	seen := map[Part]bool{}
	var out []Part
	for _, p := range parts {
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	return out
}

// inGrammar reports whether every statement is a step or steps joined by
// &&, || and |, with only the redirections <, >, >>, >|, <>, >&, <&, &>
// and &>>, and no command or process substitution.
func inGrammar(f *syntax.File) bool {
	for _, s := range f.Stmts {
		if !stmtInGrammar(s) {
			return false
		}
	}
	return true
}

func stmtInGrammar(s *syntax.Stmt) bool {
	if s.Negated || s.Background || s.Coprocess || s.Disown {
		return false
	}
	for _, rd := range s.Redirs {
		switch rd.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrIn, syntax.RdrInOut, syntax.DplIn,
			syntax.DplOut, syntax.RdrClob, syntax.RdrAll, syntax.AppAll:
		default:
			return false
		}
		if rd.N != nil && !isDigits(rd.N.Value) {
			return false
		}
		if !wordInGrammar(rd.Word) {
			return false
		}
	}
	switch c := s.Cmd.(type) {
	case *syntax.BinaryCmd:
		if len(s.Redirs) > 0 {
			return false
		}
		switch c.Op {
		case syntax.AndStmt, syntax.OrStmt, syntax.Pipe:
			return stmtInGrammar(c.X) && stmtInGrammar(c.Y)
		}
		return false
	case *syntax.CallExpr:
		for _, a := range c.Assigns {
			if a.Array != nil || a.Index != nil || !wordInGrammar(a.Value) {
				return false
			}
		}
		for _, w := range c.Args {
			if !wordInGrammar(w) {
				return false
			}
		}
		return true
	case *syntax.DeclClause:
		if c.Variant.Value != "export" {
			return false
		}
		for _, a := range c.Args {
			if a.Array != nil || a.Index != nil || !wordInGrammar(a.Value) {
				return false
			}
		}
		return true
	case nil:
		return true
	}
	return false
}

func wordInGrammar(w *syntax.Word) bool {
	if w == nil {
		return true
	}
	ok := true
	syntax.Walk(w, func(n syntax.Node) bool {
		switch n.(type) {
		case *syntax.CmdSubst, *syntax.ProcSubst:
			ok = false
		}
		return ok
	})
	return ok
}
