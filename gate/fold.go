package gate

import (
	"path"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// CaseFolder is an FS that can tell whether a directory's volume opens
// names without regard to case (G1.3 on such a volume: .GIT and .Git are
// the .git that git reads). It is asked, never assumed from the OS: a
// Linux vfat stick or ext4 casefold directory folds, a case-sensitive
// APFS volume does not. An FS without it is case-sensitive.
type CaseFolder interface {
	CaseInsensitive(dir string) bool
}

// WindowsNamer is an FS whose paths are opened as Windows opens them:
// trailing dots and spaces dropped, "::$DATA"-style stream suffixes,
// 8.3 short names (GIT~1) naming a long one (WindowsCanonical). The
// policy then judges the name Windows will open, and a short name it
// cannot expand as at least as strict as any name it could be.
type WindowsNamer interface {
	WindowsNames() bool
}

// names is how the policy compares a judged path's parts with its
// lists on the volume that holds it: exactly (the Linux hot path, the
// zero value), case-folded, and with a short-name part matching any name.
type names struct {
	fold  bool
	short bool
}

// namesAt asks fsys how to compare the parts of path: whether the
// directory that holds it folds case, and whether Windows short names
// apply.
func namesAt(fsys FS, p string) names {
	var n names
	if cf, ok := fsys.(CaseFolder); ok {
		n.fold = cf.CaseInsensitive(parentOf(p))
	}
	if wn, ok := fsys.(WindowsNamer); ok {
		n.short = wn.WindowsNames()
		n.fold = n.fold || n.short
	}
	return n
}

// exact reports whether parts compare byte for byte.
func (n names) exact() bool { return n == names{} }

// part reports whether a part of a judged path may be the listed part.
func (n names) part(judged, listed string) bool {
	if judged == listed {
		return true
	}
	if n.short && IsShortName(judged) {
		return true
	}
	return n.fold && foldName(judged) == foldName(listed)
}

// below reports whether the judged path p is base or below it, each part
// compared as n says (under, when exact).
func (n names) below(p, base string) bool {
	if n.exact() {
		return under(p, base)
	}
	if base == "/" {
		return true
	}
	ps, bs := splitPath(p), splitPath(base)
	if len(ps) < len(bs) {
		return false
	}
	for i, b := range bs {
		if !n.part(ps[i], b) {
			return false
		}
	}
	return true
}

// same reports whether the judged path p may be the listed path q.
func (n names) same(p, q string) bool {
	if n.exact() {
		return p == q
	}
	return len(splitPath(p)) == len(splitPath(q)) && n.below(p, q)
}

// above reports whether the listed path q is the judged path p or below
// it (p is q's ancestor or q).
func (n names) above(p, q string) bool {
	if n.exact() {
		return under(q, p)
	}
	if p == "/" {
		return true
	}
	ps, qs := splitPath(p), splitPath(q)
	if len(qs) < len(ps) {
		return false
	}
	for i, c := range ps {
		if !n.part(c, qs[i]) {
			return false
		}
	}
	return true
}

// cut is the part of the judged path p below base ("" and false when p
// is not below base, nor base itself).
func (n names) cut(p, base string) (string, bool) {
	if n.exact() {
		// p has base then "/" (base+"/" made no string: this is the hot
		// path of every judgment, once per rule)
		if len(p) > len(base) && p[len(base)] == '/' && strings.HasPrefix(p, base) {
			return p[len(base)+1:], true
		}
		return p, false // as strings.CutPrefix says it
	}
	ps, bs := splitPath(p), splitPath(base)
	if len(ps) <= len(bs) || !n.below(p, base) {
		return "", false
	}
	return strings.Join(ps[len(bs):], "/"), true
}

// endsWith reports whether the judged path p ends with the parts of end.
func (n names) endsWith(p, end string) bool {
	if n.exact() {
		return len(p) > len(end) && p[len(p)-len(end)-1] == '/' && strings.HasSuffix(p, end)
	}
	ps, es := splitPath(p), splitPath(end)
	if len(es) == 0 || len(ps) < len(es) {
		return false
	}
	off := len(ps) - len(es)
	for i, e := range es {
		if !n.part(ps[off+i], e) {
			return false
		}
	}
	return true
}

// name reports whether an entry's name may be the protected name (MatchesName).
func (n names) name(entry, name string) bool {
	if n.exact() {
		return MatchesName(entry, name)
	}
	if n.short && IsShortName(entry) {
		return true
	}
	return MatchesNameFold(entry, name, n.fold)
}

// MatchesNameFold is MatchesName on a volume that folds case when fold
// is true: .GIT, .Git and .g\u200cit (HFS+ ignores that character) are
// .git there.
func MatchesNameFold(entry, name string, fold bool) bool {
	if !fold {
		return MatchesName(entry, name)
	}
	return MatchesName(foldName(entry), foldName(name))
}

// NameInFold is NameIn on a volume that folds case when fold is true.
func NameInFold(names []string, entry string, fold bool) bool {
	if !fold {
		return NameIn(names, entry)
	}
	f := foldName(entry)
	for _, n := range names {
		if MatchesName(f, foldName(n)) {
			return true
		}
	}
	return false
}

// foldName is s as a case-insensitive volume compares it: each rune
// upper-cased (NTFS compares names through its upcase table, simple
// upper-case mapping: "ı" is "I" there, though no case-folding orbit
// joins them) and then the least of its simple case-folding orbit (so two
// names strings.EqualFold holds for fold the same), without the code
// points HFS+ ignores in names (git's list for CVE-2014-9390: the joiners
// and direction marks, U+FEFF). Folding more than a volume does only
// protects more names.
func foldName(s string) string {
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return strings.ToUpper(s)
	}
	// decomposed first: APFS and ext4's casefold take "é" and "e" with a
	// combining acute as one name (the eighteenth red team's)
	s = norm.NFD.String(s)
	return strings.Map(func(r rune) rune {
		if hfsIgnored(r) {
			return -1
		}
		r = unicode.ToUpper(r)
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			if f < least {
				least = f
			}
		}
		return least
	}, s)
}

