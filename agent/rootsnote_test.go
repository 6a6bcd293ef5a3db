//lint:file-ignore SA1019 roots are what the clients that start servers in / or the home offer (MCP up to 2025-11-25); 2026-07-28 deprecates them

package agent

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The note of a change of roots: one line naming the roots now, the root
// served and how to serve the new first root; nothing when the served
// root is still the client's first.
func TestRootsNote(t *testing.T) {
	abs := func(p string) string {
		return filepath.Join(filepath.VolumeName(os.TempDir())+string(filepath.Separator), p)
	} // "/a" or "C:\a"
	served, a, b := abs("served"), abs(filepath.Join("a", "new")), abs("b")
	n := rootsNote([]*mcp.Root{{URI: "https://x.example/"}, {URI: fileURIOf(a)}, {URI: fileURIOf(b)}}, served)
	for _, want := range []string{"the client's roots changed to https://x.example/, " + a + ", " + b + ";", "this session still serves " + served, "to serve " + a + ", restart eukhe's MCP server", "--root " + a} {
		if !strings.Contains(n, want) {
			t.Errorf("%q lacks %q", n, want)
		}
	}
	if strings.Contains(n, "\n") {
		t.Errorf("not one line: %q", n)
	}
	if n := rootsNote([]*mcp.Root{{URI: fileURIOf(served) + "/"}, {URI: fileURIOf(b)}}, served); n != "" {
		t.Errorf("the served root is still the first: %q", n)
	}
	if n := rootsNote(nil, served); !strings.Contains(n, "changed to none") || !strings.Contains(n, "still serves "+served) {
		t.Errorf("no roots: %q", n)
	}
}
