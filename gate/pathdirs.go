package gate

import (
	"os"
	"strings"
	"sync"
)

// PATH entries (law path_entry_judged). A command word without a "/" is
// a program the interpreter finds on PATH, and where it finds it decides
// what it runs: a planted `ls` in a PATH directory the agent can write
// runs as a "read" step. So each entry is judged before a step runs,
// again at every step (a directory can appear between two steps):
//
//   - relative, or empty (which means "."): dropped. It finds commands
//     wherever the step stands (`cd sub && sort` runs sub/sort), so no
//     judgment of the word `sort` can hold. A program is run from the
//     workspace as ./name, which the gate judges exec.
//   - absolute but missing (or not a directory): dropped. The sandbox
//     can mount only what exists read-only, so a program could make it
//     and plant `ls` there for the next step.
//   - existing, with its real path in a root: kept, and a command found
//     there is exec, as ./name is (the workspace is the agent's to
//     write). A process whose step may not exec gets a PATH without it.
//   - existing outside the roots, but missing when the session looked
//     earlier (PathSeen): kept, and a command found there is exec too —
//     a step made it (or someone did) after the session began.
//   - existing outside the roots since the session first looked: kept,
//     judged by the command table.
//
// We chose dropping over blocking in the sandbox: a directory that does
// not exist cannot be mounted, blocking its creation would need a mount
// over its parent (the home, the workspace), and a relative entry names
// a different directory at every cd. Dropped, it finds nothing, and the
// lookup the gate judges is the one that runs: LookCommand, called by
// the classifier and by the shell's exec handler over the same entries.

// PathKind is what one PATH entry is when a step is judged.
type PathKind uint8

const (
	// PathOutside is an existing directory outside the roots, there since
	// the session first looked.
	PathOutside PathKind = iota
	// PathRelative is a relative or empty entry: found from the step's
	// working directory.
	PathRelative
	// PathMissing is an absolute entry with no directory there now.
	PathMissing
	// PathInRoots is an existing directory whose real path is in a root.
	PathInRoots
	// PathAppeared is an existing directory outside the roots that was
	// missing when the session looked before.
	PathAppeared
)

func (k PathKind) String() string {
	switch k {
	case PathRelative:
		return "relative"
	case PathMissing:
		return "missing"
	case PathInRoots:
		return "inside the workspace"
	case PathAppeared:
		return "made during the session"
	}
	return "outside the workspace"
}

// PathEntry is one entry of PATH, judged.
type PathEntry struct {
	// Entry is the entry as written.
	Entry string
	// Real is the real path of an absolute entry.
	Real string
	Kind PathKind
}

// Kept reports whether the entry stays on the step's PATH: relative and
// missing entries are dropped.
func (e PathEntry) Kept() bool { return e.Kind != PathRelative && e.Kind != PathMissing }

// SuppliesExec reports whether a command found in the entry is exec,
// whatever the command table says of its name.
func (e PathEntry) SuppliesExec() bool { return e.Kind == PathInRoots || e.Kind == PathAppeared }

// Why is the entry's judgment for a person: what it is and what eukhe
// does with it.
func (e PathEntry) Why() string {
	shown := Visible(e.Entry)
	if e.Entry == "" {
		shown = `"" (the working directory)`
	}
	switch e.Kind {
	case PathRelative:
		return shown + ": relative, dropped (it finds commands wherever the step stands; run such a program as ./name)"
	case PathMissing:
		return shown + ": missing, dropped (a program could make it and plant a command there; it is used once it exists, at a later step)"
	case PathInRoots:
		return shown + ": inside the workspace, kept; a command found there is exec"
	case PathAppeared:
		return shown + ": made during the session, kept; a command found there is exec"
	}
	return shown + ": kept"
}

// JudgePath judges each entry of the PATH value path, in order.
// missingBefore reports whether an absolute entry (cleaned) was missing
// when the session looked before; nil means never. An empty value is one
// empty entry, as the interpreter reads it (the working directory).
func (p *Policy) JudgePath(path string, missingBefore func(string) bool) []PathEntry {
	parts := splitPathList(path)
	out := make([]PathEntry, 0, len(parts))
	for _, d := range parts {
		e := PathEntry{Entry: d}
		if !absEntry(d) {
			e.Kind = PathRelative
			out = append(out, e)
			continue
		}
		rp := p.Resolve("/", d)
		e.Real = rp.Path
		switch {
		case rp.Looped || p.fs.Kind(rp.Path) != KindDir:
			e.Kind = PathMissing
		case p.viaRoots(d):
			e.Kind = PathInRoots
		case missingBefore != nil && missingBefore(cleanAbs("/", d)):
			e.Kind = PathAppeared
		}
		out = append(out, e)
	}
	return out
}

func (p *Policy) inRoots(real string) bool {
	for _, r := range p.roots {
		if under(real, r) {
			return true
		}
	}
	return false
}