// hfsIgnored reports whether HFS+ drops r from a name it compares.
func hfsIgnored(r rune) bool {
	return r >= 0x200c && r <= 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x206a && r <= 0x206f || r == 0xfeff
}

// foldCache keeps what the volumes answered, per directory asked, so a
// judgment asks the OS once per directory. It is emptied when it grows
// past maxFoldCache, and when it is older than foldCacheTTL: a volume
// mounted on a directory, or a directory made casefold (chattr +F on an
// empty one), is seen within that time.
var foldCache struct {
	sync.Mutex
	m    map[string]bool
	born time.Time
}

const (
	maxFoldCache = 4096
	foldCacheTTL = 2 * time.Second
)

// CaseInsensitive reports whether the volume holding dir (its nearest
// existing ancestor) opens names without regard to case, as the OS says
// (caseInsensitiveOS: statfs and the casefold attribute on Linux,
// pathconf on macOS; always on Windows).
func (osFS) CaseInsensitive(dir string) bool {
	if constFold, ok := foldAlways(); ok {
		return constFold
	}
	foldCache.Lock()
	if time.Since(foldCache.born) > foldCacheTTL {
		foldCache.m = nil
	}
	v, ok := foldCache.m[dir]
	foldCache.Unlock()
	if ok {
		return v
	}
	v = false
	for d := dir; ; d = path.Dir(d) {
		if ans, exists := caseInsensitiveOS(d); exists {
			v = ans
			break
		}
		if d == "/" || d == "." || d == path.Dir(d) {
			break
		}
	}
	foldCache.Lock()
	if foldCache.m == nil || len(foldCache.m) >= maxFoldCache {
		foldCache.m, foldCache.born = map[string]bool{}, time.Now()
	}
	foldCache.m[dir] = v
	foldCache.Unlock()
	return v
}

// CaseInsensitive forwards to the FS memoFS wraps.
func (m *memoFS) CaseInsensitive(dir string) bool {
	cf, ok := m.fs.(CaseFolder)
	return ok && cf.CaseInsensitive(dir)
}

// WindowsNames forwards to the FS memoFS wraps.
func (m *memoFS) WindowsNames() bool {
	wn, ok := m.fs.(WindowsNamer)
	return ok && wn.WindowsNames()
}

// dotCovers is DotCovers for rest, a judged path below the part name of
// the home ("" the home itself): a short-name entry directly in the home
// may be any dot-entry, so it is covered.
func (n names) dotCovers(name, rest string) bool {
	if n.short && name == "" {
		first, _, _ := strings.Cut(rest, "/")
		if IsShortName(first) {
			return true
		}
	}
	return DotCovers(path2(name, rest))
}
