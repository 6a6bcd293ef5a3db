package gate

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"sync"
)

// Hard links: a protected file may have other names — a link
// to .git/config unpacked from a tarball into the tree. Writing through
// such a name (tee -a cfg, >> cfg, the write tool) writes .git/config, yet
// the name's path is Inside. So a write to a regular file with more than
// one name is judged by what the file is: Protected when its device and
// inode are those of a file below a protected entry (ClassWrite), and
// the sandbox binds each such name read-only (ProtectedLinks).
//
// Only regular files with nlink > 1 can be such a name, so nothing is
// looked up for the usual file. Both searches are bounded (MaxLinkWalk
// entries): the gate, past the bound, judges the file Protected (it asks);
// the sandbox, past the bound, binds what it found.

// Inode is a regular file's device, inode number and number of names,
// and when its status last changed (ctime, in ns; 0 when not known): a
// link made to it sets that time, so a walk older than it may not know
// the new name.
type Inode struct {
	Dev, Ino, Nlink uint64
	Changed         int64
}

// sameNames reports whether two looks at a file met the same file with
// the same number of names (its change time aside: a write changes it).
func (in Inode) sameNames(o Inode) bool {
	return in.Dev == o.Dev && in.Ino == o.Ino && in.Nlink == o.Nlink
}

// InodeFS is an FS that also tells a regular file's inode and a
// directory's device (both without following a last link). OS is one; a
// test's map may not be, and then no file has other names.
type InodeFS interface {
	FS
	Inode(path string) (Inode, bool)
	DirDev(path string) (uint64, bool)
	// Names are a directory's entries' names, sorted.
	Names(dir string) ([]string, error)
}

// kindLister is an InodeFS that also lists a directory's entries with
// their kinds (the OS, from the directory itself): a walk then looks only
// at what it must (a regular file's inode, a directory's device).
type kindLister interface {
	NamesKinds(dir string) ([]string, []Kind, error)
}

// namesKinds lists dir with the kind of each entry when fsys can say it
// (KindMissing for each otherwise: look).
func namesKinds(fsys InodeFS, dir string) ([]string, []Kind, error) {
	if k, ok := fsys.(kindLister); ok {
		return k.NamesKinds(dir)
	}
	names, err := fsys.Names(dir)
	return names, make([]Kind, len(names)), err
}

// linkWalker is an InodeFS that walks for linkWalk itself (the OS:
// relative to each directory's descriptor, linkwalk_unix.go).
type linkWalker interface {
	walkLinks(top string, depth int, devs map[uint64]bool, skip func(string) bool, budget *int, visit func(string, Inode) bool) (bool, string)
}

// MaxLinkWalk is how many entries one search for a file's other names
// looks at.
const MaxLinkWalk = 200000

// MaxHomeLinkWalk is how many entries the walks of the protected places
// outside the roots (the home's configuration, searched whole) look at in
// one search, apart from MaxLinkWalk: a developer's home holds toolchains
// (~/.rustup, ~/.pyenv: over 100,000 entries each). The walks are kept a
// while (links_tops.go), so a session pays this about once a minute.
const MaxHomeLinkWalk = 1000000

type fileID struct{ dev, ino uint64 }

// linkWalk visits each regular file with nlink > 1 at or below top (at
// most depth levels of directories below it; -1: all), on one of devs
// when devs is not nil, without following links, skipping what skip
// says. It stops when visit says so or budget runs out; false: it ran
// out, or met a directory it could not read that a step may open (blind,
// its path: linkwalk_unix.go; here, a directory whose listing was
// refused for its permissions), so what is below it was not seen.
func linkWalk(fsys InodeFS, top string, depth int, devs map[uint64]bool, skip func(string) bool, budget *int, visit func(string, Inode) bool) (complete bool, blind string) {
	if w, ok := fsys.(linkWalker); ok {
		return w.walkLinks(top, depth, devs, skip, budget, visit)
	}
	var walk func(p string, kind Kind, depth int) (ok, more bool)
	walk = func(p string, kind Kind, depth int) (bool, bool) {
		if *budget <= 0 {
			return false, false
		}
		*budget--
		if skip != nil && skip(p) {
			return true, true
		}
		switch kind {
		case KindLink:
			return true, true // neither a regular file nor a directory
		case KindMissing, KindFile:
			if in, ok := fsys.Inode(p); ok {
				if in.Nlink > 1 {
					return true, visit(p, in)
				}
				return true, true
			}
			if kind == KindFile {
				return true, true
			}
		}
		dev, ok := fsys.DirDev(p)
		if !ok || depth == 0 || devs != nil && !devs[dev] {
			return true, true
		}
		names, kinds, err := namesKinds(fsys, p)
		if errors.Is(err, fs.ErrPermission) {
			blind = p
			return false, false
		}
		if err != nil {
			return true, true
		}
		for i, n := range names {
			ok, more := walk(filepath.Join(p, n), kinds[i], depth-1)
			if !ok || !more {
				return ok, more
			}
		}
		return true, true
	}
	ok, _ := walk(top, KindMissing, depth)
	return ok, blind
}

