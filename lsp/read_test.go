package lsp

import (
	"strings"
	"testing"
)

// Reads see what the developer sees: an open document's text, unsaved
// changes included, with a tag over those bytes; other files from disk.

func TestReadSeesUnsavedBufferText(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.put("a.txt", "one\ntwo\nthree\n")
	e.put("b.txt", "disk only\n")
	e.openText("a.txt", "one\nunsaved two\nthree\n")
	got := e.tool("read", map[string]any{"path": "a.txt"})
	if got.IsError || !strings.Contains(got.Text, "2:unsaved two") {
		t.Fatalf("read of an open document with unsaved text:\n%s", got.Text)
	}
	if !strings.Contains(e.tool("read", map[string]any{"path": "b.txt"}).Text, "1:disk only") {
		t.Fatal("read of a closed file does not show the disk's text")
	}
	g := e.tool("grep", map[string]any{"pattern": "unsaved"})
	if !strings.Contains(g.Text, "2:unsaved two") {
		t.Fatalf("grep does not search the buffer's text:\n%s", g.Text)
	}
	if g := e.tool("grep", map[string]any{"pattern": "two", "path": "a.txt"}); !strings.Contains(g.Text, "unsaved two") {
		t.Fatalf("grep of one open file:\n%s", g.Text)
	}
	e.typeAt("a.txt", 0, 3, "!")
	if got := e.tool("read", map[string]any{"path": "a.txt"}); !strings.Contains(got.Text, "1:one!") {
		t.Fatalf("read after the user typed:\n%s", got.Text)
	}
	e.close("a.txt")
	if got := e.tool("read", map[string]any{"path": "a.txt"}); !strings.Contains(got.Text, "2:two") {
		t.Fatalf("read after the buffer closed (its unsaved text is gone):\n%s", got.Text)
	}
}

func TestAnUnsavedNewBufferIsAFile(t *testing.T) {
	e := newEditor(t, editorOpts{})
	e.openText("new.txt", "not on disk yet\n")
	if got := e.tool("read", map[string]any{"path": "new.txt"}); !strings.Contains(got.Text, "1:not on disk yet") {
		t.Fatalf("read of an unsaved new buffer:\n%s", got.Text)
	}
	if got := e.tool("read", map[string]any{"path": "."}); !strings.Contains(got.Text, "new.txt") {
		t.Fatalf("a directory read does not list an unsaved new buffer:\n%s", got.Text)
	}
	if got := e.tool("glob", map[string]any{"pattern": "*.txt"}); !strings.Contains(got.Text, "new.txt") {
		t.Fatalf("glob does not find an unsaved new buffer:\n%s", got.Text)
	}
	got := e.tool("edit", map[string]any{"patch": "[new.txt]\n+x\n"})
	if !got.IsError || !strings.Contains(got.Text, "exists") {
		t.Fatalf("creating a file over an open buffer:\n%s", got.Text)
	}
}
