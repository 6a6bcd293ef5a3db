package agent

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Attack (target f): lines where the probe (segmentio) and the message
// decoder (encoding/json) might read different id or params: duplicate
// keys, keys spelled in another case or through escapes (\u0070arams,
// paramſ), trailing garbage, leading zeros, NaN, an array id after a
// number id, invalid UTF-8.
// Held: segmentio takes the last duplicate and folds case as
// encoding/json does; each line is refused (params not an object, id
// not a string or whole number, not JSON).
// Root cause: none (agent/stdio.go DecodeLine).
func TestRedteam19_ProbeAndDecoderReadTheSameIDAndParams(t *testing.T) {
	for _, line := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{},"params":[1]}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","PARAMS":[1]}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","\u0070arams":[1]}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","paramſ":[1]}`,
		`{"jsonrpc":"2.0","id":1,"id":[1],"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"ID":true,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":[1]} x`,
		`{"jsonrpc":"2.0","id":01,"method":"tools/list","params":[1]}`,
		`{"jsonrpc":"2.0","id":NaN,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1e400,"method":"tools/list"}`,
	} {
		msg, out := DecodeLine([]byte(line), false, DefaultMaxLine)
		if msg != nil || !strings.Contains(string(out), `"error"`) {
			t.Errorf("%s: got through the probe (%v)", line, msg)
		}
	}
}

// Held (was open): DecodeLine's first scan is encoding/json's again, the depth guard (10,000 levels) before segmentio's probe and the SDK's decoder
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