// protectedTops are the protected places a file with path may be another
// name of, with how deep each is protected: each Dir rule's directory and
// its entries (depth 1), each Tree rule's path, and each Named rule's
// name in each root, in each directory directly in a root, and in each
// directory above path up to its root; and the home's configuration each
// DotRule covers (dotTops).
func (p *Policy) protectedTops(fsys InodeFS, path string) (tops []string, depths []int) {
	add := func(t string, d int) {
		for _, x := range tops {
			if x == t {
				return
			}
		}
		if p.fs.Kind(t) == KindMissing {
			return
		}
		tops, depths = append(tops, t), append(depths, d)
	}
	var names []string
	rules, _ := p.allRules()
	for _, r := range rules {
		switch r.Kind {
		case DirRule:
			add(r.Path, 1)
		case TreeRule:
			add(r.Path, -1)
		case NamedRule:
			names = append(names, r.Name)
		case DotRule:
			p.dotTops(fsys, r, add)
		}
	}
	if len(names) == 0 {
		return tops, depths
	}
	var dirs []string
	for _, root := range p.roots {
		dirs = append(dirs, root)
		if kids, err := fsys.Names(root); err == nil {
			for _, k := range kids {
				if p.fs.Kind(filepath.Join(root, k)) == KindDir {
					dirs = append(dirs, filepath.Join(root, k))
				}
			}
		}
		if under(path, root) {
			for d := parentOf(path); under(d, root); d = parentOf(d) {
				dirs = append(dirs, d)
				if d == root {
					break
				}
			}
		}
	}
	for _, d := range dirs {
		for _, n := range names {
			add(filepath.Join(d, n), -1)
		}
	}
	return tops, depths
}

// dotTops gives add the home's configuration a DotRule covers, each
// searched whole (a plugin of Neovim four levels into ~/.local: the
// eighth red team's): each dot-entry of the home DotCovers covers, or the
// moved part itself.
func (p *Policy) dotTops(fsys InodeFS, r Rule, add func(string, int)) {
	if r.Name != "" {
		add(r.Path, -1)
		return
	}
	// down to each place of HomeWritable (~/.local/share/pnpm/store),
	// however deep: its covered neighbours are searched whole (pnpm's
	// global packages beside its store: two levels stopped above them)
	var walk func(dir, rel string)
	walk = func(dir, rel string) {
		names, err := fsys.Names(dir)
		if err != nil {
			return
		}
		for _, n := range names {
			r := path2(rel, n)
			switch {
			case !DotCovers(r):
			case !writableBelow(r):
				add(filepath.Join(dir, n), -1)
			default:
				walk(filepath.Join(dir, n), r) // ~/.cache: its covered entries
			}
		}
	}
	walk(r.Path, "")
}

// writableBelow reports whether a place of HomeWritable is below rel.
func writableBelow(rel string) bool {
	return slices.ContainsFunc(HomeWritable, func(w string) bool { return strings.HasPrefix(w, rel+"/") })
}

// LinksProtected reports whether path is a regular file with more than
// one name, one of which is below a protected or secret entry; past the
// search's bound, it says yes.
func (p *Policy) LinksProtected(path string) bool { return p.linksClass(path) != 0 }

// linksClass is ClassSecret when path is a regular file with more than
// one name, one of which is below a secret entry (a dotfiles directory's
// hard link to ~/.ssh/config, whose ProxyCommand ssh runs: the tenth red
// team's), ClassProtected when one is below a protected entry or the
// search ran past its bound, else 0. eukhe's own state (linkKeep), whose
// journal may hold another name of a workspace file an interrupted edit
// finished, is not searched, as the sandbox's search does not search
// secret entries.
func (p *Policy) linksClass(path string) Class { return p.otherNamesClass(path, true) }

