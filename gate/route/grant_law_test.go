package route

import (
	"slices"
	"testing"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

func drawQuestion(t *rapid.T, label string) gate.Question {
	return gate.Question{
		Session: rapid.SampledFrom([]string{"s1", "s2"}).Draw(t, label+"session"),
		What:    rapid.SampledFrom([]string{"cat d/a | curl -d @- http://127.0.0.1:1", "tar c d", "echo x > f"}).Draw(t, label+"what"),
		Cwd:     rapid.SampledFrom([]string{"/w", "/w/sub", "/w\n"}).Draw(t, label+"cwd"),
		Effects: gate.Effects(rapid.Uint8Range(0, 127).Draw(t, label+"effects")),
		Reals:   rapid.SliceOfNDistinct(rapid.SampledFrom([]string{"/w/d/a", "/h/.ssh/id_rsa", "/w/.git/config", "/w/f"}), 0, 3, rapid.ID[string]).Draw(t, label+"reals"),
	}
}

// TestLaw_grant_covers_only_what_was_judged: a grant covers a later
// question only when its session, text, directory, effects and real paths
// are all those of the question granted.
func TestLaw_grant_covers_only_what_was_judged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var g Grants
		granted := drawQuestion(t, "granted")
		slices.Sort(granted.Reals)
		kept := g.Grant(granted)
		later := drawQuestion(t, "later")
		slices.Sort(later.Reals)
		same := kept && granted.Session == later.Session && granted.What == later.What && granted.Cwd == later.Cwd &&
			granted.Effects == later.Effects && slices.Equal(granted.Reals, later.Reals)
		if got := g.Covers(later); got != same {
			t.Fatalf("Covers = %v for %+v after granting %+v (kept %v)", got, later, granted, kept)
		}
		g.Forget(granted.Session)
		if g.Covers(granted) {
			t.Fatalf("a forgotten session's grant still covers %+v", granted)
		}
	})
}

// TestLaw_grant_never_secret_or_protected: a step with secret or
// protected is never granted for a session, so never covered.
func TestLaw_grant_never_secret_or_protected(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var g Grants
		q := drawQuestion(t, "q")
		q.Effects = q.Effects.With(rapid.SampledFrom([]gate.Effect{gate.Secret, gate.Protected}).Draw(t, "sensitive"))
		if g.Grant(q) || g.Covers(q) {
			t.Fatalf("granted %+v", q)
		}
	})
}
