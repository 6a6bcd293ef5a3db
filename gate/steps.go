package gate

import (
	"bytes"
	"io"
	"strings"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// run is one pass over a script: the environment and working directories
// as earlier steps leave them.
type run struct {
	sh  *Shell
	env *environ
	// cwds are every directory a step may run in: the start, and each a
	// cd may have moved to (a cd that fails leaves the one before). The
	// last is the one globbing uses.
	cwds []string
	// tainted is the text of the first step that changed the shell (a
	// variable, an alias, an option, a descriptor); every later step is
	// exec, since it may no longer mean what it says.
	tainted string
	depth   int
	steps   []Step
	groups  int
}

func (sh *Shell) newRun() *run {
	dir := sh.Policy.Resolve("/", sh.Dir).Path
	r := &run{sh: sh, env: newEnviron(sh.Env), cwds: []string{dir}}
	r.env.setString("PWD", dir)
	return r
}

func (r *run) child() *run {
	c := &run{sh: r.sh, env: r.env.clone(), cwds: append([]string(nil), r.cwds...),
		tainted: r.tainted, depth: r.depth + 1}
	return c
}

func (r *run) home() string { return r.env.str("HOME") }

// script classifies a parsed script.
func (r *run) script(f *syntax.File) Script {
	if !inGrammar(f) {
		return Script{Grammar: false, Steps: []Step{r.whole(f)}}
	}
	for _, s := range f.Stmts {
		r.walk(s, -1)
	}
	return Script{Grammar: true, Steps: r.steps}
}

func (r *run) walk(s *syntax.Stmt, group int) {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok {
		if b.Op == syntax.Pipe {
			if group < 0 {
				group = r.newGroup()
			}
			r.walk(b.X, group)
			r.walk(b.Y, group)
			return
		}
		r.walk(b.X, -1)
		r.walk(b.Y, -1)
		return
	}
	if group < 0 {
		group = r.newGroup()
	}
	var st Step
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		st = r.call(c.Assigns, c.Args, s.Redirs, "", true)
	case *syntax.DeclClause:
		st = r.call(c.Args, nil, s.Redirs, c.Variant.Value, true)
	default:
		st = r.call(nil, nil, s.Redirs, "", true)
	}
	st.Pipeline = group
	r.steps = append(r.steps, st)
}

func (r *run) newGroup() int {
	r.groups++
	return r.groups - 1
}

// cfg is the expansion config: the run's environment, globbing when the
// shell has ReadDir. Command and process substitutions occur only outside
// the grammar, where each command inside is a part of its own; their
// output is not known here and counts as empty.
func (r *run) cfg() *expand.Config {
	return &expand.Config{
		Env:       r.env,
		ReadDir2:  r.sh.ReadDir,
		CmdSubst:  func(io.Writer, *syntax.CmdSubst) error { return nil },
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "/dev/fd/63", nil },
	}
}

// fields expands words to the fields a command gets (expand.Fields, never
// Word.Lit: `sed -\i` is `sed -i`). ok is false when they cannot be
// expanded; then the words are given as written.
func (r *run) fields(words ...*syntax.Word) (out []string, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = printedWords(words), false
		}
	}()
	for f, err := range expand.FieldsSeq(r.cfg(), words...) {
		if err != nil {
			return printedWords(words), false
		}
		if len(out) == maxFields {
			// More words than anyone reads: the step is exec.
			return out, false
		}
		out = append(out, f)
	}
	return out, true
}

// maxFields bounds the words one step expands to ({1..99999999}).
const maxFields = 4096

// literal expands an assignment's value (no field splitting, no globbing).
func (r *run) literal(w *syntax.Word) (out string, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = printedWords([]*syntax.Word{w})[0], false
		}
	}()
	s, err := expand.Literal(r.cfg(), w)
	if err != nil {
		return printedWords([]*syntax.Word{w})[0], false
	}
	return s, true
}