// KeptPath is the PATH value of the kept entries; with exec false, the
// entries that supply exec are left out too (a process whose step may
// not exec must not find a program in them either).
func KeptPath(entries []PathEntry, exec bool) string {
	var kept []string
	for _, e := range entries {
		if e.Kept() && (exec || !e.SuppliesExec()) {
			kept = append(kept, e.Entry)
		}
	}
	return strings.Join(kept, ":")
}

// Found is where the shell finds a command on PATH.
type Found struct {
	// Path is the program as the shell runs it: the entry joined with the
	// name.
	Path string
	// Entry is the PATH entry that supplied it.
	Entry PathEntry
	// Exec: the program is exec whatever its name, since the entry
	// supplies exec, or the program's way there passes through a root
	// (a link in the workspace the agent can repoint), or it is a script.
	Exec bool
	// Script: the file found is a script the system runs by its
	// extension (Windows: a .bat or .cmd that PATHEXT finds for the name,
	// which cmd.exe runs), not the program the command table describes.
	Script bool
}

// Why is what the user is shown of a program found so, "" when it is not
// exec for where it was found.
func (f Found) Why() string {
	if !f.Exec {
		return ""
	}
	if f.Script {
		return "the program " + Visible(f.Path) + " is a script, whatever its name: the command table does not describe it"
	}
	where := "PATH entry " + Visible(f.Entry.Entry) + " " + f.Entry.Kind.String()
	if !f.Entry.SuppliesExec() {
		where = "a link through the workspace"
	}
	return "the program " + Visible(f.Path) + " is found through " + where
}

// LookCommand is where the shell finds the command name (no path in
// it) among the kept entries, as the interpreter's lookup does (os.Stat:
// the first entry holding an executable file of that name, a directory
// skipped; on Windows the name with each extension of pathext, PATHEXT's
// value: lookcmd_windows.go); ok is false when none does. A name that is
// a path is not looked up. The classifier and the shell's exec handler
// both call it, so the program judged is the program that runs.
func (p *Policy) LookCommand(name string, entries []PathEntry, pathext string) (Found, bool) {
	if name == "" || NamesPath(name) {
		return Found{}, false
	}
	for _, e := range entries {
		if !e.Kept() {
			continue
		}
		if cand, ok := p.programIn(e.Entry, name, pathext); ok {
			script := scriptProgram(cand)
			return Found{Path: cand, Entry: e, Script: script,
				Exec: script || e.SuppliesExec() || p.viaRoots(policyPath(p.fs, cand))}, true
		}
	}
	return Found{}, false
}

// viaRoots reports whether resolving the absolute path visits a root:
// its real path, or any link on the way, lies in one (a link the agent
// can repoint between the judgment and the run). More links than
// MaxLinks count as visiting one.
func (p *Policy) viaRoots(path string) bool {
	pending := splitPath(path)
	cur, links := "/", 0
	for len(pending) > 0 {
		c := pending[0]
		pending = pending[1:]
		switch c {
		case ".":
			continue
		case "..":
			cur = parentOf(cur)
			continue
		}
		next := strings.TrimSuffix(cur, "/") + "/" + c
		if p.inRoots(next) {
			return true
		}
		if p.fs.Kind(next) == KindLink {
			if links++; links > MaxLinks {
				return true
			}
			t, err := p.fs.Readlink(next)
			if err != nil {
				return false
			}
			if strings.HasPrefix(t, "/") {
				cur = "/"
			}
			pending = append(splitPath(t), pending...)
			continue
		}
		cur = next
	}
	return false
}

// executable reports whether path is an executable file, following
// links: by its mode on the host's filesystem (runnableMode: Windows
// has no execute bit), by its kind on another.
func (p *Policy) executable(path string) bool {
	if _, host := p.fs.(osFS); host {
		fi, err := os.Stat(path)
		return err == nil && !fi.IsDir() && runnableMode(fi.Mode())
	}
	rp := p.Resolve("/", path)
	return !rp.Looped && p.fs.Kind(rp.Path) == KindFile
}

// PathSeen is what a session saw of PATH: every absolute entry it found
// missing. One that exists later appeared during the session
// (PathAppeared). The zero value is ready; it is safe for concurrent use.
type PathSeen struct {
	mu      sync.Mutex
	missing map[string]bool
}

// Judge is Policy.JudgePath against what the session saw, and it
// records each entry found missing now. A nil PathSeen records nothing.
func (s *PathSeen) Judge(p *Policy, path string) []PathEntry {
	if s == nil {
		return p.JudgePath(path, nil)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	entries := p.JudgePath(path, func(d string) bool { return s.missing[d] })
	for _, e := range entries {
		if e.Kind == PathMissing {
			if s.missing == nil {
				s.missing = map[string]bool{}
			}
			s.missing[cleanAbs("/", e.Entry)] = true
		}
	}
	return entries
}
