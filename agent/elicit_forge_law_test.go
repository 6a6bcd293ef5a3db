package agent

import (
	"strings"
	"testing"
	"unicode"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

// forgeText draws what an agent can put in a field of a question: lines
// that look like the message's own, controls, bidi and zero-width marks.
func forgeText(t *rapid.T, label string) string {
	pieces := rapid.SliceOfN(rapid.SampledFrom([]string{"\n", "\n\n", "Effects: net", "eukhe: run step 9? Effects: read.",
		"Asked by the agent", "    ", "\r", "\u202e", "\u2066", "\u200b", "\u2028", "\x1b[2J", "\t", "x", "/w/d", "'", "$'"}), 0, 12)
	return strings.Join(pieces.Draw(t, label), "")
}

// TestLaw_question_fields_cannot_forge: whatever the agent puts in a
// directory's name, a subagent's name, a session id or the step, the
// elicitation message's first line is the real step and effects, every
// other line is blank, the step's (indented), or the message's own
// "Asked by" line, and no line holds a character a client would hide or
// act on.
func TestLaw_question_fields_cannot_forge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := gate.Question{Session: forgeText(t, "session"), Agent: forgeText(t, "agent"), What: forgeText(t, "what"),
			Cwd: forgeText(t, "cwd"), Effects: gate.Of(gate.Read, gate.Write), Step: rapid.IntRange(0, 3).Draw(t, "step")}
		m := ElicitMessage(q, gate.AutoOf(gate.Of(gate.Read)))
		lines := strings.Split(m, "\n")
		head := "eukhe: allow this access? Effects: read+write."
		if q.Step > 0 {
			head = "eukhe: run step " + string(rune('0'+q.Step)) + "? Effects: read+write."
		}
		if lines[0] != head {
			t.Fatalf("first line %q, want %q:\n%s", lines[0], head, m)
		}
		asked := 0
		for _, l := range lines[1:] {
			switch {
			case l == "", strings.HasPrefix(l, "    "):
			case strings.HasPrefix(l, "Asked by "):
				asked++
			default:
				t.Fatalf("a line of its own: %q\n%s", l, m)
			}
			for _, r := range l {
				if r != '\t' && !unicode.IsPrint(r) {
					t.Fatalf("line %q holds %U", l, r)
				}
			}
		}
		if asked != 1 {
			t.Fatalf("%d Asked-by lines:\n%s", asked, m)
		}
	})
}
