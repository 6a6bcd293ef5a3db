package gate

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// classifying is one pass over a script: the environment and working directories
// as earlier steps leave them.
type classifying struct {
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
	// lex are the directories the interpreter may stand in, as it names
	// them: its cd is lexical (cd).
	lex []string
	// lost: more cd targets than maxDirs; relative words may be anywhere.
	lost   bool
	depth  int
	steps  []Step
	groups int
	// reals are the real paths the step being classified has resolved so
	// far: its words, redirections, cd targets and walked roots. A grant
	// is for these (grant.go).
	reals []string
	// paths are the judged entries of each PATH value a step looked up.
	paths map[string][]PathEntry
}

// resolve is the policy's Resolve, noting the real path for the step.
func (r *classifying) resolve(dir, path string) RealPath {
	rp := r.sh.Policy.Resolve(dir, path)
	r.reals = appendNew(r.reals, rp.Path)
	return rp
}

func (sh *Shell) newRun() *classifying {
	dir := sh.Policy.Resolve("/", sh.Dir).Path
	r := &classifying{sh: sh, env: newEnviron(sh.Env), cwds: []string{dir}, lex: []string{cleanAbs("/", sh.Dir)}}
	r.env.asTheInterpreter()
	r.env.setString("PWD", dir)
	return r
}

func (r *classifying) child() *classifying {
	c := &classifying{sh: r.sh, env: r.env.clone(), cwds: append([]string(nil), r.cwds...),
		lex: append([]string(nil), r.lex...), tainted: r.tainted, lost: r.lost, depth: r.depth + 1}
	return c
}

func (r *classifying) home() string { return r.env.str("HOME") }

// lookCommand is where the shell will find the command name on PATH as
// the script stands here (LookCommand); a builtin is never looked up.
func (r *classifying) lookCommand(name string) (Found, bool) {
	if interp.IsBuiltin(name) {
		return Found{}, false
	}
	path := r.env.str("PATH")
	entries, ok := r.paths[path]
	if !ok {
		entries = r.sh.PathSeen.Judge(r.sh.Policy, path)
		if r.paths == nil {
			r.paths = map[string][]PathEntry{}
		}
		r.paths[path] = entries
	}
	f, ok := r.sh.Policy.LookCommand(name, entries)
	if ok {
		r.reals = appendNew(r.reals, f.Path) // a grant is for the program found, too
	}
	return f, ok
}

// script classifies a parsed script.
func (r *classifying) script(f *syntax.File) Script {
	if !inGrammar(f) {
		st := r.whole(f)
		st.Reals = slices.Sorted(slices.Values(r.reals))
		return Script{Grammar: false, Steps: []Step{st}}
	}
	for _, s := range f.Stmts {
		r.walk(s, -1)
	}
	return Script{Grammar: true, Steps: r.steps}
}

func (r *classifying) walk(s *syntax.Stmt, group int) {
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
	st.Reals = slices.Sorted(slices.Values(r.reals))
	r.reals = nil
	r.steps = append(r.steps, st)
}

func (r *classifying) newGroup() int {
	r.groups++
	return r.groups - 1
}

