package gate

import (
	"strings"
	"testing"
)

// A parameter only the run knows ($?, $$, $RANDOM) is kept in the step the
// user is shown, never dropped as if it were empty.
func TestShownStepKeepsRuntimeParameters(t *testing.T) {
	w := newWorld(t)
	sc, err := w.shell(w.root).Classify("false; echo $? $$ $RANDOM x")
	if err != nil {
		t.Fatal(err)
	}
	got := sc.Steps[len(sc.Steps)-1].Text
	for _, want := range []string{"$?", "$$", "$RANDOM", "x"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the step is shown as %q; it lost %s", got, want)
		}
	}
}
