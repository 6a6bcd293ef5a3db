package approvals

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/protocol"
	"pgregory.net/rapid"
)

// A line typed answers only the question whose prompt is on the screen:
// whatever questions two sources ask, settle elsewhere or leave behind
// when they go away, an answer never goes to a question the terminal did
// not show last, nor to one dropped since it was shown.
func TestLaw_a_line_answers_only_the_question_on_screen(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		srcs := []*source{{name: "one"}, {name: "two"}}
		gone := map[*source]bool{}
		var d desk
		type key struct {
			src *source
			id  string
		}
		var asked []key
		var onScreen *key
		// look notes the prompt out shows, if any.
		look := func(out string) {
			for i := len(asked) - 1; i >= 0; i-- {
				k := asked[i]
				if strings.Contains(out, questionPrompt(protocol.ApproveParams{ID: k.id, Text: "q " + k.id})) {
					onScreen = &k
					return
				}
			}
		}
		drop := func(k key) {
			if onScreen != nil && *onScreen == k {
				onScreen = nil
			}
		}
		n := rapid.IntRange(1, 8).Draw(rt, "events")
		for i := range n {
			src := rapid.SampledFrom(srcs).Draw(rt, "source")
			switch rapid.SampledFrom([]string{"ask", "ask", "settle", "gone", "line", "line"}).Draw(rt, "event") {
			case "ask":
				if gone[src] {
					continue
				}
				k := key{src, fmt.Sprint(i)}
				asked = append(asked, k)
				params, _ := json.Marshal(protocol.ApproveParams{ID: k.id, Text: "q " + k.id})
				look(d.message(src, protocol.TerminalLine{Method: protocol.MethodApprove, Params: params}))
			case "settle":
				if len(asked) == 0 {
					continue
				}
				k := rapid.SampledFrom(asked).Draw(rt, "settled")
				params, _ := json.Marshal(protocol.ApprovalSettledParams{ID: k.id})
				out := d.message(k.src, protocol.TerminalLine{Method: protocol.MethodApprovalSettled, Params: params})
				if out != "" {
					drop(k)
				}
			case "gone":
				gone[src] = true
				if onScreen != nil && onScreen.src == src {
					onScreen = nil
				}
				d.gone(src)
			case "line":
				p, _, out := d.line(rapid.SampledFrom([]string{"y", "", "n"}).Draw(rt, "typed"))
				if p == nil {
					if out == "" {
						onScreen = nil // nothing was waiting
					}
					look(out)
					continue
				}
				if got := (key{p.src, p.q.ID}); onScreen == nil || *onScreen != got {
					rt.Fatalf("a line answered %s of %s, but the screen shows %v", got.id, got.src.name, onScreen)
				}
				onScreen = nil
				look(d.show())
			}
		}
	})
}
