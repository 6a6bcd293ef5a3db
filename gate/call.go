package gate

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// One simple command, classified in steps: its words as the shell will
// expand them (callWords), the command they name and what it does
// (command), then each part judged where the step stands (the path
// policy's reads of the file system are here, in the judge* methods).

// words is a simple command expanded: the text shown for it, the words
// that may name paths (assigned values first), the assignments it makes,
// its argv, and whether a word could not be expanded.
type words struct {
	text, named []string
	sets        []varSet
	argv        []string
	unreadable  bool
}

// call classifies one simple command: its assignments (or, for decl, the
// operands of export and its kin), its words and its redirections. live
// applies what it does to the shell (cd, assignments, state) for the steps
// after it; outside the grammar nothing is live.
func (r *classifying) call(assigns []*syntax.Assign, args []*syntax.Word, redirs []*syntax.Redirect, decl string, live bool) Step {
	r.env.changed = false
	w := r.callWords(assigns, args, decl)
	c := commandOf(decl, len(assigns) > 0, w.argv)
	name, fc := c.name, c.fc
	parts := r.lookParts(c)
	if c.pathNamed {
		w.named = append(w.named, name) // a program named by path is a word to judge
	}
	nAssigned := len(w.named)
	if len(w.argv) > 1 && !fc.namesNothing {
		w.named = append(w.named, w.argv[1:]...)
	}
	parts = append(parts, r.stepParts(name, fc, w.unreadable)...)

	// Where relative words and the cwd read are taken.
	cwdDirs := r.cwdDirs(fc)
	wordDirs := append(append([]string(nil), r.cwds...), cwdDirs...)
	options := fc.notPaths(w.argv, r.env.str("POSIXLY_CORRECT") != "")
	if r.mayBePosix(w.sets) {
		// the roles read options as GNU does: with POSIXLY_CORRECT an
		// option word after an operand is an operand (the last one a
		// destination), so every word is judged as the command's own
		// effects say
		fc.roles, fc.replaced = nil, nil
	}
	for i, word := range w.named {
		option, role := false, roleAsCommand
		if i >= nAssigned {
			option, role = options[i-nAssigned+1], fc.roles[i-nAssigned]
		}
		parts = append(parts, r.judgeWordAs(word, option, fc.writes(), role, wordDirs)...)
	}
	for _, d := range fc.derived {
		dirs := wordDirs
		if i, ok := fc.replaced[d]; ok {
			dirs = r.goneInto(w.argv[i+1], fc.roles[i], wordDirs)
		}
		parts = append(parts, r.judgeWord(d, false, true, dirs)...)
	}
	if fc.copiesTrees && len(w.argv) > 0 {
		parts = append(parts, r.copyTreeParts(w.argv[1:], fc.roles, wordDirs)...)
	}
	if name == "ln" {
		parts = append(parts, r.judgeLinkTargets(w.argv, wordDirs)...)
	}
	for _, u := range fc.unseen {
		parts = append(parts, unseenPart(u))
	}
	if fc.follows && len(w.argv) > 0 {
		var cwdRead []string
		if fc.readsCwd {
			cwdRead = cwdDirs
		}
		parts = append(parts, r.walkParts(w.argv[1:], options[1:], wordDirs, cwdRead, fc.writes())...)
	}
	if fc.recursive && len(w.argv) > 0 {
		var cwdWritten []string
		if fc.readsCwd {
			cwdWritten = cwdDirs
		}
		parts = append(parts, r.treeParts(w.argv[1:], options[1:], fc.roles, wordDirs, cwdWritten)...)
	}
	if fc.readsCwd {
		parts = append(parts, r.judgeCwdRead(name, w.argv, cwdDirs)...)
	}
	for _, rd := range redirs {
		ps, t := r.redirect(rd, wordDirs)
		parts = append(parts, ps...)
		w.text = append(w.text, t)
	}
	for _, src := range fc.scripts {
		parts = append(parts, r.subParts(src)...)
	}

	st := Step{Argv: w.argv, Text: strings.Join(w.text, " ")}
	st.Parts = dedupParts(parts)
	st.Effects = JoinParts(st.Parts)
	if live {
		r.after(st, fc, decl, w.argv, w.sets)
	}
	return st
}