func printedWords(words []*syntax.Word) []string {
	var out []string
	for _, w := range words {
		var b bytes.Buffer
		if w != nil {
			syntax.NewPrinter().Print(&b, w)
		}
		out = append(out, b.String())
	}
	return out
}

// call classifies one simple command: its assignments (or, for decl, the
// operands of export and its kin), its words and its redirections. live
// applies what it does to the shell (cd, assignments, state) for the steps
// after it; outside the grammar nothing is live.
func (r *run) call(assigns []*syntax.Assign, args []*syntax.Word, redirs []*syntax.Redirect, decl string, live bool) Step {
	var st Step
	var text, named []string
	var parts []Part
	unreadable := false
	r.env.changed = false

	var sets []varSet
	for _, a := range assigns {
		switch {
		case a.Name == nil:
			if a.Value != nil {
				v, ok := r.literal(a.Value)
				unreadable = unreadable || !ok
				text = append(text, Visible(v))
				named = append(named, v)
			}
		case a.Naked:
			text = append(text, a.Name.Value)
		case a.Array != nil:
			var elems []string
			for _, e := range a.Array.Elems {
				if e.Value == nil {
					continue
				}
				fs, ok := r.fields(e.Value)
				unreadable = unreadable || !ok
				for _, f := range fs {
					elems = append(elems, Visible(f))
					named = append(named, f)
				}
			}
			text = append(text, a.Name.Value+"=("+strings.Join(elems, " ")+")")
		default:
			v := ""
			if a.Value != nil {
				var ok bool
				v, ok = r.literal(a.Value)
				unreadable = unreadable || !ok
			}
			op := "="
			if a.Append {
				op = "+="
			}
			text = append(text, a.Name.Value+op+Visible(v))
			named = append(named, v)
			if a.Index == nil && !a.Append {
				sets = append(sets, varSet{a.Name.Value, v})
			}
		}
	}
	argv, ok := r.fields(args...)
	unreadable = unreadable || !ok
	if decl != "" {
		text = append([]string{decl}, text...)
	}
	for _, f := range argv {
		text = append(text, Visible(f))
	}
	st.Argv = argv

	var fc facts
	name := ""
	switch {
	case decl != "":
		name = decl
		fc = facts{own: Of(Exec), state: true}
		if decl == "export" && len(assigns) == 0 {
			fc = facts{own: Of(Read)}
		}
	case len(argv) == 0:
		if len(assigns) > 0 {
			name = "assignment"
			fc = facts{own: Of(Exec), state: true}
		}
	case strings.ContainsRune(argv[0], '/'):
		name = argv[0]
		fc = facts{own: Of(Exec), scripts: subScripts(argv)}
		named = append(named, argv[0])
	default:
		name = argv[0]
		fc = commandFacts(argv[0], argv[1:])
		if len(assigns) > 0 {
			fc.own = fc.own.With(Exec)
			parts = append(parts, NewPart(Of(Exec), false, "an assignment before the command can change what it runs"))
		}
	}
	if len(argv) > 1 && !fc.namesNothing {
		named = append(named, argv[1:]...)
	}
	if !fc.own.Empty() {
		parts = append(parts, NewPart(fc.own, false, "command "+Visible(name)))
	}
	if unreadable {
		parts = append(parts, NewPart(Of(Exec), false, "a word the gate cannot expand before it runs"))
	}
	if r.tainted != "" {
		parts = append(parts, NewPart(Of(Exec), false, "an earlier step changed the shell: "+r.tainted))
	}

	// Where relative words and the cwd read are taken.
	cwdDirs := r.cwds
	if len(fc.dirs) > 0 {
		cwdDirs = nil
		for _, d := range r.cwds {
			for _, x := range fc.dirs {
				d = r.sh.Policy.Resolve(d, x).Path
			}
			cwdDirs = appendNew(cwdDirs, d)
		}
	}
	wordDirs := append(append([]string(nil), r.cwds...), cwdDirs...)
	for _, w := range named {
		parts = append(parts, r.judgeWord(w, fc.writes(), wordDirs)...)
	}
	if fc.readsCwd {
		for _, d := range cwdDirs {
			if r.sh.Policy.HoldsSecret(RealPath{Path: d}) {
				parts = append(parts, NewPart(0, true, "reads its working directory "+Visible(d)))
			}
		}
	}
	for _, rd := range redirs {
		ps, t := r.redirect(rd, wordDirs)
		parts = append(parts, ps...)
		text = append(text, t)
	}
	for _, src := range fc.scripts {
		parts = append(parts, r.subParts(src)...)
	}

	st.Text = strings.Join(text, " ")
	st.Parts = dedupParts(parts)
	st.Effects = JoinParts(st.Parts)

	if live {
		r.after(st, fc, decl, argv, assigns, sets)
	}
	return st
}

