package gate

import (
	"io/fs"
	"path"
	"strings"
)

// How a copy, move, link or removal acts on each of its words, where
// the table knows more than that the command writes them all (the
// thirty-first red team's false positives): cp reads its sources and
// writes only its destination; rm, unlink and mv's sources act on a link
// itself, never on what it points to; a destination directory the
// command makes entries in is judged by those entries (into.go), not as
// a write of the directory (the workspace root holds .git, and an
// ancestor of a protected entry is protected).

// wordRole is how a command acts on one of its words.
type wordRole uint8

const (
	// roleAsCommand: as the command's own effects say (facts.writes).
	roleAsCommand wordRole = iota
	// roleRead: read (cp's sources): secret when it is or holds a secret,
	// never outside or protected.
	roleRead
	// roleLink: written, a symlink as its last part being the link
	// itself (Policy.ResolveLink): rm, unlink, mv's sources, a link ln -n
	// or mv replaces.
	roleLink
	// roleInto: a destination cp makes entries in when it is an existing
	// directory (followed): then only the entries (facts.derived) are
	// judged; otherwise it is written, followed (cp writes through a
	// link to a file).
	roleInto
	// roleIntoLink: as roleInto for mv and ln, but a destination that is
	// no directory is written as a link itself (they replace it).
	roleIntoLink
	// roleIntoLinkOnly: as roleIntoLink for ln -n, which goes into a
	// real directory only, and replaces a link to one.
	roleIntoLinkOnly
)

// writesAs is whether the word is judged as written.
func (w wordRole) writesAs(writes bool) bool {
	switch w {
	case roleAsCommand:
		return writes
	case roleRead:
		return false
	}
	return true
}

// copyRoles are the roles of the words of cp, mv or ln (args: the words
// after the name), by index in args; a word with none is judged as the
// command's own effects say. Sources: cp reads them (but cp -l and -s,
// which make links to them, as ln does, write them), mv moves each as a
// link when it is one, ln's as before. The destination (the last
// operand, or -t's value when it is a word of its own): see roleInto;
// with -T (or what may be one) it is the name itself, written: followed
// for cp, as a link for mv and ln. A destination is judged by its entries
// only when every source gives one (`cp -r y/. DIR` writes into DIR
// itself). Options are read as GNU reads them: the caller drops the
// roles where POSIXLY_CORRECT may make an option word an operand.
//
// replaced are the entries intoPaths derives in a destination operand
// that mv or ln replaces rather than goes into (mv -T, ln -T, and ln -n
// when it is no real directory: then the destination, as a link, is
// judged), each with the index of that operand in args: call.go judges
// them but where the operand is a real directory ln -n goes into.
// -T and -n are read exactly, as getopt reads them (a T in -S.T is a
// suffix): a destination judged as a link where the command in fact
// goes through it would leave the entries made there unjudged.
func copyRoles(s optSpec, args []string, name string) (roles map[int]wordRole, replaced map[string]int) {
	a := s.read(args)
	sources, dests, byT, noTarget := copyOperands(s, a)
	parents := name == "cp" && a.hasLong(s, "parents")
	roles = map[int]wordRole{}
	var source, dest, elseDest wordRole
	switch name {
	case "cp":
		source, dest, elseDest = roleRead, roleInto, roleAsCommand
		if a.hasShort("ls") || a.hasLong(s, "link", "symbolic-link") {
			source = roleAsCommand // it links to them, as ln does
		}
	case "mv":
		source, dest, elseDest = roleLink, roleIntoLink, roleLink
	case "ln":
		source, dest, elseDest = roleAsCommand, roleIntoLink, roleLink
		if !byT && a.given(s, "n", "no-dereference") {
			dest = roleIntoLinkOnly // -t's directory is gone into, -n or not
		}
	}
	if noTarget || !everyEntryNamed(a, sources, parents) {
		dest = elseDest
	}
	for _, i := range sources {
		if source != roleAsCommand {
			roles[i] = source
		}
	}
	for _, i := range dests {
		if dest != roleAsCommand {
			roles[i] = dest
		}
		if !byT && name != "cp" && (noTarget || dest == roleIntoLinkOnly) {
			if replaced == nil {
				replaced = map[string]int{}
			}
			for _, src := range sources {
				replaced[strings.TrimRight(args[i], "/")+"/"+path.Base(strings.TrimRight(args[src], "/"))] = i
			}
		}
	}
	return roles, replaced
}

