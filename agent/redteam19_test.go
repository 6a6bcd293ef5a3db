package agent

import (
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