// varSet is an assignment a step makes: NAME=value.
type varSet struct{ name, value string }

// after applies a live step to the shell for the steps after it.
func (r *run) after(st Step, fc facts, decl string, argv []string, assigns []*syntax.Assign, sets []varSet) {
	changed := r.env.changed
	r.env.changed = false
	if len(argv) == 0 || decl != "" {
		for _, s := range sets {
			r.env.setString(s.name, s.value)
		}
	}
	if len(argv) > 0 && decl == "" && argv[0] == "unset" {
		for _, n := range argv[1:] {
			if !strings.HasPrefix(n, "-") {
				delete(r.env.vars, n)
			}
		}
	}
	if fc.cd != "" {
		r.cd(fc.cd)
	}
	if r.tainted == "" && (changed || fc.state || fc.cdUnknown) {
		r.tainted = st.Text
	}
}

// cd adds the directory a cd may move to; the ones before stay possible,
// as a cd that fails leaves the shell where it was.
func (r *run) cd(target string) {
	if target == "~" || strings.HasPrefix(target, "~/") {
		target = r.home() + target[1:]
	}
	bases := append([]string(nil), r.cwds...)
	if cdpath := r.env.str("CDPATH"); cdpath != "" && !strings.HasPrefix(target, "/") &&
		!strings.HasPrefix(target, "./") && !strings.HasPrefix(target, "../") {
		for _, p := range strings.Split(cdpath, ":") {
			if p != "" {
				bases = append(bases, r.sh.Policy.Resolve(r.cwds[len(r.cwds)-1], p).Path)
			}
		}
	}
	var next string
	for _, b := range bases {
		next = r.sh.Policy.Resolve(b, target).Path
		r.cwds = appendNew(r.cwds, next)
	}
	// The newest goes last: globbing takes it.
	r.cwds = append(removeString(r.cwds, next), next)
	r.env.setString("PWD", next)
}

func removeString(list []string, s string) []string {
	out := list[:0:0]
	for _, x := range list {
		if x != s {
			out = append(out, x)
		}
	}
	return out
}

// judgeWord gives the parts of one word a step names (S7.8): secret when
// it is or holds a secret; for a command that writes, outside and
// protected by its class. A word counts as a path relative to each
// directory the step may run in, and so do the paths inside it: an
// option's value (--file=P, -fP), a curl @P, a file:// URL.
func (r *run) judgeWord(w string, writes bool, dirs []string) []Part {
	var parts []Part
	for _, c := range candidates(w, r.home()) {
		for _, d := range dirs {
			rp := r.sh.Policy.Resolve(d, c)
			cl := r.sh.Policy.Class(rp)
			secret := cl == ClassSecret || r.sh.Policy.HoldsSecret(rp)
			var own Effects
			if writes {
				switch cl {
				case ClassOutside:
					own = Of(Outside)
				case ClassProtected:
					own = Of(Protected)
				}
			}
			if secret || !own.Empty() {
				parts = append(parts, NewPart(own, secret, "names "+Visible(rp.Path)))
			}
		}
	}
	return parts
}

