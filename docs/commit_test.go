package docs_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// The commit engine over a Publisher that is not the disk: files in a
// map, as an editor holds open documents. It shows what a second
// publisher implements, and holds the engine's rules apart from the disk:
// all or nothing on a conflict, publish in order, stop at the first
// failure and put back what landed, newest first.

// memPublisher keeps files in memory; fail makes the publish (or the
// restore, with back) of a path fail.
type memPublisher struct {
	docs.PlainPublisher // no refusal of its own, nothing early, no stamps
	mu                  sync.Mutex
	files               map[string][]byte
	fail                func(path string, back bool) bool
	log                 []string // publishes and restores, in order
}

func (m *memPublisher) Lstat(path string) (docs.Stat, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[path]
	return docs.Stat{Exists: ok, Mode: 0o644, Size: int64(len(b))}, nil
}

func (m *memPublisher) Current(path string) (docs.Snapshot, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.files[path]
	if !ok {
		return docs.Snapshot{}, nil
	}
	return docs.Snapshot{Data: slices.Clone(b), Stat: docs.Stat{Exists: true, Mode: 0o644, Size: int64(len(b))}}, nil
}

func (m *memPublisher) Lock(paths []string) (func(), int, error) { return func() {}, 0, nil }

func (m *memPublisher) Prepare(ps []*docs.Pending, back bool) (int, error) { return 0, nil }

func (m *memPublisher) Publish(p *docs.Pending, back bool) docs.Outcome {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.fail != nil && m.fail(p.Path, back) {
		return docs.Outcome{Fate: docs.Failed, Err: fmt.Errorf("%s refused", p.Path)}
	}
	verb := "publish"
	switch {
	case back && p.Create:
		delete(m.files, p.Real)
	case back && p.RealDest != "":
		delete(m.files, p.RealDest)
		m.files[p.Real] = p.Old
	case back:
		m.files[p.Real] = p.Old
	default:
		nb := p.New
		if nb == nil {
			nb = p.Old
		}
		if p.RealDest != "" {
			delete(m.files, p.Real)
		}
		m.files[p.Target()] = nb
	}
	if back {
		verb = "restore"
	}
	m.log = append(m.log, verb+" "+p.Path)
	return docs.Outcome{Fate: docs.Landed}
}

func (m *memPublisher) Discard(p *docs.Pending)                        {}
func (m *memPublisher) Finish(ps []*docs.Pending, outs []docs.Outcome) {}

var _ docs.Publisher = (*memPublisher)(nil)

