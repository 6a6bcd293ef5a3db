package agent

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"

	"github.com/eukhe/eukhe/docs"
)

// The wire's errors in the client's terms (issue: "the wire"): a request
// id that is not a string or a whole number, params that are not an
// object, a request whose id is still being answered, and a params field
// of the wrong type each get an error that names what was wrong and what
// to send, never the Go decoder's words ("invalid ID type map[string]
// interface {}", "cannot unmarshal … into Go value of type
// mcp.CallToolParamsRaw").

// checkID refuses an id JSON-RPC does not allow, or that would be read as
// another (1.5 was answered as 1); "" when it is fine. A missing or null
// id is a notification.
func checkID(raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return ""
	}
	switch c := s[0]; {
	case c == '"':
		return ""
	case c == '-' || (c >= '0' && c <= '9'):
		if strings.ContainsAny(s, ".eE") {
			return fmt.Sprintf("the id %s is not a whole number; use a string or a whole number", s)
		}
		return ""
	}
	return fmt.Sprintf("the id must be a string or a whole number, not %s", describeJSON(json.RawMessage(s)))
}

// checkParams refuses params that are not an object (every MCP method
// takes an object, or nothing); "" when they are fine.
func checkParams(method string, raw json.RawMessage) string {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" || s[0] == '{' {
		return ""
	}
	return fmt.Sprintf("the params of %s must be an object, not %s", method, describeJSON(json.RawMessage(s)))
}

// describeJSON names a JSON value's kind as a message says it.
func describeJSON(v json.RawMessage) string {
	if len(v) == 0 {
		return "nothing"
	}
	if v[0] == '{' {
		return "an object"
	}
	return docs.JSONKind(v)
}

// goField finds the SDK decoder's field and type in its message.
var goField = regexp.MustCompile(`cannot unmarshal "((?:[^"\\]|\\.)*)" into Go struct field [\w.]*\.(\w+) of type ([\w.\[\]*]+)`)

// plainWireError rewrites an error response the SDK made from a Go
// decoding error into the client's terms: which field of which method's
// params, what it must be, what was sent. Any other error is kept.
func plainWireError(err error) (error, bool) {
	msg := err.Error()
	if !strings.Contains(msg, "Go value of type") && !strings.Contains(msg, "Go struct field") {
		return err, false
	}
	method := "the request"
	if _, rest, ok := strings.Cut(msg, "handling '"); ok {
		if m, _, ok := strings.Cut(rest, "'"); ok {
			method = m
		}
	}
	out := &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams}
	if m := goField.FindStringSubmatch(msg); m != nil {
		var given string
		if err := json.Unmarshal([]byte(`"`+m[1]+`"`), &given); err != nil || given == "" {
			given = m[1]
		}
		out.Message = fmt.Sprintf("invalid params for %s: %q must be %s, not %s", method, m[2], goKind(m[3]), describeJSON(json.RawMessage(given)))
	} else {
		out.Message = fmt.Sprintf("invalid params for %s: they do not have the shape the MCP specification gives it; send an object of its params", method)
	}
	return out, true
}

// goKind names a Go type as a JSON kind.
func goKind(t string) string {
	switch {
	case t == "string":
		return "a string"
	case t == "bool":
		return "true or false"
	case strings.HasPrefix(t, "int") || strings.HasPrefix(t, "uint"):
		return "a whole number"
	case strings.HasPrefix(t, "float"):
		return "a number"
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case strings.HasPrefix(t, "map"):
		return "an object"
	}
	return "an object"
}
