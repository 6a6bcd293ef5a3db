package agent

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
	"pgregory.net/rapid"
)

// A relayed question is the bytes it always was (gate.Question's own
// JSON), so a relay between an older and a newer eukhe still reads, and
// it comes back as the same question.
func TestRelayQuestionWire(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		q := gate.Question{
			ID:      rapid.String().Draw(t, "id"),
			Session: rapid.String().Draw(t, "session"),
			Agent:   rapid.String().Draw(t, "agent"),
			What:    rapid.String().Draw(t, "what"),
			Effects: gate.Effects(rapid.Uint8Range(0, 127).Draw(t, "effects")),
			Step:    rapid.IntRange(0, 1000).Draw(t, "step"),
			Cwd:     rapid.String().Draw(t, "cwd"),
			Reals:   rapid.SliceOfN(rapid.String(), 0, 3).Draw(t, "reals"),
		}
		if len(q.Reals) == 0 {
			q.Reals = nil
		}
		old, _ := json.Marshal(q)
		now, _ := json.Marshal(RelayQuestionOf(q))
		if string(old) != string(now) {
			t.Fatalf("the relay question's JSON changed:\nwas %s\nnow %s", old, now)
		}
		var back protocol.RelayQuestion
		if err := json.Unmarshal(old, &back); err != nil {
			t.Fatal(err)
		}
		if got := relayedQuestion(back); !reflect.DeepEqual(got, q) {
			t.Fatalf("read back %+v, want %+v", got, q)
		}
	})
}

// A relay's answer is the bytes it always was (gate.Answer's JSON), and
// its name reads back as the answer.
func TestRelayAnswerWire(t *testing.T) {
	for _, a := range []gate.Answer{gate.Unanswered, gate.Approve, gate.Deny, gate.GatewayRefused} {
		old, _ := json.Marshal(struct {
			Answer gate.Answer `json:"answer"`
		}{a})
		now, _ := json.Marshal(protocol.RelayAnswer{Answer: a.String()})
		if string(old) != string(now) {
			t.Errorf("%v: was %s, now %s", a, old, now)
		}
		if back, ok := gate.ParseAnswer(a.String()); !ok || back != a {
			t.Errorf("%v read back as %v, %v", a, back, ok)
		}
	}
	if _, ok := gate.ParseAnswer("Approve"); ok {
		t.Error("ParseAnswer took another spelling of approve")
	}
}
