package gate

import "io/fs"

// Recursion that follows links: grep -R, rg -L, find
// -L, ls -LR, du -L, cp -rL, chmod -RL, diff -r, tar -h read (or change)
// what each symlink under the trees they name resolves to. The gate walks
// those trees as it judges the step, following links as the command will,
// and judges each link's real path as the command's own word: secret when
// it is or holds a secret; for a command that writes, outside and
// protected by its class. The walk is bounded: past maxWalk entries (or
// with no ReadDir to walk with) the gate cannot tell what the command will
// reach, and the step is exec and secret.

// maxWalk bounds the entries one step's walk visits.
const maxWalk = 10000

// walker is one step's walk: what it has visited and what is left.
type walker struct {
	r       *classifying
	writes  bool
	left    int
	seen    map[string]bool
	kinds   map[Part]int
	parts   []Part
	overrun bool
}

// walkParts walks each directory a following step names (the words'
// paths in each directory it may run in, and its working directories when
// it reads them) and gives the parts of what the links under them reach.
func (r *classifying) walkParts(words []string, options []bool, dirs []string, readsCwd []string, writes bool) []Part {
	w := &walker{r: r, writes: writes, left: maxWalk, seen: map[string]bool{}, kinds: map[Part]int{}}
	if r.sh.ReadDir == nil {
		return []Part{NewPart(Of(Exec), true, "it follows links under a tree the gate cannot walk")}
	}
	var roots []string
	for i, word := range words {
		for _, c := range candidates(word, r.home(), options[i]) {
			for _, d := range dirs {
				roots = appendNew(roots, r.resolve(d, c).Path)
			}
		}
	}
	for _, d := range readsCwd {
		roots = appendNew(roots, d)
	}
	for _, root := range roots {
		rp := RealPath{Path: root}
		if r.sh.Policy.Class(rp) == ClassSecret || r.sh.Policy.HoldsSecret(rp) {
			continue // the word gives the step secret already
		}
		if r.sh.Policy.fs.Kind(root) == KindDir {
			w.tree(root)
		}
	}
	if w.overrun {
		w.parts = append(w.parts, NewPart(Of(Exec), true,
			"it follows links under a tree larger than the gate walks"))
	}
	return w.parts
}

// tree walks one real directory, depth first, and each directory a link
// under it resolves to.
func (w *walker) tree(dir string) {
	if w.seen[dir] || w.overrun {
		return
	}
	w.seen[dir] = true
	entries, err := w.r.readDir(dir)
	if err != nil {
		return
	}
	pol := w.r.sh.Policy
	for _, e := range entries {
		if w.left == 0 {
			w.overrun = true
			return
		}
		w.left--
		p := dir + "/" + e.Name()
		if dir == "/" {
			p = "/" + e.Name()
		}
		rp := RealPath{Path: p}
		// The entry's type as the listing gives it spares a stat.
		link := e.Type()&fs.ModeSymlink != 0
		if link {
			rp = pol.Resolve(dir, e.Name())
		}
		if link || w.writes {
			w.judge(rp)
		}
		if link && (pol.Class(rp) == ClassSecret || pol.HoldsSecret(rp)) {
			continue // secret already; what lies below adds nothing
		}
		if (!link && e.IsDir()) || (link && !rp.Looped && pol.fs.Kind(rp.Path) == KindDir) {
			w.tree(rp.Path)
		}
	}
}

// judge gives the parts of one path the walk reaches.
func (w *walker) judge(rp RealPath) {
	if _, ok := StreamFD(rp.Path); ok {
		return
	}
	pol := w.r.sh.Policy
	cl := pol.Class(rp)
	if w.writes {
		cl = pol.ClassWrite(rp)
	}
	secret := cl == ClassSecret || pol.HoldsSecret(rp)
	var own Effects
	if w.writes {
		switch cl {
		case ClassOutside:
			own = Of(Outside)
		case ClassProtected:
			own = Of(Protected)
		}
	}
	if !secret && own.Empty() {
		return
	}
	p := NewPart(own, secret, "")
	if w.kinds[p] >= maxWalkParts {
		return
	}
	w.kinds[p]++
	p.Why = "follows links to " + Visible(rp.Path)
	w.parts = append(w.parts, p)
}

// maxWalkParts bounds the parts of one kind a walk gives: the first few
// paths say why; the effects are the same.
const maxWalkParts = 4
