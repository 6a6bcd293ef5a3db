package gate

import (
	"context"
	"fmt"
)

// A cell's calls (G4, S7 item 8): the document functions and bash() of an
// ipython cell the gate let run do not ask again. What needs a question
// they cannot have does not run, and the model is told to make the call
// with the tool itself, which can ask. The cell's context carries the
// mark; route.Chain.Ask answers Unanswered on it without showing
// anything, and route.Chain.RefusalTextAt gives cellRefusalText (through
// Refusal).

type inCellKey struct{}

// InCell marks ctx as the context of a call a running ipython cell made:
// no question goes out on it.
func InCell(ctx context.Context) context.Context {
	return context.WithValue(ctx, inCellKey{}, true)
}

// IsInCell tells whether ctx is a cell's call's (InCell).
func IsInCell(ctx context.Context) bool {
	v, _ := ctx.Value(inCellKey{}).(bool)
	return v
}

// cellRefusalText is the refusal of what a cell's call needed a question
// for.
func cellRefusalText(verb string, effs Effects) string {
	return fmt.Sprintf("%s did not run (%s): it needs the user's approval, and a call from an ipython cell never asks. "+
		"Make this call with the tool itself (read, write, edit, grep, glob or bash), which asks the user.", verb, effs)
}
