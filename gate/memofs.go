package gate

import "path"

// memoFS answers each path's Kind and link target once, and a path below
// one it found missing as missing without asking (nothing below a missing
// or unseeable entry can be seen either). NewPolicy resolves every secret
// entry of every login home through it: thousands of lookups with shared
// prefixes, taken as one snapshot at start. Judgments after that ask the
// filesystem itself.
type memoFS struct {
	fs    FS
	kinds map[string]Kind
	links map[string]memoLink
	// finals are the FinalName answers (finalname.go)
	finals map[string]memoFinal
}

type memoLink struct {
	target string
	err    error
}

func newMemoFS(fsys FS) *memoFS {
	return &memoFS{fs: fsys, kinds: map[string]Kind{}, links: map[string]memoLink{}}
}

func (m *memoFS) Kind(p string) Kind {
	if k, ok := m.kinds[p]; ok {
		return k
	}
	k := KindMissing
	if parent := path.Dir(p); parent == p || m.kinds[parent] != KindMissing || !m.known(parent) {
		k = m.fs.Kind(p)
	}
	m.kinds[p] = k
	return k
}

func (m *memoFS) known(p string) bool {
	_, ok := m.kinds[p]
	return ok
}

// Plain is false: the snapshot answers part by part, from its maps.
func (m *memoFS) Plain(string) bool { return false }

func (m *memoFS) Readlink(p string) (string, error) {
	if l, ok := m.links[p]; ok {
		return l.target, l.err
	}
	t, err := m.fs.Readlink(p)
	m.links[p] = memoLink{t, err}
	return t, err
}
