package docs

import (
	"errors"
	"strings"
	"testing"
)

// An editor took an edit and has not shown it: the reply says "not
// confirmed yet" and to read the file again, never "NOT applied" about it
// and never "Nothing of this edit is on disk" (issue 15).
func TestReplyOfAnUnconfirmedDocument(t *testing.T) {
	text, isErr := Reply([]string{"a.txt", "b.txt"}, []string{"a.txt#1", "b.txt#2"}, Committed{Outcomes: []Outcome{
		{Fate: Unconfirmed, Err: errors.New("its buffer kept changing")},
		{Fate: Untried},
	}})
	if !strings.HasPrefix(text, "not confirmed yet in a.txt; NOT applied to b.txt.") ||
		!strings.Contains(text, "Read a.txt again before editing it again") ||
		!strings.Contains(text, "b.txt not tried: a.txt is not confirmed first") ||
		strings.Contains(text, "Nothing of this edit") || !isErr {
		t.Fatalf("reply (error %v):\n%s", isErr, text)
	}
	text, _ = Reply([]string{"a.txt", "b.txt"}, []string{"a.txt#1", "b.txt#2"}, Committed{Outcomes: []Outcome{
		{Fate: Landed}, {Fate: Unconfirmed, Err: errors.New("not shown")},
	}})
	if !strings.HasPrefix(text, "Applied to a.txt#1; not confirmed yet in b.txt.") {
		t.Fatalf("reply:\n%s", text)
	}
}