// callWords expands a command's assignments (or decl's operands) and
// words as the shell will.
func (r *classifying) callWords(assigns []*syntax.Assign, args []*syntax.Word, decl string) words {
	var w words
	for _, a := range assigns {
		r.assignWords(a, &w)
	}
	argv, ok := r.fields(args...)
	w.unreadable = w.unreadable || !ok
	if decl != "" {
		w.text = append([]string{decl}, w.text...)
	}
	for _, f := range argv {
		w.text = append(w.text, shownWord(f, ok))
	}
	w.argv = argv
	return w
}

// assignWords adds one assignment (or decl operand) to w.
func (r *classifying) assignWords(a *syntax.Assign, w *words) {
	switch {
	case a.Name == nil:
		if a.Value != nil {
			v, ok := r.literal(a.Value)
			w.unreadable = w.unreadable || !ok
			w.text = append(w.text, shownWord(v, ok))
			w.named = append(w.named, v)
		}
	case a.Naked:
		w.text = append(w.text, a.Name.Value)
	case a.Array != nil:
		var elems []string
		for _, e := range a.Array.Elems {
			if e.Value == nil {
				continue
			}
			fs, ok := r.fields(e.Value)
			w.unreadable = w.unreadable || !ok
			for _, f := range fs {
				elems = append(elems, shownWord(f, ok))
				w.named = append(w.named, f)
			}
		}
		w.text = append(w.text, a.Name.Value+"=("+strings.Join(elems, " ")+")")
	default:
		v, ok := "", true
		if a.Value != nil {
			v, ok = r.literal(a.Value)
			w.unreadable = w.unreadable || !ok
		}
		op := "="
		if a.Append {
			op = "+="
		}
		w.text = append(w.text, a.Name.Value+op+shownWord(v, ok))
		w.named = append(w.named, v)
		if a.Index == nil && !a.Append {
			w.sets = append(w.sets, varSet{a.Name.Value, v})
		}
	}
}

// command is what a simple command runs, decided from its words alone
// (pure): a declaration, a bare assignment, a program named by path, or
// a command to look up (a builtin, a known command, or one on PATH).
type command struct {
	name string
	fc   facts
	// lookUp: the name is looked up on PATH (lookParts); assigned: an
	// assignment before it can change what it runs (exec); pathNamed:
	// the program is named by path (a word to judge).
	lookUp, assigned, pathNamed bool
}

// commandOf decides the command of a step: decl is export and its kin
// (""), assigns whether it assigns, argv its expanded words.
func commandOf(decl string, assigns bool, argv []string) command {
	switch {
	case decl != "":
		fc := facts{own: Of(Exec), state: true}
		if decl == "export" && !assigns {
			fc = facts{own: Of(Read)}
		}
		return command{name: decl, fc: fc}
	case len(argv) == 0:
		if assigns {
			return command{name: "assignment", fc: facts{own: Of(Exec), state: true}}
		}
		return command{}
	case strings.ContainsRune(argv[0], '/'):
		return command{name: argv[0], fc: facts{own: Of(Exec), scripts: subScripts(argv)}, pathNamed: true}
	}
	c := command{name: argv[0], fc: commandFacts(argv[0], argv[1:]), lookUp: true, assigned: assigns}
	if assigns {
		c.fc.own = c.fc.own.With(Exec)
	}
	return c
}

// lookParts are the parts of the command's lookup: the program PATH
// finds (when it is exec), and an assignment before it.
func (r *classifying) lookParts(c command) []Part {
	if pathLookers[c.name] {
		return r.secretPathParts()
	}
	if !c.lookUp {
		return nil
	}
	parts := r.secretPathParts()
	if f, ok := r.lookCommand(c.name); ok && f.Exec {
		parts = append(parts, NewPart(Of(Exec), false, f.Why()))
	}
	if c.assigned {
		parts = append(parts, NewPart(Of(Exec), false, "an assignment before the command can change what it runs"))
	}
	return parts
}

