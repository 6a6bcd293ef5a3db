package lsp

import (
	"context"
	"testing"
	"time"

	lsproto "go.lsp.dev/protocol"
	"go.lsp.dev/uri"
)

// waitChange waits for a change of the document: with none it waits its
// whole time and says so (it said "a change came" at once, every time,
// so the loops on it spun a core instead of waiting); a didChange during
// the wait ends it.
func TestWaitChangeWaitsForAChange(t *testing.T) {
	o := newOverlay()
	u := uri.File(t.TempDir() + "/a.txt")
	o.open(u, 1, "one\n")
	path, _ := pathOf(u)
	start := time.Now()
	if o.waitChange(context.Background(), path, 200*time.Millisecond) {
		t.Fatalf("a change came, and none was made")
	}
	if d := time.Since(start); d < 150*time.Millisecond {
		t.Fatalf("it waited %v of 200ms", d)
	}
	go func() {
		time.Sleep(50 * time.Millisecond)
		if err := o.change(u, 2, []lsproto.TextDocumentContentChangeEvent{&lsproto.TextDocumentContentChangeWholeDocument{Text: "two\n"}}); err != nil {
			t.Error(err)
		}
	}()
	if !o.waitChange(context.Background(), path, 5*time.Second) {
		t.Fatalf("the didChange during the wait did not end it")
	}
}
