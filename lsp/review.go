package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"go.lsp.dev/uri"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/protocol"
)

// reviewKept bounds the edits a server keeps under review.
const reviewKept = 64

// reviewBook holds the landed edits the user may still keep or undo.
type reviewBook struct {
	mu    sync.Mutex
	next  int
	edits map[string]*reviewEdit
	order []string // oldest first
}

type reviewEdit struct {
	id    string
	files []*reviewFile
}

// reviewFile is one file of an edit under review: its text as the edit
// (and any undo since) left it, and the hunks not decided yet, placed in
// that text.
type reviewFile struct {
	path  string
	uri   uri.URI
	fixed string // why its hunks cannot be undone one by one ("" if they can)
	after []byte
	hunks []reviewHunk
}

type reviewHunk struct {
	index   int // as announced
	at, end int // its bytes in after
	before  []byte
	// typed: its lines changed after the edit (the user typed on them):
	// putting it back would take that away too, so it is not undone.
	typed bool
}

func newReviewBook() *reviewBook { return &reviewBook{edits: map[string]*reviewEdit{}} }

// add records an edit and names it.
func (b *reviewBook) add(files []*reviewFile) *reviewEdit {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	e := &reviewEdit{id: fmt.Sprintf("e%d", b.next), files: files}
	b.edits[e.id] = e
	b.order = append(b.order, e.id)
	if len(b.order) > reviewKept {
		delete(b.edits, b.order[0])
		b.order = b.order[1:]
	}
	return e
}

