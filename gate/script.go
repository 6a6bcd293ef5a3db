package gate

import (
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Shell classifies the scripts of the bash tool (S7.8, G2): it splits a
// script into steps and gives each step its effects. It runs nothing; its
// only reads of the filesystem are path resolution through the Policy and,
// when ReadDir is set, globbing.
type Shell struct {
	Policy *Policy
	// Dir is the absolute working directory the script starts in.
	Dir string
	// Env is the environment the script runs with.
	Env map[string]string
	// ReadDir lists a directory for globbing and the walks of trees
	// (os.ReadDir), given as the system spells it (C:\w on Windows); nil
	// leaves patterns as written.
	ReadDir func(string) ([]fs.DirEntry, error)
	// PathSeen is what the session saw of PATH (the entries it found
	// missing); nil means nothing was seen before.
	PathSeen *PathSeen
}

// Script is a classified script: its steps, and whether it stayed in the
// step grammar (simple commands joined by ;, newline, &&, || and |).
// Outside the grammar it is one step.
type Script struct {
	Grammar bool
	Steps   []Step
	// Pipelines are the statements the pipelines are, by Step.Pipeline:
	// the statement a runner walking the same tree meets (a chain of |
	// whole, or one step). Nil outside the grammar.
	Pipelines []*syntax.Stmt
}

// Step is one simple command, or a whole script outside the grammar.
type Step struct {
	// Text is the step as it runs: the expanded words, each shown with
	// Visible, then its redirections.
	Text string
	// Argv is the expanded command line; nil outside the grammar.
	Argv []string
	// Effects is the join of every part's effects.
	Effects Effects
	// Parts are the facts the effects come from.
	Parts []Part
	// Pipeline numbers the pipeline the step belongs to; the steps of one
	// pipeline are asked about before any of them runs.
	Pipeline int
	// Reals are the real paths the step names, sorted: what its words,
	// redirections and cd targets resolved to when it was judged. An
	// "allow for this session" answer covers these paths only.
	Reals []string
	// At is where the step's command word sits in the parsed script: the
	// position an exec or call handler running that tree is handed. It
	// is not valid for a step with no words, or outside the grammar.
	At syntax.Pos
}

// Part is one fact of a step (G2): the command's own effects, a
// redirection target, a path it names, its working directory. Own never
// holds Secret; a part has secret only when it names a path that is or
// holds a secret.
type Part struct {
	Own         Effects
	NamesSecret bool
	// Why says which word or rule the part comes from.
	Why string
	// Redirected is the real path a redirection of the step opens, for
	// the part that judges it; empty for every other part.
	Redirected string
}

// NewPart is a part; secret never comes from own, only from names.
func NewPart(own Effects, namesSecret bool, why string) Part {
	return Part{Own: own.Without(Secret), NamesSecret: namesSecret, Why: why}
}

// Effects are the part's effects: its own, and secret when it names a
// secret path.
func (p Part) Effects() Effects {
	e := p.Own.Without(Secret)
	if p.NamesSecret {
		e = e.With(Secret)
	}
	return e
}

// JoinParts is a step's effects: every effect of every part (law
// step_holds_every_part).
func JoinParts(parts []Part) Effects {
	var e Effects
	for _, p := range parts {
		e = e.Union(p.Effects())
	}
	return e
}

// ScriptError is a script the shell refuses before any step: a NUL byte,
// or bash that does not parse.
type ScriptError struct {
	Line, Col int
	Problem   string
}

func (e *ScriptError) Error() string {
	return fmt.Sprintf("script line %d, column %d: %s", e.Line, e.Col, e.Problem)
}

// maxDepth bounds how deep eval and sh -c code inside code is read.
const maxDepth = 3

// Classify splits the script into steps and gives each its effects.
func (sh *Shell) Classify(src string) (Script, error) {
	f, err := Parse(src)
	if err != nil {
		return Script{}, err
	}
	return sh.ClassifyFile(f), nil
}

// Parse reads a script as bash does, refusing a NUL byte, with an error
// that says where and what to fix (ScriptError). A runner parses once and
// runs the tree ClassifyFile judged, so the two cannot disagree.
func Parse(src string) (*syntax.File, error) {
	if i := strings.IndexByte(src, 0); i >= 0 {
		line, col := lineCol(src, i)
		return nil, &ScriptError{Line: line, Col: col,
			Problem: "a NUL byte; the shell cannot pass it to a command. Remove it"}
	}
	return parse(src)
}

// ClassifyFile splits a parsed script into steps and gives each its
// effects; each step names where it sits in f (Step.At, Script.Pipelines).
// It does not change f.
func (sh *Shell) ClassifyFile(f *syntax.File) Script {
	return sh.newRun().script(f)
}

// ClassifyArgv judges one command line as it runs, after every
// expansion: its words are data, each one word whatever it holds, never
// parsed or globbed again. ok is false for a line no program can be
// handed (no words, or a NUL byte): the caller judges it as every effect.
func (sh *Shell) ClassifyArgv(argv []string) (st Step, ok bool) {
	if len(argv) == 0 {
		return Step{}, false
	}
	words := make([]*syntax.Word, len(argv))
	for i, a := range argv {
		if strings.IndexByte(a, 0) >= 0 {
			return Step{}, false
		}
		words[i] = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: a}}}
	}
	f := &syntax.File{Stmts: []*syntax.Stmt{{Cmd: &syntax.CallExpr{Args: words}}}}
	sc := sh.ClassifyFile(f)
	if len(sc.Steps) != 1 {
		return Step{}, false
	}
	return sc.Steps[0], true
}

func parse(src string) (*syntax.File, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err != nil {
		var pe syntax.ParseError
		if errors.As(err, &pe) {
			return nil, &ScriptError{Line: int(pe.Pos.Line()), Col: int(pe.Pos.Col()),
				Problem: pe.Text + "; fix the bash syntax"}
		}
		var le syntax.LangError
		if errors.As(err, &le) {
			return nil, &ScriptError{Line: int(le.Pos.Line()), Col: int(le.Pos.Col()),
				Problem: le.Error()}
		}
		return nil, &ScriptError{Line: 1, Col: 1, Problem: err.Error()}
	}
	return f, nil
}

// lineCol is the 1-based line and column (in bytes) of offset i of s.
func lineCol(s string, i int) (int, int) {
	if i > len(s) {
		i = len(s)
	}
	line := 1 + strings.Count(s[:i], "\n")
	col := i - strings.LastIndexByte(s[:i], '\n')
	return line, col
}

// Asks reports whether the step must be approved under the auto set.
func (st Step) Asks(auto AutoSet) bool { return auto.Asks(st.Effects) }