// copyOperands are the indexes in a.words of the sources and the
// destinations of cp, mv or ln: -t's values when they are words of
// their own (byT: -t given, the other operands all sources), else the
// last of two or more operands. noTarget: -T, read exactly (-t and -T
// together are refused).
func copyOperands(s optSpec, a argv) (sources, dests []int, byT, noTarget bool) {
	noTarget = a.given(s, "T", "no-target-directory")
	sources = a.operandAt
	byT = a.given(s, "t", "target-directory") || len(a.shortValues(s, 't')) > 0 || len(a.longValues(s, "target-directory")) > 0
	if byT {
		for _, ev := range a.events {
			if ev.valueAt >= 0 && (ev.letter == 't' || ev.long != "" && matchesOnly(s, ev.long, "target-directory")) {
				dests = append(dests, ev.valueAt)
			}
		}
		return sources, dests, true, false
	}
	if len(sources) >= 2 {
		dests = sources[len(sources)-1:]
		sources = sources[:len(sources)-1]
	}
	return sources, dests, false, noTarget
}

// matchesOnly reports whether the long option as written means only the
// name (exactly, or an abbreviation no other option shares).
func matchesOnly(s optSpec, long, name string) bool {
	ms := s.longMatches(long)
	return len(ms) == 1 && ms[0] == name
}

// everyEntryNamed reports whether every source (by index in a.words)
// gives the entry intoPaths derives in the destination, one that lies in
// it: a base name that is not "", ".", ".." or "/", and with --parents a
// path with no ".." part.
func everyEntryNamed(a argv, sources []int, parents bool) bool {
	for _, i := range sources {
		src := a.words[i]
		name := path.Base(strings.TrimRight(src, "/"))
		if parents {
			name = strings.TrimLeft(src, "/")
			for part := range strings.SplitSeq(name, "/") {
				if part == ".." {
					return false
				}
			}
		}
		if name == "" || name == "." || name == ".." || name == "/" {
			return false
		}
	}
	return true
}

// linkRoles gives every operand of rm or unlink roleLink: each removes
// the name it is given, a link and not what it points to (a trailing
// slash makes rm go into it: ResolveLink follows then).
func linkRoles(s optSpec, args []string) map[int]wordRole {
	a := s.read(args)
	roles := map[int]wordRole{}
	for _, i := range a.operandAt {
		roles[i] = roleLink
	}
	return roles
}

// resolveAs resolves the word c from the directory d as the role says:
// a link as its last part is the link itself for roleLink, and for a
// destination that is not a directory the command goes into (then
// resolveAs reports into, and the word is not judged: its entries are).
// through is the word resolved with its last link followed, when that
// differs: the link may be a middle link of a chain a secret or
// protected path resolves through (a settings file linked to a
// workspace link to a workspace file), and replacing or removing it
// changes what that path names, so its target's class, when secret or
// protected, is the link's too (not outside: removing a link to a build
// output changes only the workspace).
func (r *classifying) resolveAs(d, c string, role wordRole) (rp RealPath, through *RealPath, into bool) {
	pol := r.sh.Policy
	followed := pol.Resolve(d, c)
	switch role {
	case roleLink:
		rp = pol.ResolveLink(d, c)
	case roleInto, roleIntoLink, roleIntoLinkOnly:
		dir := followed
		if role == roleIntoLinkOnly {
			dir = pol.ResolveLink(d, c)
		}
		if !dir.Looped && dir.Problem == "" && pol.fs.Kind(dir.Path) == KindDir {
			return dir, nil, true
		}
		rp = followed
		if role != roleInto {
			rp = pol.ResolveLink(d, c)
		}
	default:
		rp = followed
	}
	r.reals = appendNew(r.reals, rp.Path)
	if rp.Path != followed.Path {
		through = &followed
	}
	return rp, through, false
}

// throughParts are the parts of a link's target (resolveAs's through)
// for a step that replaces or removes the link: secret or protected as
// its class is when written.
func (r *classifying) throughParts(t RealPath) []Part {
	switch r.sh.Policy.ClassWrite(t) {
	case ClassSecret:
		r.reals = appendNew(r.reals, t.Path)
		return []Part{NewPart(0, true, "replaces a link to "+Visible(t.Path))}
	case ClassProtected:
		r.reals = appendNew(r.reals, t.Path)
		return []Part{NewPart(Of(Protected), false, "replaces a link to "+Visible(t.Path))}
	}
	return nil
}

// goneInto are the directories of dirs from which the command goes into
// the destination word rather than replace it (facts.replaced): none for
// mv -T and ln -T (roleLink), those where it names a real directory for
// ln -n (roleIntoLinkOnly).
func (r *classifying) goneInto(dest string, role wordRole, dirs []string) []string {
	if role != roleIntoLinkOnly {
		return nil
	}
	var out []string
	for _, d := range dirs {
		if rp := r.sh.Policy.ResolveLink(d, dest); rp.Looped || rp.Problem != "" || r.sh.Policy.fs.Kind(rp.Path) == KindDir {
			out = append(out, d)
		}
	}
	return out
}