// reviewLanded records what a commit landed and tells a client that
// implements eukhe/review.
func (s *Server) reviewLanded(ps []*planned, res *docs.Committed) {
	var files []*reviewFile
	for _, p := range ps {
		if res.Outcomes[p.i].Fate != docs.Landed {
			continue
		}
		c := p.c
		after := c.New
		if after == nil {
			after = c.Old
		}
		f := &reviewFile{path: c.Target(), after: bytes.Clone(after)}
		f.uri = uri.File(f.path)
		if p.open {
			f.uri = targetURI(p)
		}
		switch {
		case c.Create:
			f.fixed = "it was created by the edit; delete it yourself if you do not want it"
		case c.MoveTo != "":
			f.fixed = "it was moved by the edit; move it back yourself if you do not want the move"
		}
		for k, h := range hunks(c.Old, after) {
			f.hunks = append(f.hunks, reviewHunk{index: k, at: h.newAt, end: h.newEnd, before: bytes.Clone(c.Old[h.oldAt:h.oldEnd])})
		}
		if len(f.hunks) > 0 || f.fixed != "" {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return
	}
	e := s.review.add(files)
	if !s.capabilities().implements(protocol.MethodReview) {
		return
	}
	_, conn, life, ok := s.editor()
	if !ok {
		return
	}
	if err := notify(life, conn, protocol.MethodReview, s.reviewParams(e)); err != nil {
		s.logf("sending %s: %v", protocol.MethodReview, err)
	}
}

// reviewParams are an edit's hunks as eukhe/review sends them.
func (s *Server) reviewParams(e *reviewEdit) protocol.ReviewParams {
	enc := s.ov.encoding()
	p := protocol.ReviewParams{EditID: e.id, Hunks: []protocol.ReviewHunk{}}
	for _, f := range e.files {
		t := newText(f.after)
		for _, h := range f.hunks {
			a, b := t.position(h.at, enc), t.position(h.end, enc)
			p.Hunks = append(p.Hunks, protocol.ReviewHunk{
				URI:    string(f.uri),
				Hunk:   h.index,
				Range:  protocol.Range{Start: protocol.Position{Line: a.Line, Character: a.Character}, End: protocol.Position{Line: b.Line, Character: b.Character}},
				Before: string(h.before),
				After:  string(f.after[h.at:h.end]),
			})
		}
	}
	return p
}

// decide keeps or undoes hunks of an edit under review. An undo is the
// inverse edit through the same path as the edit (the editor for an open
// document, else the disk), refused when the file changed since.
func (s *Server) decide(p protocol.ReviewDecisionParams) protocol.ReviewDecisionResult {
	if p.Decision != protocol.DecisionKeep && p.Decision != protocol.DecisionUndo {
		return protocol.ReviewDecisionResult{Message: fmt.Sprintf("decision %q is neither %q nor %q", p.Decision, protocol.DecisionKeep, protocol.DecisionUndo)}
	}
	s.commitMu.Lock()
	defer s.commitMu.Unlock()
	b := s.review
	b.mu.Lock()
	e := b.edits[p.EditID]
	b.mu.Unlock()
	if e == nil {
		return protocol.ReviewDecisionResult{Message: fmt.Sprintf("edit %s is not under review (it was decided already, or is too old)", p.EditID)}
	}
	sel, why := e.pick(p)
	if why != "" {
		return protocol.ReviewDecisionResult{Message: why}
	}
	if p.Decision == protocol.DecisionKeep {
		b.drop(e, sel)
		return protocol.ReviewDecisionResult{Applied: true, Message: fmt.Sprintf("kept %s", s.spell(sel))}
	}
	return s.undo(e, sel)
}

// picked is the hunks a decision names, file by file.
type picked map[*reviewFile][]int // hunk positions in f.hunks

// pick selects the hunks a decision names.
func (e *reviewEdit) pick(p protocol.ReviewDecisionParams) (picked, string) {
	sel := picked{}
	var want string
	if p.URI != "" {
		path, ok := pathOf(uri.URI(p.URI))
		if !ok {
			return nil, fmt.Sprintf("%s is not a file: URI", p.URI)
		}
		want = path
	}
	for _, f := range e.files {
		if want != "" && filepath.Clean(f.path) != want {
			continue
		}
		for k, h := range f.hunks {
			if p.Hunk == nil || h.index == *p.Hunk {
				sel[f] = append(sel[f], k)
			}
		}
		if p.Hunk == nil && len(f.hunks) == 0 {
			sel[f] = nil // a created or moved file with no text hunk
		}
	}
	if len(sel) == 0 {
		return nil, fmt.Sprintf("edit %s has no such hunk under review", e.id)
	}
	return sel, ""
}

// drop takes decided hunks out of review.
func (b *reviewBook) drop(e *reviewEdit, sel picked) {
	b.mu.Lock()
	defer b.mu.Unlock()
	for f, ks := range sel {
		f.hunks = without(f.hunks, ks)
		if len(f.hunks) == 0 {
			b.forget(e, f)
		}
	}
}

// forget takes a decided file out of its edit, and the edit out of the
// book when no file is left; the caller holds b.mu.
func (b *reviewBook) forget(e *reviewEdit, f *reviewFile) {
	e.files = slices.DeleteFunc(e.files, func(g *reviewFile) bool { return g == f })
	if len(e.files) == 0 {
		delete(b.edits, e.id)
		b.order = slices.DeleteFunc(b.order, func(id string) bool { return id == e.id })
	}
}

// spell names the files of a selection for a message.
func (s *Server) spell(sel picked) string {
	var names []string
	for f, ks := range sel {
		n := s.display(f.path)
		if len(ks) > 0 {
			n += fmt.Sprintf(" (%d hunk%s)", len(ks), plural(len(ks)))
		}
		names = append(names, n)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// display names a path for the user: relative to the root when under it.
func (s *Server) display(path string) string {
	if rel, err := filepath.Rel(s.Root(), path); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return path
}

// without is hs less the hunks at positions ks.
func without(hs []reviewHunk, ks []int) []reviewHunk {
	var out []reviewHunk
	for k, h := range hs {
		if !slices.Contains(ks, k) {
			out = append(out, h)
		}
	}
	return out
}
