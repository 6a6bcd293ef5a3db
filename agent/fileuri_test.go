package agent

import (
	"path/filepath"
	"strings"
	"testing"
)

// fileURIOf is the file: URI of an absolute path of this system, as a
// client writes it ("file:///C:/Users/me" on Windows).
func fileURIOf(p string) string {
	s := filepath.ToSlash(p)
	if !strings.HasPrefix(s, "/") {
		s = "/" + s
	}
	return "file://" + s
}

// A client's file: URI is the path it names on this system: Windows'
// drive and UNC forms there, the path itself on Unix; anything not
// absolute on the system is no path.
func TestFileURIPath(t *testing.T) {
	for _, c := range []struct {
		uri           string
		windows, unix string // "!" for no path
	}{
		{"file:///home/me/ws", "!", "/home/me/ws"},
		{"file:///C:/Users/me/ws", `C:\Users\me\ws`, "/C:/Users/me/ws"},
		{"file:///c%3A/Users/me", `C:\Users\me`, "/c:/Users/me"},
		{"file:///d:/", `D:\`, "/d:"},
		{"file:///C:", `C:\`, "/C:"},
		{"file:///C:/a/../../b", `C:\b`, "/b"},
		{"file:///C:x", "!", "/C:x"},
		{"file://server/share/dir", `\\server\share\dir`, "/share/dir"},
		{"file://server", "!", "!"},
		{"file://localhost/C:/w", `C:\w`, "/C:/w"},
		{"https://x.example/", "!", "!"},
		{"file:rel", "!", "!"},
	} {
		for _, os := range []struct {
			windows bool
			want    string
		}{{true, c.windows}, {false, c.unix}} {
			got, ok := fileURIPath(c.uri, os.windows)
			if !ok {
				got = "!"
			}
			if got != os.want {
				t.Errorf("fileURIPath(%q, windows=%v) = %q, want %q", c.uri, os.windows, got, os.want)
			}
		}
	}
	// on this system, the URI of a path is that path
	dir := t.TempDir()
	if got, ok := FileURIPath(fileURIOf(dir)); !ok || got != dir {
		t.Errorf("FileURIPath(%q) = %q, %v; want %s", fileURIOf(dir), got, ok, dir)
	}
}
