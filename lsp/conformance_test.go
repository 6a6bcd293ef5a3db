package lsp

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf16"

	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/docs/storetest"
)

// The store conformance suite over the editor store: every S8 commit law
// through the documents tools, with files open (drawn per file) in the
// in-process editor, whose edits go over LSP as versioned workspace edits:
// a client that checks each document alone (Neovim-like), one that checks
// every version first (VS Code), and one that opens at version 0 and
// counts positions in UTF-8.
func TestStoreConformance_editor(t *testing.T) {
	for _, c := range []struct {
		name string
		o    editorOpts
	}{
		{"per-document", editorOpts{saves: true}},
		{"transactional", editorOpts{transactional: true}},
		{"version 0 and utf-8", editorOpts{zero: true, enc: "utf-8"}},
	} {
		// A landing is seen at once; the long wait only keeps a loaded
		// machine from making a slow didChange "not confirmed".
		c.o.wait = 10 * time.Second
		// the fake editor tells its changes as it answers: a refused
		// document (a failing publish, most cases of
		// edit_reports_what_landed) need not be watched 2 s for one
		c.o.refusedWait = 200 * time.Millisecond
		t.Run(c.name, func(t *testing.T) {
			storetest.Run(t, func(t *testing.T) storetest.Rig { return editorRig(t, c.o) })
		})
	}
}

func editorRig(t *testing.T, o editorOpts) storetest.Rig {
	e := newEditor(t, o)
	rel := func(path string) string {
		r, err := filepath.Rel(e.root, path)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	var mu sync.Mutex
	failing := ""
	e.srv.disk.Fault = func(step, path string) error {
		mu.Lock()
		defer mu.Unlock()
		if failing != "" && path == failing && (step == "rename" || step == "link") {
			return errors.New("injected fault")
		}
		return nil
	}
	return storetest.Rig{
		Root:  e.root,
		Store: e.srv.Store(),
		Live: func(path string) error {
			e.open(rel(path))
			e.sync()
			return nil
		},
		Change: func(path string, b []byte) error {
			if e.buf(rel(path)) == "<closed>" {
				return os.WriteFile(path, b, 0o644)
			}
			e.retype(rel(path), string(b))
			e.sync()
			return nil
		},
		Fail: func(path, target string) {
			open := path != "" && e.buf(rel(path)) != "<closed>"
			e.set(func(e *fakeEditor) { e.refuse = open })
			mu.Lock()
			failing = target
			if open {
				failing = ""
			}
			mu.Unlock()
		},
	}
}

// retype is the user replacing a buffer's whole text.
func (e *fakeEditor) retype(name, text string) {
	e.t.Helper()
	e.mu.Lock()
	b := e.bufs[e.path(name)]
	lines := strings.Split(b.text, "\n")
	last := lines[len(lines)-1]
	end := lsproto.Position{Line: uint32(len(lines) - 1), Character: uint32(len(utf16.Encode([]rune(last))))}
	if e.opts.enc == "utf-8" {
		end.Character = uint32(len(last))
	}
	change := e.applyOne(b, lsproto.Range{End: end}, text)
	b.tick++
	b.pending = append(b.pending, change)
	e.mu.Unlock()
	e.flush(name)
}