// candidates are the paths a word may name.
func candidates(w, home string) []string {
	var cs []string
	add := func(c string, tilde bool) {
		if c == "" {
			return
		}
		if tilde && home != "" && (c == "~" || strings.HasPrefix(c, "~/")) {
			c = home + c[1:]
		}
		for _, x := range cs {
			if x == c {
				return
			}
		}
		cs = append(cs, c)
	}
	add(w, false)
	if strings.HasPrefix(w, "-") {
		if _, v, ok := strings.Cut(w, "="); ok {
			add(v, true)
		} else if !strings.HasPrefix(w, "--") && len(w) > 2 {
			add(w[2:], true)
		}
	} else if _, v, ok := strings.Cut(w, "="); ok {
		add(v, true)
	}
	if rest, ok := strings.CutPrefix(w, "@"); ok {
		add(rest, true)
	}
	if rest, ok := strings.CutPrefix(w, "file://"); ok {
		add(rest, true)
	}
	return cs
}

// devNull are the redirection targets that add nothing.
var devNull = setOf("/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr")

// redirect gives the parts of one redirection (S7.8) and its text: a
// write inside is write; outside, write and outside; protected, write and
// protected; a secret, write and secret. A read is read, and secret when
// its target is or holds one.
func (r *run) redirect(rd *syntax.Redirect, dirs []string) ([]Part, string) {
	n := ""
	if rd.N != nil {
		n = rd.N.Value
	}
	op := rd.Op.String()
	var parts []Part
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		// The body is data, not a path.
		return nil, n + op + " " + strings.Join(printedWords([]*syntax.Word{rd.Word}), "")
	}
	fs, ok := r.fields(rd.Word)
	target := strings.Join(fs, " ")
	if !ok || len(fs) != 1 {
		parts = append(parts, NewPart(Of(Exec), false, "a redirection whose target is not one word"))
	}
	text := n + op + " " + Visible(target)
	read, write := false, false
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		text = n + op + Visible(target)
		if target == "-" || isDigits(target) {
			return parts, text
		}
		read, write = rd.Op == syntax.DplIn, rd.Op == syntax.DplOut
	case syntax.RdrIn:
		read = true
	case syntax.RdrInOut:
		read, write = true, true
	default:
		write = true
	}
	if devNull[target] {
		return parts, text
	}
	for _, d := range dirs {
		rp := r.sh.Policy.Resolve(d, target)
		cl := r.sh.Policy.Class(rp)
		why := "redirection " + op + " " + Visible(rp.Path)
		// A target that is or holds a secret gives secret (G2), whether
		// read or written.
		secret := cl == ClassSecret || r.sh.Policy.HoldsSecret(rp)
		if write {
			switch cl {
			case ClassInside:
				parts = append(parts, NewPart(Of(Write), secret, why))
			case ClassOutside:
				parts = append(parts, NewPart(Of(Write, Outside), secret, why))
			case ClassProtected:
				parts = append(parts, NewPart(Of(Write, Protected), secret, why))
			case ClassSecret:
				parts = append(parts, NewPart(Of(Write), true, why))
			}
		}
		if read {
			parts = append(parts, NewPart(Of(Read), secret, why))
		}
	}
	return parts, text
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// subParts are the parts of shell code a step runs (eval, sh -c, an
// alias): every part of every step of it.
func (r *run) subParts(src string) []Part {
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
func (r *run) whole(f *syntax.File) Step {
	var b bytes.Buffer
	syntax.NewPrinter().Print(&b, f)
	st := Step{Text: visibleText(strings.TrimRight(b.String(), "\n"))}
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
					parts = append(parts, r.judgeWord(f, false, r.cwds)...)
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
func (r *run) everyCd(f *syntax.File) {
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
		if len(r.cwds) == before {
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
