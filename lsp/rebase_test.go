package lsp

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// lineEdit replaces lines [at, at+n) of a text with repl.
type lineEdit struct {
	at, n int
	repl  []string
}

func (e lineEdit) on(ls []string) []string {
	return slices.Concat(ls[:e.at], e.repl, ls[e.at+e.n:])
}

func drawEdit(t *rapid.T, ls []string, label string) lineEdit {
	at := rapid.IntRange(0, len(ls)).Draw(t, label+" at")
	n := rapid.IntRange(0, len(ls)-at).Draw(t, label+" n")
	k := rapid.IntRange(0, 3).Draw(t, label+" new lines")
	var repl []string
	for i := range k {
		repl = append(repl, fmt.Sprintf("%s %d\n", label, i))
	}
	if n == 0 && k == 0 {
		repl = []string{label + " added\n"}
	}
	return lineEdit{at, n, repl}
}

// An edit made again over the user's typing (rebase.go) lands exactly the
// edit's lines and keeps every line the user typed, when the two replace
// different lines (not touching: an insertion next to a change touches
// it); when they touch, it is not made again at all.
func TestLaw_an_edit_rebased_under_typing_keeps_the_users_lines_and_the_edits(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		nl := rapid.IntRange(1, 8).Draw(t, "lines")
		base := make([]string, nl)
		for i := range base {
			base[i] = fmt.Sprintf("line %d\n", i)
		}
		agent := drawEdit(t, base, "agent")
		user := drawEdit(t, base, "user")
		from := []byte(strings.Join(base, ""))
		to := []byte(strings.Join(agent.on(base), ""))
		cur := []byte(strings.Join(user.on(base), ""))
		got, ok := merged(to, from, cur)
		apart := !touch(agent.at, agent.at+agent.n, user.at, user.at+user.n)
		if !apart {
			if ok {
				t.Fatalf("edits on the same or bordering lines merged: agent %+v, user %+v: %q", agent, user, got)
			}
			return
		}
		if !ok {
			t.Fatalf("edits on lines apart did not merge: agent %+v, user %+v", agent, user)
		}
		first, second := agent, user
		if user.at > agent.at {
			first, second = user, agent // apply the later one first: positions stay
		}
		want := []byte(strings.Join(second.on(first.on(base)), ""))
		if !bytes.Equal(got, want) {
			t.Fatalf("merged = %q, want %q (agent %+v, user %+v)", got, want, agent, user)
		}
	})
}
