package gate

import "io/fs"

// Recursive writes: rm -r, chmod/chown/chgrp -R and find -delete write
// every entry below each directory they name, links not followed. The
// class of a path is one class, the first of Secret, Protected, Inside
// and Outside (G1.2): it stands for that path, never for what lies below
// it. So a recursive write of a directory is judged by what its tree
// holds (a_recursive_write_has_each_entrys_effects): first by the places
// the policy names (treeHolds: "/" holds the secret entries, the
// protected ones and places outside every root, with no walk), then by
// a walk of the tree as the command will go through it (a .git, a bin,
// another eukhe's files are protected or secret by name, wherever they
// are). The walk judges each entry by its path; a hard link's other
// names are not looked up there (removing a name leaves the file's other
// names as they were). It shares the step's bound (maxWalk): past it, a
// named entry may lie in what the walk did not see, so the step is
// protected, and secret too when the tree lies outside the roots.

// treeParts gives the parts of what the trees a recursive write names
// hold: each word's real path in each directory the step may run in
// (a word whose role is roleLink resolved as one: rm -r of a link
// removes the link), and its working directories when it writes them
// (cwd: find -delete with no starting point).
func (r *classifying) treeParts(words []string, options []bool, roles map[int]wordRole, dirs, cwd []string) []Part {
	pol := r.sh.Policy
	var tops []string
	for i, word := range words {
		for _, c := range candidates(word, r.home(), options[i]) {
			for _, d := range dirs {
				var rp RealPath
				if roles[i] == roleLink && c == word && !options[i] {
					rp, _, _ = r.resolveAs(d, c, roleLink)
				} else {
					rp = r.resolve(d, c)
				}
				if !rp.Looped && rp.Problem == "" && pol.fs.Kind(rp.Path) == KindDir {
					tops = appendNew(tops, rp.Path)
				}
			}
		}
	}
	for _, d := range cwd {
		tops = appendNew(tops, d)
	}
	w := &walker{r: r, writes: true, left: maxWalk, seen: map[string]bool{}, kinds: map[Part]int{}}
	var held Effects // Outside, Protected and Secret, as found
	outsideRoots := false
	for _, top := range tops {
		own, secret := pol.treeHolds(RealPath{Path: top})
		if !own.Empty() || secret {
			w.parts = append(w.parts, NewPart(own, secret, "writes what "+Visible(top)+" holds"))
		}
		held = held.Union(own)
		if secret {
			held = held.With(Secret)
		}
		outsideRoots = outsideRoots || !underAny(top, pol.roots)
	}
	all := Of(Outside, Protected, Secret)
	if r.sh.ReadDir == nil {
		if !all.SubsetOf(held) {
			w.parts = append(w.parts, NewPart(Of(Protected), outsideRoots,
				"it writes a tree the gate cannot walk"))
		}
		return w.parts
	}
	for _, top := range tops {
		if all.SubsetOf(held) {
			break // nothing a walk finds adds to the step
		}
		w.plainTree(top, &held)
	}
	if w.overrun && !all.SubsetOf(held) {
		w.parts = append(w.parts, NewPart(Of(Protected), outsideRoots,
			"it writes a tree larger than the gate walks"))
	}
	return w.parts
}

