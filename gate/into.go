package gate

import (
	"path"
	"slices"
	"strings"
)

// Names a step makes that no word shows whole (the twenty-seventh red
// team's): a copy, move or link into a directory makes each source's
// base name there (`cp -r eukhe-4242 OUT/` makes OUT/eukhe-4242), and
// `cp --parents` its whole path; `mkdir -p` makes every component of its
// operand, those a later ".." cancels too (`mkdir -p OUT/eukhe/..`). Each
// is judged as a path the step writes, so a name that is protected or
// secret — another eukhe's directory outside the roots, a .git — asks.

// intoPaths are the names a cp, mv or ln makes in its target directory
// (the last operand, or -t's): each source operand's base name, or with
// --parents its whole path; with lone (ln), a single operand's base name
// in the current directory.
func intoPaths(s optSpec, args []string, parents, lone bool) []string {
	a := s.read(args)
	// -T (no target directory) is not read: with it the last operand is
	// the name itself, and a name in it is judged too, which only asks
	// more. Read, it made names vanish: a T in another option's value
	// (-S.T: the twenty-eighth red team's), or a -T that POSIXLY_CORRECT
	// makes an operand after the first one (the twenty-ninth's). Where
	// mv -T, ln -T or ln -n replaces a link rather than go into it, the
	// call leaves those names unjudged (copyRoles: facts.replaced), with
	// -T and -n read exactly and never where POSIXLY_CORRECT may be set.
	dirs := append(a.shortValues(s, 't'), a.longValues(s, "target-directory")...)
	sources := a.operands
	if len(dirs) == 0 {
		if len(a.operands) == 1 && lone {
			// ln with one operand makes its base name in the current
			// directory (the twenty-eighth red team's)
			dirs = []string{"."}
		} else if len(a.operands) < 2 {
			return nil
		}
		if len(a.operands) >= 2 {
			dirs = a.operands[len(a.operands)-1:]
			sources = a.operands[:len(a.operands)-1]
		}
	}
	var out []string
	for _, src := range sources {
		name := path.Base(strings.TrimRight(src, "/"))
		if parents {
			name = strings.TrimLeft(src, "/")
		}
		if name == "" || name == "." || name == "/" {
			continue
		}
		for _, d := range dirs {
			out = append(out, strings.TrimRight(d, "/")+"/"+name)
		}
	}
	return out
}

// mkdirOpts are mkdir's options that take a value.
var mkdirOpts = optSpec{
	valueShort: "m",
	valueLong:  []string{"mode", "context"},
	known:      []string{"parents", "verbose", "help", "version"},
}

// mkdirParents are the directories `mkdir -p` makes on the way to an
// operand that its cleaned word does not show: a prefix a later ".."
// cancels (`mkdir -p OUT/eukhe/..` makes OUT/eukhe), and a prefix named
// as another eukhe's directory (its name rule looks at a path's last
// part). Every other prefix the word shows as a directory above the path
// it names, judged with it; most exist already, and mkdir -p leaves them.
func mkdirParents(args []string) []string {
	a := mkdirOpts.read(args)
	if !a.hasShort("p") && !a.hasLong(mkdirOpts, "parents") {
		return nil
	}
	var out []string
	for _, o := range a.operands {
		parts := strings.Split(o, "/")
		for i := 1; i < len(parts); i++ {
			last := parts[i-1]
			if last == "" || last == "." || last == ".." {
				continue
			}
			prefix := strings.Join(parts[:i], "/")
			if slices.Contains(parts[i:], "..") || eukheDirName(strings.ToLower(last)) ||
				strings.HasSuffix(strings.ToLower(prefix), "eukhe/run") {
				out = append(out, prefix)
			}
		}
	}
	return out
}