// ClassRead is the class of a resolved path for a read: its Class, or
// Secret when it is another name of a secret file (a hard link:
// ~/dotfiles/aws_credentials of ~/.aws/credentials, the tenth red
// team's). Only the secret entries are searched, through the walk kept
// for writes.
func (p *Policy) ClassRead(r RealPath) Class { return p.readClassAs(r, true) }

// readClass is ClassRead for a read's verdict: the protected rules are
// not asked, as a read of a protected file is a read (AccessEffects), so
// such a path is Inside or Outside by where it is. Every rule of the home
// and the PATH was asked at each read (half a small read's judgment).
func (p *Policy) readClass(r RealPath) Class { return p.readClassAs(r, false) }

func (p *Policy) readClassAs(r RealPath, protected bool) Class {
	c := p.classAs(r, protected)
	// a protected path too (~/.config/yadm/id_ed25519, .git/info/key
	// hard-linked to ~/.ssh/id_ed25519: the eleventh red team's)
	if (c == ClassInside || c == ClassOutside || c == ClassProtected) && p.otherNamesClass(r.Path, false) == ClassSecret {
		return ClassSecret
	}
	return c
}

// otherNamesClass is linksClass; for a read (!write) only the secret
// entries are searched, and a search past its bound is Secret.
func (p *Policy) otherNamesClass(path string, write bool) Class {
	fsys, ok := p.fs.(InodeFS)
	if !ok {
		return 0
	}
	in, ok := fsys.Inode(path)
	if !ok || in.Nlink < 2 {
		return 0
	}
	budget, home := MaxLinkWalk, MaxHomeLinkWalk // the places outside the roots have a bound of their own, as in Search
	devs := map[uint64]bool{in.Dev: true}
	var allIn *bool // whether every name of the file is in the roots, once looked
	search := func(tops []string, depths []int, skip func(string) bool) (found, complete bool) {
		for i, t := range tops {
			if underAny(t, p.roots) {
				complete, _ := linkWalk(fsys, t, depths[i], devs, skip, &budget, func(_ string, o Inode) bool {
					found = o.Dev == in.Dev && o.Ino == in.Ino
					return !found
				})
				if found || !complete {
					return found, complete
				}
				continue
			}
			// outside the roots (the home's configuration, searched
			// whole, other homes): the walk kept for topsFresh, as the
			// sandbox's (on a machine whose homes held toolchains, each
			// such write walked them again: 12 s)
			if dev, ok := fsys.DirDev(t); ok && !devs[dev] {
				continue // a place on another device (/proc) holds no name of it
			}
			files, complete, ok := p.links.kept(fsys, t, depths[i], p.roots, &home, in.Changed)
			if !ok {
				if allIn == nil {
					// a file of the roots all of whose names are in them
					// has none in a place outside: no walk of it
					// (links_strangers.go)
					all := underAny(path, p.roots) && namesAllIn(fsys, in, p.roots, strangerWalkBound)
					allIn = &all
				}
				if *allIn {
					continue
				}
				files, complete, _ = p.links.walkTop(fsys, t, depths[i], p.roots, &home, in.Changed)
			}
			for _, f := range files {
				if f.in.Dev == in.Dev && f.in.Ino == in.Ino && (skip == nil || !skip(f.path)) {
					return true, true
				}
			}
			if !complete {
				return false, false
			}
		}
		return false, true
	}
	var secrets []string
	var depths []int
	for _, s := range p.allSecrets() {
		if !slices.ContainsFunc(p.linkKeep, func(k string) bool { return under(s, k) }) && !slices.Contains(secrets, s) {
			secrets, depths = append(secrets, s), append(depths, -1)
		}
	}
	kept := func(q string) bool {
		return slices.ContainsFunc(p.linkKeep, func(k string) bool { return under(q, k) })
	}
	if found, complete := search(secrets, depths, kept); found {
		return ClassSecret
	} else if !complete {
		if !write {
			return ClassSecret
		}
		return ClassProtected
	}
	if !write {
		return 0
	}
	tops, depths := p.protectedTops(fsys, path)
	if found, complete := search(tops, depths, p.isSecret); found || !complete {
		return ClassProtected
	}
	return 0
}

// ClassWrite is the class of a resolved path for a write: its Class, or
// Secret or Protected when it is another name of a secret or protected
// file (a hard link). The policy's SetNear function is told the path
// first.
func (p *Policy) ClassWrite(r RealPath) Class {
	p.Near(r.Path)
	if p.aboveGateFile(r.Path) || p.eukheDirOutside(r.Path) {
		return ClassSecret
	}
	c := p.Class(r)
	switch c {
	case ClassInside, ClassOutside:
		if l := p.linksClass(r.Path); l != 0 {
			return l
		}
	case ClassProtected:
		// another name of a secret file in a protected place: secret, so
		// it always asks (the eleventh red team's)
		if p.otherNamesClass(r.Path, false) == ClassSecret {
			return ClassSecret
		}
	}
	return c
}

