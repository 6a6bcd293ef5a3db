package lsp

import (
	"encoding/json"
	"fmt"
	"math"

	"go.lsp.dev/uri"
)

// A didChange whose range cannot be read (a line of -1, a character of
// 2^32, a range that is not two positions) is refused, and its document
// marked unknown: the protocol library reads a change whose range fails
// as a change of the whole document, and eukhe's copy became the change's
// text alone. What the editor holds is then not known here; reads and
// edits of it say so until it is reopened.

// changeRanges is the part of a didChange's params checked here.
type changeRanges struct {
	TextDocument struct {
		URI uri.URI `json:"uri"`
	} `json:"textDocument"`
	ContentChanges []map[string]json.RawMessage `json:"contentChanges"`
}

// badChange says why a didChange's raw params hold a change whose range
// cannot be read, and for which document; "" when every change is sound.
func badChange(raw json.RawMessage) (uri.URI, string) {
	var p changeRanges
	if json.Unmarshal(raw, &p) != nil {
		return "", ""
	}
	for i, c := range p.ContentChanges {
		r, ok := c["range"]
		if !ok {
			continue
		}
		var rng struct {
			Start, End *struct{ Line, Character *float64 }
		}
		if err := json.Unmarshal(r, &rng); err != nil || rng.Start == nil || rng.End == nil {
			return p.TextDocument.URI, fmt.Sprintf("change %d of a didChange has a range that is not two positions: %s", i+1, r)
		}
		for _, pos := range []*struct{ Line, Character *float64 }{rng.Start, rng.End} {
			for _, v := range []*float64{pos.Line, pos.Character} {
				if v == nil || *v < 0 || *v > math.MaxUint32 || *v != math.Trunc(*v) {
					return p.TextDocument.URI, fmt.Sprintf("change %d of a didChange has a position that is not a line and a character from 0: %s", i+1, r)
				}
			}
		}
	}
	return "", ""
}

// lose marks the open document of u unknown, saying why.
func (o *overlay) lose(u uri.URI, why string) {
	path, ok := pathOf(u)
	if !ok {
		return
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	if d := o.byPath[path]; d != nil && d.path == path {
		d.seq.lose(why)
	}
}