// call classifies one simple command: its assignments (or, for decl, the
// operands of export and its kin), its words and its redirections. live
// applies what it does to the shell (cd, assignments, state) for the steps
// after it; outside the grammar nothing is live.
func (r *classifying) call(assigns []*syntax.Assign, args []*syntax.Word, redirs []*syntax.Redirect, decl string, live bool) Step {
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
				text = append(text, shownWord(v, ok))
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
					elems = append(elems, shownWord(f, ok))
					named = append(named, f)
				}
			}
			text = append(text, a.Name.Value+"=("+strings.Join(elems, " ")+")")
		default:
			v, ok := "", true
			if a.Value != nil {
				v, ok = r.literal(a.Value)
				unreadable = unreadable || !ok
			}
			op := "="
			if a.Append {
				op = "+="
			}
			text = append(text, a.Name.Value+op+shownWord(v, ok))
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
		text = append(text, shownWord(f, ok))
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
		if f, ok := r.lookCommand(name); ok && f.Exec {
			parts = append(parts, NewPart(Of(Exec), false, f.Why()))
		}
		if len(assigns) > 0 {
			fc.own = fc.own.With(Exec)
			parts = append(parts, NewPart(Of(Exec), false, "an assignment before the command can change what it runs"))
		}
	}
	nAssigned := len(named)
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
	if r.lost {
		parts = append(parts, NewPart(Of(Exec, Outside, Protected), false,
			"the script moves through more directories than the gate follows"))
	}

	// Where relative words and the cwd read are taken.
	cwdDirs := r.cwds
	if len(fc.dirs) > 0 {
		cwdDirs = nil
		for _, d := range r.cwds {
			for _, x := range fc.dirs {
				d = r.resolve(d, x).Path
			}
			cwdDirs = appendNew(cwdDirs, d)
		}
	}
	wordDirs := append(append([]string(nil), r.cwds...), cwdDirs...)
	options := fc.notPaths(argv, r.env.str("POSIXLY_CORRECT") != "")
	for i, w := range named {
		option := i >= nAssigned && options[i-nAssigned+1]
		parts = append(parts, r.judgeWord(w, option, fc.writes(), wordDirs)...)
	}
	for _, d := range fc.derived {
		parts = append(parts, r.judgeWord(d, false, true, wordDirs)...)
	}
	if name == "ln" {
		// A relative target of ln -s is read from the link's directory.
		if targets, dest, into, ok := lnSymbolic(argv[1:]); ok && dest != "" {
			for _, t := range targets {
				if !strings.HasPrefix(t, "/") {
					parts = append(parts, r.judgeWord(t, false, true, r.linkDirs(dest, into, wordDirs))...)
				}
			}
		}
	}
	for _, u := range fc.unseen {
		parts = append(parts, unseenPart(u))
	}
	if fc.follows && len(argv) > 0 {
		var cwdRead []string
		if fc.readsCwd {
			cwdRead = cwdDirs
		}
		parts = append(parts, r.walkParts(argv[1:], options[1:], wordDirs, cwdRead, fc.writes())...)
	}
	if fc.readsCwd {
		reach := cwdReach(name, argv)
		for _, d := range cwdDirs {
			if r.sh.Policy.HoldsSecretIn(RealPath{Path: d}, reach) {
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
		r.after(st, fc, decl, argv, sets)
	}
	return st
}

// varSet is an assignment a step makes: NAME=value.
type varSet struct{ name, value string }

// after applies a live step to the shell for the steps after it.
func (r *classifying) after(st Step, fc facts, decl string, argv []string, sets []varSet) {
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

// maxDirs bounds the directories a script's steps are judged in.
const maxDirs = 16

// cd adds the directory a cd may move to; the ones before stay possible,
// as a cd that fails leaves the shell where it was.
func (r *classifying) cd(target string) {
	if target == "~" || strings.HasPrefix(target, "~/") {
		target = r.home() + target[1:]
	}
	bases := append([]string(nil), r.cwds...)
	if cdpath := r.env.str("CDPATH"); cdpath != "" && !strings.HasPrefix(target, "/") &&
		!strings.HasPrefix(target, "./") && !strings.HasPrefix(target, "../") {
		for _, p := range strings.Split(cdpath, ":") {
			if p != "" {
				bases = append(bases, r.resolve(r.cwds[len(r.cwds)-1], p).Path)
			}
		}
	}
	var next string
	for _, b := range bases {
		next = r.resolve(b, target).Path
		if len(r.cwds) >= maxDirs {
			r.lost = true
			return
		}
		r.cwds = appendNew(r.cwds, next)
	}
	// The interpreter's cd is lexical: it cleans "link/.." to where it
	// stands, where the kernel would go up from the link's target. Each
	// directory it may reach so is judged too.
	var lex []string
	for _, l := range r.lex {
		nl := cleanAbs(l, target)
		lex = appendNew(lex, nl)
		real := r.resolve("/", nl).Path
		if !contains(r.cwds, real) {
			if len(r.cwds) >= maxDirs {
				r.lost = true
				return
			}
			r.cwds = append(r.cwds, real)
		}
	}
	for _, l := range lex {
		if len(r.lex) >= maxDirs {
			r.lost = true
			return
		}
		r.lex = appendNew(r.lex, l)
	}
	// The newest goes last: globbing takes it.
	r.cwds = append(removeString(r.cwds, next), next)
	r.env.setString("PWD", next)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
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
