package docs

import (
	"errors"
	"fmt"
)

// ErrUnknownTool is Call's error for a name that is not a document tool.
var ErrUnknownTool = errors.New("not a document tool")

// ToolNames are the document tools Call runs.
var ToolNames = []string{"read", "edit", "write", "grep", "glob"}

// Call runs one document tool by name with its JSON arguments, decoded
// strictly by DecodeArgs (an unknown field is an error that names it). A name that is
// not a document tool is ErrUnknownTool.
func Call(t *Tools, name string, args []byte) (Result, error) {
	run := func(v any, f func() Result) (Result, error) {
		if err := DecodeArgs(name, nil, args, v); err != nil {
			return Result{}, err
		}
		return f(), nil
	}
	switch name {
	case "read":
		var a ReadArgs
		return run(&a, func() Result { return t.Read(a) })
	case "edit":
		var a EditArgs
		return run(&a, func() Result { return t.Edit(a) })
	case "write":
		var a WriteArgs
		return run(&a, func() Result { return t.Write(a) })
	case "grep":
		var a GrepArgs
		return run(&a, func() Result { return t.Grep(a) })
	case "glob":
		var a GlobArgs
		return run(&a, func() Result { return t.Glob(a) })
	}
	return Result{}, fmt.Errorf("%q: %w", name, ErrUnknownTool)
}