// plainTree walks one real directory, depth first, links not followed,
// judging each entry by its path; held gathers the classes found, and
// the walk stops once it holds them all.
func (w *walker) plainTree(dir string, held *Effects) {
	all := Of(Outside, Protected, Secret)
	if w.seen[dir] || w.overrun || all.SubsetOf(*held) {
		return
	}
	w.seen[dir] = true
	entries, err := w.r.readDir(dir)
	if err != nil {
		return
	}
	pol := w.r.sh.Policy
	for _, e := range entries {
		if all.SubsetOf(*held) {
			return
		}
		if w.left == 0 {
			w.overrun = true
			return
		}
		w.left--
		p := dir + "/" + e.Name()
		if dir == "/" {
			p = "/" + e.Name()
		}
		if _, ok := StreamFD(p); ok {
			continue // a standard stream's alias, as judgeWord skips it
		}
		rp := RealPath{Path: p}
		own, secret := pol.pathHolds(rp)
		*held = held.Union(own)
		if secret {
			*held = held.With(Secret)
		}
		if !own.Empty() || secret {
			part := NewPart(own, secret, "")
			if w.kinds[part] < maxWalkParts {
				w.kinds[part]++
				part.Why = "writes " + Visible(p)
				w.parts = append(w.parts, part)
			}
		}
		if secret && pol.Class(rp) == ClassSecret {
			// below a secret place every path is secret: what the
			// policy names there stands for it
			o, _ := pol.treeHolds(rp)
			*held = held.Union(o)
			if !o.Empty() {
				w.parts = append(w.parts, NewPart(o, true, "writes what "+Visible(p)+" holds"))
			}
			continue
		}
		if e.Type()&fs.ModeSymlink == 0 && e.IsDir() {
			w.plainTree(p, held)
		}
	}
}

// pathHolds is what a write of the path itself is, as a word of a
// writing step is judged (judgeWord), but by its path alone: outside or
// protected by its class, secret when it is or holds a secret or lies
// above a user settings file or is another eukhe's directory.
func (p *Policy) pathHolds(r RealPath) (own Effects, secret bool) {
	cl := p.Class(r)
	switch cl {
	case ClassOutside:
		own = Of(Outside)
	case ClassProtected:
		own = Of(Protected)
	}
	secret = cl == ClassSecret || p.HoldsSecret(r) || p.aboveGateFile(r.Path) || p.eukheDirOutside(r.Path)
	return own, secret
}

// treeHolds is what the places the policy names say of the tree at r
// (r and everything below it), with no walk: secret when it is, holds
// or lies above a secret place (a user settings file too); protected
// when it is protected or holds a protected place (an entry, a rule's
// path: the home of a dot-rule); outside when it lies under no root and
// a rule does not cover all of it (a secret place, a protected tree, a
// protected name in its path; a home's configuration, but for the
// writable places below it: HomeWritable). What lies below by name alone
// (a .git, a bin) only a walk finds.
func (p *Policy) treeHolds(r RealPath) (own Effects, secret bool) {
	path := r.Path
	n := namesAt(p.fs, path)
	secret = p.classOf(r, false) == ClassSecret || p.HoldsSecret(r) || p.aboveGateFile(path) || p.eukheDirOutside(path)
	rules, _ := p.allRules()
	protected := p.protectsAs(path, n)
	for _, rule := range rules {
		if !protected && rule.Path != "" && rule.Kind != NamedRule && rule.Kind != EndRule && n.above(path, rule.Path) {
			protected = true
		}
	}
	if protected {
		own = own.With(Protected)
	}
	if p.holdsOutside(r, n, rules) {
		own = own.With(Outside)
	}
	return own, secret
}

// holdsOutside tells whether the tree at r may hold a place outside
// every root: see treeHolds.
func (p *Policy) holdsOutside(r RealPath, n names, rules []Rule) bool {
	path := r.Path
	if !r.Looped && underAny(path, p.roots) {
		return false
	}
	if p.classOf(r, false) == ClassSecret {
		return false
	}
	below := ""
	for _, rule := range rules {
		switch rule.Kind {
		case TreeRule:
			if n.below(path, rule.Path) {
				return false
			}
		case NamedRule:
			if below == "" {
				below = p.belowRoot(path)
			}
			if hasPart(below, rule.Name, n) {
				return false
			}
		case DotRule:
			rest, ok := n.cut(path, rule.Path)
			if !ok || !n.dotCovers(rule.Name, rest) {
				continue
			}
			// covered, unless a writable place lies at or below it
			at := path2(rule.Name, rest)
			writable := false
			for _, w := range HomeWritable {
				if w == at || len(w) > len(at) && w[:len(at)] == at && w[len(at)] == '/' {
					writable = true
					break
				}
			}
			if !writable {
				return false
			}
		}
	}
	return true
}
