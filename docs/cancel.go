package docs

import (
	"context"
	"strings"
)

// Cancellation: every tool takes the call's context
// first and stops when it is done — a cancelled MCP call, a closed editor,
// an interrupted eukhe tool. Where it stops decides what it says:
//
//   - read, write and edit check it after the documents gate (whose
//     question is asked under the same context, so it is withdrawn with the
//     call) and before they read or commit; a commit that has begun runs to
//     its end, so cancelling never leaves a half-applied commit.
//   - grep and glob check it at every directory and every file of the walk
//     (walk.go), and say how far they got. What they found is not shown and
//     no line counts as seen: the reply of a cancelled call may never reach
//     the model.

// cancelled is the reply of a call cancelled before it did anything.
func cancelled(tool, shown, nothing string) Result {
	r := failed("[%s %s cancelled: the call was cancelled before it was done; %s. Run it again if you still need it.]", tool, shown, nothing)
	r.Kind = Cancelled
	return r
}

// walkCancelled is the reply of a grep or glob whose walk was cancelled:
// what it had searched so far, and that nothing of it is shown.
func walkCancelled(tool, under string, tally *Tally, found int, foundWhat string) Result {
	shown, narrower := "nothing is shown and no line counts as seen", "path or glob"
	if tool == "glob" {
		shown, narrower = "nothing is listed", "path or pattern"
	}
	r := failed("[%s cancelled: the call was cancelled after %s %s under %s (%s so far); the walk stopped there, so %s. %s again, on a narrower %s, if you still need it.]\n",
		tool, Count(walked(tool, tally), "file"), walkVerb(tool), under, Count(found, foundWhat), shown, upperFirst(tool), narrower)
	r.Kind = Cancelled
	return r
}

// walked is how many files the walk got to: grep's searched, glob's
// considered (matched or not).
func walked(tool string, t *Tally) int {
	n := t.searched()
	if tool == "glob" {
		t.mu.Lock()
		n += t.Count[Filtered]
		t.mu.Unlock()
	}
	return n
}

func walkVerb(tool string) string {
	if tool == "glob" {
		return "considered"
	}
	return "searched"
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// sectionNames names an edit's files for a notice.
func sectionNames(st []*staged) string {
	var names []string
	for _, s := range st {
		names = append(names, s.name())
	}
	return strings.Join(names, ", ")
}

// done tells whether ctx is cancelled, without waiting.
func done(ctx context.Context) bool { return ctx.Err() != nil }