// aboveGateFile tells whether path is a directory above a user settings
// file (Places.GateFiles), compared as its parts are named there:
// writing it (a rename, a removal, a link in its place) replaces the file
// that holds the execution gates, so it is secret (beyond G1.2, where an
// ancestor of a secret entry is protected: protected is in the default
// auto set, and the twelfth red team's step swapped ~/.config/eukhe for
// a directory of its own).
func (p *Policy) aboveGateFile(path string) bool {
	if len(p.gateFiles) == 0 {
		return false
	}
	n := namesAt(p.fs, path)
	for _, f := range p.allGateFiles() {
		if n.exact() && f != path && under(f, path) || !n.exact() && !n.same(path, f) && n.above(path, f) {
			return true
		}
	}
	return false
}

// ProtectedLinks are the other names, below the roots, of the regular
// files at or below the protected entries (each Entry's depth: -1 all,
// 1 a directory's entries): what a sandbox must bind read-only besides
// the entries. A protected file whose names are all in protected
// entries needs no search of the roots; the search of the roots stops
// when every name is found, and at the bound (complete false). Secret
// entries and the protected entries themselves are not searched.
func ProtectedLinks(fsys InodeFS, protected []string, depths []int, roots, skip []string) (links []string, complete bool) {
	r := (*LinkCache)(nil).Search(fsys, protected, depths, roots, skip)
	return r.Links, r.Complete
}

// LinkSearch is what a search for the other names of protected files
// found: the names below the roots (Links), whether it looked at all it
// was to (Complete: the bound was not reached), and the protected files
// some of whose names it did not find (Unfound, one name each: the
// first met). A name not found is outside the roots searched: a sandbox
// that lets a process write there cannot keep the file read-only.
type LinkSearch struct {
	Links    []string
	Complete bool
	Unfound  []string
	// CutAt is the place whose walk ran past its bound when the search
	// is not Complete: a protected place, or a root searched.
	CutAt string
	// Blind, when the search is not Complete for it, is a directory of
	// the user's it could not read (mode 000: linkWalk), below which a
	// name may be that a step can reach after a chmod.
	Blind string
}

// LinkCache keeps the last searches of the roots for other names of
// protected files (a session's steps start many processes), one for each
// set of files and scopes (the protected files' search and the secret
// files' take turns at each step): one is used again while the files
// with names outside the entries are the same, with the same numbers of
// names, and each name it found is still one of them. A link made or
// removed changes a number of names; a name renamed fails the last
// check. A nil cache searches each time.
type LinkCache struct {
	mu    sync.Mutex
	lasts map[string]LinkSearch // by key: the files' ids and numbers of names, the scopes, the skipped
	// tops are the last walks of protected places outside the roots (the
	// home's configuration, searched whole), by place and depth.
	topsMu sync.Mutex
	tops   map[string]topWalk
	// strangers are the roots too large for the look that spares the
	// walks of the places outside (links_strangers.go)
	strangers strangerSkip
}

// ProtectedLinks is ProtectedLinks through the cache.
func (c *LinkCache) ProtectedLinks(fsys InodeFS, protected []string, depths []int, roots, skip []string) (links []string, complete bool) {
	r := c.Search(fsys, protected, depths, roots, skip)
	return r.Links, r.Complete
}

// Search is the search ProtectedLinks makes, through the cache, with the
// files whose names it did not all find.
func (c *LinkCache) Search(fsys InodeFS, protected []string, depths []int, roots, skip []string) (r LinkSearch) {
	return c.SearchFrom(fsys, protected, depths, roots, roots, skip)
}

