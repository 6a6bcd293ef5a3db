package discovery

import (
	"path/filepath"
	"strings"
	"testing"
)

// A directory whose sockets fit is kept; one too long for sun_path (as a
// long TMPDIR on macOS gives) gives way to tmp/eukhe-<uid>, and every
// socket ListenEntry makes in what is returned fits.
func TestShorterDirKeepsSocketsWithinTheLimit(t *testing.T) {
	tmp := filepath.Join(string(filepath.Separator), "tmp")
	short := filepath.Join(string(filepath.Separator), "run", "eukhe")
	if got := shorterDir(short, tmp, 501, 103); got != short {
		t.Fatalf("a short directory was moved: %s", got)
	}
	long := filepath.Join(string(filepath.Separator), "var", "folders", strings.Repeat("x", 80), "T", "eukhe-501")
	got := shorterDir(long, tmp, 501, 103)
	if got != filepath.Join(tmp, "eukhe-501") {
		t.Fatalf("a long directory was kept: %s", got)
	}
	if len(got)+longestSocketName > 103 {
		t.Fatalf("%s leaves no room for a socket", got)
	}
	edge := strings.Repeat("d", 103-longestSocketName)
	if shorterDir(edge, tmp, 1, 103) != edge {
		t.Fatal("a directory that just fits was moved")
	}
	if shorterDir(edge+"d", tmp, 1, 103) == edge+"d" {
		t.Fatal("a directory one byte too long was kept")
	}
}
