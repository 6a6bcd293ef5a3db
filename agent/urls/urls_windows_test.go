package urls

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// TestURLWindowsSpellingsStayUnderTheRoot: on Windows a backslash divides
// a repo:// or skill:// path as '/' does, so "..\" climbs above the root
// (escapes, never read); a drive, a stream and a device name are refused
// before anything is opened; a selector after a file's name still reads.
func TestURLWindowsSpellingsStayUnderTheRoot(t *testing.T) {
	w := newURLWorld(t)
	urlWrite(t, filepath.Join(w.outside, "secret.txt"), "secret\n")
	urlWrite(t, filepath.Join(w.root, "src", "a.go"), "package a\n\nfunc A() {}\n")
	urlWrite(t, filepath.Join(w.userSkills, "b", "SKILL.md"), "user b\n")
	out := filepath.Base(w.outside)
	vol := filepath.VolumeName(w.outside)
	ctx := context.Background()
	for _, c := range []struct{ url, kind string }{
		{`repo://\..`, KindEscapes},
		{`repo://..\` + out + `\secret.txt`, KindEscapes},
		{`repo://src\..\..\` + out + `\secret.txt`, KindEscapes},
		{`repo://src/..\../` + out + `/secret.txt`, KindEscapes},
		{`repo://` + w.outside + `\secret.txt`, KindEscapes}, // C:\…: a drive
		{`repo://` + vol + `secret.txt`, KindEscapes},        // C:secret.txt
		{`repo://\\localhost\` + strings.TrimSuffix(vol, ":") + `$\x`, KindNotFound},
		{`repo://src/a.go:stream`, KindArguments},
		{`repo://src/a.go::$DATA`, KindArguments},
		{`repo://CON`, KindArguments},
		{`repo://src/nul.txt`, KindArguments},
		{`repo://src/.. `, KindArguments},
		{`skill://..\..\` + out + `/secret.txt`, KindEscapes},
		{`skill://b\..\..\x`, KindEscapes},
		{`skill://b\SKILL.md`, KindArguments},
		{`skill://b/..\..\x`, KindEscapes},
		{`repo://src\a.go`, ""},
		{`repo://src\a.go:3`, ""},
		{`repo://src/a.go:1-2`, ""},
		{`skill://b`, ""},
	} {
		text, err := w.r.Read(ctx, c.url, 0)
		if urlKind(err) != c.kind {
			t.Errorf("%s: %q, %v; want %q", c.url, text, err, c.kind)
		}
		if strings.Contains(text, "secret") || (err != nil && strings.Contains(err.Error(), "secret\n")) {
			t.Errorf("%s: read the file outside the root", c.url)
		}
	}
}