// SearchFrom is Search over scopes (where other names are looked for: the
// roots, and for a process that may write outside, the home and the
// writable directories too); a protected place outside the workspace
// roots is walked through the cache (links_tops.go).
func (c *LinkCache) SearchFrom(fsys InodeFS, protected []string, depths []int, scopes, roots, skip []string) (r LinkSearch) {
	// the strangers' latest change, and for a search of the roots alone
	// the places outside it need not walk (links_strangers.go)
	protected, depths, changed := c.topsWithoutStrangers(fsys, protected, depths, roots, slices.Equal(scopes, roots))
	budget := MaxLinkWalk
	seen := map[fileID]uint64{}  // names found so far
	want := map[fileID]uint64{}  // names it has
	first := map[fileID]string{} // a name of it in the entries
	devs := map[uint64]bool{}
	r.Complete = true
	// the places outside the roots (the home's configuration, searched
	// whole) have a bound of their own: a large home does not leave the
	// roots' search without one
	outside := MaxHomeLinkWalk
	met := map[string]bool{}
	for i, t := range protected {
		b := &budget
		if !underAny(t, roots) {
			b = &outside
		}
		files, complete, blind := c.walkTop(fsys, t, depths[i], roots, b, changed)
		if !complete && r.CutAt == "" {
			r.CutAt, r.Blind = t, blind
		}
		r.Complete = complete && r.Complete
		for _, f := range files {
			if met[f.path] {
				continue // places may nest (~/.config and ~/.config/nvim)
			}
			met[f.path] = true
			id := fileID{f.in.Dev, f.in.Ino}
			seen[id]++
			want[id] = f.in.Nlink
			if _, ok := first[id]; !ok {
				first[id] = f.path
			}
			devs[f.in.Dev] = true
		}
	}
	missing := 0
	for id, n := range want {
		if seen[id] < n {
			missing += int(n - seen[id])
		}
	}
	if missing == 0 {
		return r
	}
	var ids []string
	for id, n := range want {
		if seen[id] < n {
			ids = append(ids, fmt.Sprintf("%d:%d:%d", id.dev, id.ino, n))
		}
	}
	slices.Sort(ids)
	key := strings.Join(slices.Concat(ids, []string{"|"}, scopes, []string{"|"}, skip), "\x00")
	if c != nil {
		c.mu.Lock()
		defer c.mu.Unlock()
		if last, ok := c.lasts[key]; ok && stillLinks(fsys, last, want) {
			out := last
			out.Links, out.Unfound = slices.Clone(out.Links), slices.Clone(out.Unfound)
			out.Complete = out.Complete && r.Complete
			if out.CutAt == "" {
				out.CutAt, out.Blind = r.CutAt, r.Blind
			}
			return out
		}
	}
	defer func() {
		for id, n := range want {
			if seen[id] < n {
				r.Unfound = append(r.Unfound, first[id])
			}
		}
		slices.Sort(r.Unfound)
		// a search that did not see everything is not kept: what it
		// missed (a directory made unreadable, then readable again: the
		// seventeenth red team's) is looked at by the next
		if c != nil && r.Complete {
			if c.lasts == nil || len(c.lasts) >= maxKeptSearches {
				c.lasts = map[string]LinkSearch{}
			}
			c.lasts[key] = LinkSearch{Links: slices.Clone(r.Links), Complete: r.Complete, Unfound: slices.Clone(r.Unfound), CutAt: r.CutAt}
		}
	}()
	isSkipped := func(p string) bool {
		for _, s := range slices.Concat(protected, skip) {
			if under(p, s) {
				return true
			}
		}
		return false
	}
	for _, root := range scopes {
		b := &budget
		if !underAny(root, roots) {
			// a scope past the roots (the home, for a process that reads
			// or writes it) has the bound of the places outside: a
			// developer's home is larger than MaxLinkWalk, and a search
			// cut there refuses every program of a step (the fifteenth
			// red team's)
			b = &outside
		}
		ok, blind := linkWalk(fsys, root, -1, devs, isSkipped, b, func(p string, in Inode) bool {
			id := fileID{in.Dev, in.Ino}
			if n, ok := want[id]; ok && seen[id] < n {
				seen[id]++
				missing--
				r.Links = append(r.Links, p)
			}
			return missing > 0
		})
		if !ok {
			r.Complete = false
			r.CutAt, r.Blind = root, blind
			return r
		}
		if missing == 0 {
			break
		}
	}
	return r
}

// maxKeptSearches bounds the searches a LinkCache keeps.
const maxKeptSearches = 8

// stillLinks reports whether each name a kept search found is still a
// name of one of the files.
func stillLinks(fsys InodeFS, last LinkSearch, want map[fileID]uint64) bool {
	for _, p := range last.Links {
		in, ok := fsys.Inode(p)
		if !ok {
			return false
		}
		if _, ok := want[fileID{in.Dev, in.Ino}]; !ok {
			return false
		}
	}
	return true
}

// isSecret reports whether path is at or below a secret entry.
func (p *Policy) isSecret(path string) bool {
	for _, s := range p.allSecrets() {
		if under(path, s) {
			return true
		}
	}
	return false
}
