//lint:file-ignore SA1019 roots are what the clients that start servers in / or the home offer (MCP up to 2025-11-25); 2026-07-28 deprecates them

package roots

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// pickRoot passes over what is not a directory here and says so.
func TestPickRoot(t *testing.T) {
	dir := t.TempDir()
	root, why := pickRoot([]*mcp.Root{{URI: "https://x.example/"}, {URI: "file:///no/such/dir"}, {URI: "file://" + dir}}, "/cwd")
	if root != dir || !strings.Contains(why, "root 3") || !strings.Contains(why, "not a file: URI") || !strings.Contains(why, "no such directory") {
		t.Errorf("pickRoot: %s (%s)", root, why)
	}
	if root, why := pickRoot(nil, "/cwd"); root != "/cwd" || !strings.Contains(why, "named no roots") {
		t.Errorf("no roots: %s (%s)", root, why)
	}
	if root, why := pickRoot([]*mcp.Root{{URI: "file:///no/such"}}, "/cwd"); root != "/cwd" || !strings.Contains(why, "no root of the client's is a directory here") {
		t.Errorf("none usable: %s (%s)", root, why)
	}
}