// copyTreeParts are the parts of the trees a recursive copy makes (cp
// -r, -R, -a): each source directory's entries carried, by the names
// they have below it, under the entry the copy makes of it (DEST/NAME
// when it goes into DEST, or DEST itself: -T, a DEST that does not
// exist, `cp -r y/. DEST`). A copy of a tree that holds a .git, a bin or
// another eukhe's files plants them there, protected or secret by name
// wherever they land (pathHolds), as a recursive write of the tree at
// DEST would be judged (tree.go); outside is the destination's own, its
// word's. The source is walked as the copy goes through it, links not
// followed (cp -rL's are: walkParts) but judged where they land as ln
// -s's are (copiedLink), within the step's bound: past it,
// or with no ReadDir, the copy is protected, as a tree the gate cannot
// walk. roles are the words' roles (copyRoles); none (POSIXLY_CORRECT),
// and the copy is not walked.
func (r *classifying) copyTreeParts(args []string, roles map[int]wordRole, dirs []string) []Part {
	if len(roles) == 0 {
		return nil
	}
	pol := r.sh.Policy
	a := cpOpts.read(args)
	sources, dests, _, noTarget := copyOperands(cpOpts, a)
	parents := a.hasLong(cpOpts, "parents")
	w := &walker{r: r, writes: true, left: maxWalk, seen: map[string]bool{}, kinds: map[Part]int{}}
	var held Effects
	cannot := false
	for _, di := range dests {
		dest := args[di]
		for _, d := range dirs {
			_, _, into := r.resolveAs(d, dest, roleInto)
			into = into && !noTarget && roles[di] == roleInto
			for _, si := range sources {
				src := pol.Resolve(d, args[si])
				if src.Looped || src.Problem != "" || pol.fs.Kind(src.Path) != KindDir {
					continue
				}
				entry := dest
				if into {
					name := path.Base(strings.TrimRight(args[si], "/"))
					if parents {
						name = strings.TrimLeft(args[si], "/")
					}
					entry = strings.TrimRight(dest, "/") + "/" + name
				}
				if r.sh.ReadDir == nil {
					cannot = true
					continue
				}
				top := pol.Resolve(d, entry)
				w.copyTree(src.Path, top.Path, &held)
			}
		}
	}
	if (cannot || w.overrun) && !Of(Protected, Secret).SubsetOf(held) {
		w.parts = append(w.parts, NewPart(Of(Protected), false, "it copies a tree the gate cannot walk whole"))
	}
	return w.parts
}

// copyTree walks the real directory src, depth first, links not
// followed, judging each entry by the path it takes under top (pathHolds:
// protected and secret only); held gathers the classes found, and the
// walk stops once it holds both.
func (w *walker) copyTree(src, top string, held *Effects) {
	both := Of(Protected, Secret)
	if w.seen[src] || w.overrun || both.SubsetOf(*held) {
		return
	}
	w.seen[src] = true
	entries, err := w.r.sh.ReadDir(src)
	if err != nil {
		return
	}
	for _, e := range entries {
		if both.SubsetOf(*held) {
			return
		}
		if w.left == 0 {
			w.overrun = true
			return
		}
		w.left--
		to := top + "/" + e.Name()
		if top == "/" {
			to = "/" + e.Name()
		}
		own, secret := w.r.sh.Policy.pathHolds(RealPath{Path: to})
		own = own.Without(Outside)
		*held = held.Union(own)
		if secret {
			*held = held.With(Secret)
		}
		if !own.Empty() || secret {
			part := NewPart(own, secret, "")
			if w.kinds[part] < maxWalkParts {
				w.kinds[part]++
				part.Why = "copies a tree that makes " + Visible(to)
				w.parts = append(w.parts, part)
			}
		}
		p := src + "/" + e.Name()
		if src == "/" {
			p = "/" + e.Name()
		}
		if e.Type()&fs.ModeSymlink != 0 {
			w.copiedLink(p, top, to, held)
		} else if e.IsDir() {
			w.copyTree(p, to, held)
		}
	}
}

// copiedLink judges a link the copy carries (cp -r copies a link as a
// link, its target as written): a link made at to, whose target is read
// from its directory top, as ln -s's target is judged — secret or
// protected as the target is when written (not outside: a tree's links
// to a toolchain or a store are everyday).
func (w *walker) copiedLink(link, top, to string, held *Effects) {
	pol := w.r.sh.Policy
	target, err := pol.fs.Readlink(link)
	if err != nil || target == "" {
		return
	}
	rp := pol.Resolve(top, target)
	cl := pol.ClassWrite(rp)
	secret := cl == ClassSecret || pol.HoldsSecret(rp)
	var own Effects
	if cl == ClassProtected {
		own = Of(Protected)
	}
	*held = held.Union(own)
	if secret {
		*held = held.With(Secret)
	}
	if !own.Empty() || secret {
		part := NewPart(own, secret, "")
		if w.kinds[part] < maxWalkParts {
			w.kinds[part]++
			part.Why = "copies a link " + Visible(to) + " to " + Visible(rp.Path)
			w.parts = append(w.parts, part)
		}
	}
}
