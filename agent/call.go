package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/eukhe/eukhe/docs"
)

// ErrUnknownTool is Call's error for a name the roster does not hold.
var ErrUnknownTool = errors.New("unknown tool")

// ArgsError is a call whose arguments are not a JSON object of the tool's
// parameters: nothing ran.
type ArgsError struct{ Msg string }

func (e *ArgsError) Error() string { return e.Msg }

// Call runs one roster tool by name, as the MCP binding does: the same
// handler, the same documents gate and shell gate, the same bounds. An
// unknown tool is ErrUnknownTool; arguments that are not JSON, not an
// object, name a parameter the tool does not take, or do not fit its
// schema (a required one missing, a wrong type) are an *ArgsError; over
// MCP the same check gives the tool's failed result.
func (s *Session) Call(ctx context.Context, name string, args json.RawMessage) (Result, error) {
	t, ok := s.roster.Lookup(name)
	if !ok {
		return Result{}, fmt.Errorf("%w %q: the tools are %s", ErrUnknownTool, name, strings.Join(s.roster.Names(), ", "))
	}
	if err := checkArgs(name, s.params(name), args); err != nil {
		return Result{}, err
	}
	if t.args != nil {
		if err := t.args.check(name, args); err != nil {
			return Result{}, &ArgsError{Msg: err.Error()}
		}
	}
	return s.run(ctx, t, args), nil
}

// run runs a roster tool within its bound on the arguments' size: the one
// path of an MCP call and of Call.
func (s *Session) run(ctx context.Context, t *Tool, args json.RawMessage) Result {
	max := t.MaxArgs
	if max <= 0 {
		max = DefaultMaxArgs
	}
	if s.beforeCall != nil {
		s.beforeCall()
	}
	if len(args) > max {
		return badArgsText(fmt.Sprintf("%s: the arguments are %d bytes, over this tool's limit of %d; send less (read in ranges, edit in smaller patches)", t.Name, len(args), max))
	}
	if t.args != nil {
		if err := t.args.check(t.Name, args); err != nil {
			return badArgs(err)
		}
	}
	before := heapAllocs()
	ctx = s.withProgress(ctx)
	id, mark, ctx := s.beginCall(ctx)
	r := s.withRootsNote(s.withRecovered(t.Handler(ctx, s, args)))
	s.endCall(id, mark, t.Name, args, &r)
	giveBackIfLarge(before)
	return r
}

// checkArgs is the shape check of Call: a JSON object whose keys are
// parameters of the tool.
func checkArgs(tool string, params []string, raw json.RawMessage) error {
	_, err := argsByName(tool, params, raw)
	return err
}

// argsByName is the shape check, giving the arguments by name.
func argsByName(tool string, params []string, raw json.RawMessage) (map[string]json.RawMessage, error) {
	var keys map[string]json.RawMessage
	if err := docs.DecodeArgs(tool, params, raw, &keys); err != nil {
		return nil, &ArgsError{Msg: err.Error()}
	}
	for k := range keys {
		if !slices.Contains(params, k) {
			return nil, &ArgsError{Msg: fmt.Sprintf("%s has no argument %q; it takes %s", tool, k, quoted(params))}
		}
	}
	return keys, nil
}

// quoted lists parameter names as the decoder's messages do: "i", "path".
func quoted(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = strconv.Quote(n)
	}
	return strings.Join(q, ", ")
}
