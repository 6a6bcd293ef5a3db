package protocol

import "testing"

// The VS Code extension compares TextHash with its own SHA-256 of the
// document's text (editors/vscode/test/applyedit.test.ts pins the same
// value).
func TestTextHashIsTheExtensionsSHA256(t *testing.T) {
	if got := TextHash([]byte("one\ntwo\n")); got != "c3f9c8c283a2b1f2f1896f27a01cbe3cddc0c9d93f752e4639035a0f5b36f6e8" {
		t.Fatalf("TextHash(\"one\\ntwo\\n\") = %s", got)
	}
}
