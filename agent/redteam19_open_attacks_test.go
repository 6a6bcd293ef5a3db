//go:build open_attacks

package agent

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Attack (target f): DecodeLine now scans a line with segmentio's
// Valid, which recurses once per nesting level with no depth bound
// (encoding/json's scanner stops at 10,000 levels and says the line is
// not JSON). One line of 8 MiB — far under DefaultMaxLine (64 MiB) —
// holding four million nested arrays in a tool call's params.
// THROUGH (severity medium: any client line kills the whole server —
// the session, its jobs' bookkeeping and approvals in flight — with an
// unrecoverable "fatal error: stack overflow", where before the diff it
// got a -32700 parse error; an agent can be led to send such an argument,
// and a 1M-deep line already costs seconds of CPU): the child process
// running DecodeLine dies with "goroutine stack exceeds 1000000000-byte
// limit".
// Root cause: agent/stdio.go:DecodeLine calls fastjson.Valid
// (segmentio/encoding json decoder.parseValue/parseArray, recursive, no
// depth limit) before anything bounds the nesting.
func TestRedteam19_DeeplyNestedLineDoesNotKillTheServer(t *testing.T) {
	if os.Getenv("EUKHE_R19_CHILD") != "" {
		n := 4 << 20
		line := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"read","arguments":{"a":` +
			strings.Repeat("[", n) + strings.Repeat("]", n) + `}}}`
		_, out := DecodeLine([]byte(line), false, DefaultMaxLine)
		os.Stdout.Write(append(out, '\n'))
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestRedteam19_DeeplyNestedLineDoesNotKillTheServer$", "-test.count=1")
	cmd.Env = append(os.Environ(), "EUKHE_R19_CHILD=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		s := string(out)
		if i := strings.Index(s, "fatal error"); i >= 0 {
			s = s[max(0, i-200):min(len(s), i+200)]
		} else if len(s) > 600 {
			s = s[:600]
		}
		t.Fatalf("a deeply nested line killed the decoder's process (%v):\n%s", err, s)
	}
	if !strings.Contains(string(out), `"error"`) {
		t.Fatalf("a 4M-deep line was not refused: %.400s", out)
	}
}
