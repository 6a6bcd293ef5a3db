package docs

// watchedTree is a walk's Tree with a test's watch on it: the walk the
// disk runs in production (openat2 below the root), watched the way a
// test store watches its reads by path. Before each read, listing or stat
// the matching hook runs (nil: none); listed is told how many entries a
// listing gave; a read that gone names finds nothing.
type watchedTree struct {
	Tree
	read, list, stat func(rel string)
	listed           func(n int)
	gone             func(rel string) bool
}

// openWatched opens s's tree of dir with w's hooks on it.
func openWatched(s Store, dir string, real bool, w watchedTree) (Tree, error) {
	t, err := s.OpenTree(dir, real)
	if err != nil {
		return nil, err
	}
	w.Tree = t
	return w, nil
}

func (t watchedTree) Read(rel string) (Snapshot, error) {
	if t.read != nil {
		t.read(rel)
	}
	if t.gone != nil && t.gone(rel) {
		return Snapshot{}, nil
	}
	return t.Tree.Read(rel)
}

func (t watchedTree) List(rel string) ([]Entry, error) {
	if t.list != nil {
		t.list(rel)
	}
	es, err := t.Tree.List(rel)
	if t.listed != nil {
		t.listed(len(es))
	}
	return es, err
}

func (t watchedTree) Stat(rel string) (Stat, error) {
	if t.stat != nil {
		t.stat(rel)
	}
	return t.Tree.Stat(rel)
}
