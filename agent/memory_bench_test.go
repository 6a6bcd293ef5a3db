package agent

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkReadCall is one small read through the MCP binding, with the
// session's transcript (every call kept in the state directory) and
// without it.
func BenchmarkReadCall(b *testing.B) {
	for _, keep := range []bool{false, true} {
		name := "no-transcript"
		if keep {
			name = "transcript"
		}
		b.Run(name, func(b *testing.B) {
			w := newMemWorld(b, nil)
			os.WriteFile(filepath.Join(w.dir, "a.txt"), []byte("one\ntwo\n"), 0o644)
			log := ""
			if keep {
				log = filepath.Join(w.state, "sessions", "s.jsonl")
			}
			s, err := Open(Options{Host: w.host, ID: "s", LogPath: log})
			if err != nil {
				b.Fatal(err)
			}
			defer s.Close()
			cs := connect(b, s)
			args := &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "a.txt"}}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := cs.CallTool(context.Background(), args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
