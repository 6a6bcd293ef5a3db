package gate

import (
	"io/fs"
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
	lost  bool
	depth int
	steps []Step
	// pipelines are the statements of the pipelines so far, by number.
	pipelines []*syntax.Stmt
	// reals are the real paths the step being classified has resolved so
	// far: its words, redirections, cd targets and walked roots. A grant
	// is for these (gate/route grant.go).
	reals []string
	// paths are the judged entries of each PATH value a step looked up,
	// and secretPaths the parts its entries in secret places give.
	paths       map[string][]PathEntry
	secretPaths map[string][]Part
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
	// PWD as the interpreter sets it: the system's spelling (C:\w on
	// Windows), under which expand reads a relative glob's directory. In
	// the gate's form (/C:/w) that read failed on Windows, so every word
	// that globbed was exec and shown as written — `ls *.go`, and `echo
	// $?` too, whose runtime marker holds a '?' (env.go) — and $PWD was
	// shown as no run prints it.
	r.env.setString("PWD", NativePath(dir))
	return r
}

// readDir lists a directory the gate names in its form (a RealPath's)
// with the Shell's ReadDir, which opens the system's spelling
// (NativePath): on Windows, os.ReadDir("/C:/w") finds no path, and each
// walk of a tree saw nothing under it.
func (r *classifying) readDir(dir string) ([]fs.DirEntry, error) {
	return r.sh.ReadDir(NativePath(dir))
}

func (r *classifying) child() *classifying {
	c := &classifying{sh: r.sh, env: r.env.clone(), cwds: append([]string(nil), r.cwds...),
		lex: append([]string(nil), r.lex...), tainted: r.tainted, lost: r.lost, depth: r.depth + 1}
	return c
}

func (r *classifying) home() string { return r.env.str("HOME") }

// pathEntries are the judged entries of PATH as the script stands here.
func (r *classifying) pathEntries() []PathEntry {
	path := r.env.str("PATH")
	entries, ok := r.paths[path]
	if !ok {
		entries = r.sh.PathSeen.Judge(r.sh.Policy, path)
		if r.paths == nil {
			r.paths = map[string][]PathEntry{}
		}
		r.paths[path] = entries
	}
	return entries
}

// lookCommand is where the shell will find the command name on PATH as
// the script stands here (LookCommand); a builtin is never looked up.
func (r *classifying) lookCommand(name string) (Found, bool) {
	if interp.IsBuiltin(name) {
		return Found{}, false
	}
	f, ok := r.sh.Policy.LookCommand(name, r.pathEntries(), r.env.str("PATHEXT"))
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
	return Script{Grammar: true, Steps: r.steps, Pipelines: r.pipelines}
}

func (r *classifying) walk(s *syntax.Stmt, group int) {
	if b, ok := s.Cmd.(*syntax.BinaryCmd); ok {
		if b.Op == syntax.Pipe {
			if group < 0 {
				group = r.newGroup(s)
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
		group = r.newGroup(s)
	}
	var st Step
	switch c := s.Cmd.(type) {
	case *syntax.CallExpr:
		st = r.call(c.Assigns, c.Args, s.Redirs, "", true)
		if len(c.Args) > 0 {
			st.At = c.Args[0].Pos()
		}
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

// newGroup numbers a new pipeline, the statement s.
func (r *classifying) newGroup(s *syntax.Stmt) int {
	r.pipelines = append(r.pipelines, s)
	return len(r.pipelines) - 1
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
		for _, p := range splitPathList(cdpath) {
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
	r.env.setString("PWD", NativePath(next))
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