// stepParts are the parts of a step as a whole: the command's own
// effects, a word the gate cannot expand, an earlier step that changed
// the shell, a script that moves through more directories than followed.
func (r *classifying) stepParts(name string, fc facts, unreadable bool) []Part {
	var parts []Part
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
	return parts
}

// cwdDirs are the directories the command reads as its working
// directory: the step's, or the ones its own options move it to (fc.dirs).
func (r *classifying) cwdDirs(fc facts) []string {
	if len(fc.dirs) == 0 {
		return r.cwds
	}
	var out []string
	for _, d := range r.cwds {
		for _, x := range fc.dirs {
			d = r.resolve(d, x).Path
		}
		out = appendNew(out, d)
	}
	return out
}

// judgeLinkTargets judges the relative targets of ln -s where they are
// read: from the link's directory.
func (r *classifying) judgeLinkTargets(argv []string, wordDirs []string) []Part {
	targets, dest, into, ok := lnSymbolic(argv[1:])
	if !ok || dest == "" {
		return nil
	}
	a := moveOpts.read(argv[1:])
	replaces := a.hasShort("nT") || a.hasLong(moveOpts, "no-dereference", "no-target-directory")
	var parts []Part
	for _, t := range targets {
		if !strings.HasPrefix(t, "/") {
			parts = append(parts, r.judgeWord(t, false, true, r.linkDirs(dest, into, replaces, wordDirs))...)
		}
	}
	return parts
}

// judgeCwdRead is a command that reads its working directory, judged in
// each directory it may stand in.
func (r *classifying) judgeCwdRead(name string, argv, cwdDirs []string) []Part {
	var parts []Part
	reach := cwdReach(name, argv)
	for _, d := range cwdDirs {
		if r.sh.Policy.HoldsSecretIn(RealPath{Path: d}, reach) {
			parts = append(parts, NewPart(0, true, "reads its working directory "+Visible(d)))
		}
	}
	return parts
}

// pathLookers are the builtins that look names up on PATH in the shell's
// own process: what they print tells whether a PATH directory holds a
// name.
var pathLookers = setOf("type", "command", "hash")

// secretPathParts are the parts of a lookup on PATH as the step stands:
// each entry on the way is read (a name is looked for in it), so an entry
// that is, or is in, a secret place is a read of that place. Set on the
// step (PATH=L type NAME, L a link to ~/.ssh), such an entry told whether
// the store held a name, the lookup being the shell's own, unconfined
// (the twenty-ninth red team's).
func (r *classifying) secretPathParts() []Part {
	path := r.env.str("PATH")
	if parts, ok := r.secretPaths[path]; ok {
		return parts // each step of a script looks on the same PATH
	}
	var parts []Part
	for _, e := range r.pathEntries() {
		if e.Real == "" {
			continue
		}
		if rp := r.sh.Policy.Resolve("/", e.Real); r.sh.Policy.ClassRead(rp) == ClassSecret {
			parts = append(parts, NewPart(Of(Read), true, "a PATH entry in a secret place: "+Visible(e.Entry)))
		}
	}
	if r.secretPaths == nil {
		r.secretPaths = map[string][]Part{}
	}
	r.secretPaths[path] = parts
	return parts
}

// mayBePosix reports whether the command may run with POSIXLY_CORRECT
// in its environment (set to anything, empty too: getopt asks whether
// it is set): set in the shell, assigned before the command (sets), or
// after an earlier step changed the shell in a way the gate does not
// follow.
func (r *classifying) mayBePosix(sets []varSet) bool {
	if r.env.Get("POSIXLY_CORRECT").IsSet() || r.tainted != "" {
		return true
	}
	for _, s := range sets {
		if s.name == "POSIXLY_CORRECT" {
			return true
		}
	}
	return false
}