func TestCommitVia_other_publisher(t *testing.T) {
	if !filepath.IsAbs("/ws") {
		t.Skip("the changes name Unix paths (/ws/...), which are not absolute on Windows: the store resolves them elsewhere than the publisher keeps them")
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(t, "files")
		m := &memPublisher{files: map[string][]byte{}}
		var cs []docs.Change
		for i := range n {
			path := fmt.Sprintf("/ws/f%d", i)
			c := docs.Change{Path: path, New: []byte(fmt.Sprintf("new %d\n", i))}
			switch rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("kind%d", i)) {
			case 0:
				c.Create = true
			case 1:
				c.Old = []byte(fmt.Sprintf("old %d\n", i))
				m.files[path] = c.Old
			case 2:
				c.Old = []byte(fmt.Sprintf("old %d\n", i))
				c.MoveTo = path + ".moved"
				m.files[path] = c.Old
			}
			cs = append(cs, c)
		}
		before := map[string][]byte{}
		for k, v := range m.files {
			before[k] = v
		}
		failAt := rapid.IntRange(-1, n-1).Draw(t, "failAt") // -1: none
		conflict := rapid.IntRange(-1, n-1).Draw(t, "conflict")
		if conflict >= 0 {
			c := cs[conflict]
			m.files[c.Target()] = []byte("theirs\n") // a taken name, or changed bytes
			if c.MoveTo != "" {
				before[c.MoveTo] = []byte("theirs\n")
			} else {
				before[c.Path] = []byte("theirs\n")
			}
		}
		if failAt >= 0 {
			m.fail = func(path string, back bool) bool { return !back && path == cs[failAt].Path }
		}
		res := docs.CommitVia(m, docs.JournalAt{}, nil, cs)
		switch {
		case conflict >= 0:
			if res.Conflict == nil {
				t.Fatalf("no conflict over a changed %s: %+v", cs[conflict].Path, res)
			}
			if len(m.log) > 0 {
				t.Fatalf("published after a conflict: %v", m.log)
			}
		case failAt >= 0:
			// Every file before it landed and was put back, newest first;
			// none after it was tried.
			var want []string
			for i := range failAt {
				want = append(want, "publish "+cs[i].Path)
			}
			for i := failAt - 1; i >= 0; i-- {
				want = append(want, "restore "+cs[i].Path)
			}
			if !slices.Equal(m.log, want) {
				t.Fatalf("log %v, want %v", m.log, want)
			}
			for i, o := range res.Outcomes {
				want := docs.Untried
				switch {
				case i < failAt:
					want = docs.Restored
				case i == failAt:
					want = docs.Failed
				}
				if o.Fate != want {
					t.Fatalf("outcome %d is %v, want %v", i, o.Fate, want)
				}
			}
		default:
			for i, o := range res.Outcomes {
				if o.Fate != docs.Landed {
					t.Fatalf("outcome %d: %+v", i, o)
				}
			}
			for _, c := range cs {
				if got := m.files[c.Target()]; string(got) != string(c.New) {
					t.Fatalf("%s holds %q", c.Target(), got)
				}
			}
			return
		}
		if len(m.files) != len(before) {
			t.Fatalf("files %v, before %v", keys(m.files), keys(before))
		}
		for k, v := range before {
			if string(m.files[k]) != string(v) {
				t.Fatalf("%s holds %q, before %q", k, m.files[k], v)
			}
		}
	})
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// A change made on older bytes is rebased through Change.Rebase by any
// publisher; an error there is a conflict, and nothing is published.
func TestCommitVia_rebase_through_any_publisher(t *testing.T) {
	if !filepath.IsAbs("/ws") {
		t.Skip("the changes name Unix paths (/ws/...), which are not absolute on Windows: the store resolves them elsewhere than the publisher keeps them")
	}
	m := &memPublisher{files: map[string][]byte{"/ws/a": []byte("a\nTHEIRS\n"), "/ws/b": []byte("b\n")}}
	cs := []docs.Change{
		{Path: "/ws/a", Old: []byte("a\nb\n"), New: []byte("A\nb\n"), Rebase: func(cur []byte) ([]byte, error) {
			return []byte(strings.Replace(string(cur), "a\n", "A\n", 1)), nil
		}},
		{Path: "/ws/b", Old: []byte("b\n"), New: []byte("B\n")},
	}
	res := docs.CommitVia(m, docs.JournalAt{}, nil, cs)
	if res.Conflict != nil || !res.Outcomes[0].Rebased || res.Outcomes[1].Rebased {
		t.Fatalf("%+v", res)
	}
	if string(m.files["/ws/a"]) != "A\nTHEIRS\n" || string(cs[0].New) != "A\nTHEIRS\n" || string(cs[0].Old) != "a\nTHEIRS\n" {
		t.Fatalf("a holds %q; the change came back as %q -> %q", m.files["/ws/a"], cs[0].Old, cs[0].New)
	}
	m.files["/ws/a"] = []byte("x\n")
	cs[0].Rebase = func([]byte) ([]byte, error) { return nil, errors.New("a changed on line 1, which the edit stands on") }
	cs[0].Old = []byte("a\n")
	m.log = nil
	if res := docs.CommitVia(m, docs.JournalAt{}, nil, cs); res.Conflict == nil || res.Conflict.Index != 0 || len(m.log) > 0 {
		t.Fatalf("%+v, log %v", res, m.log)
	}
}
