package gate

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Answer is how a question ended (DESIGN §5). Only Approve runs the step;
// the zero value is Unanswered, a denial.
type Answer uint8

// The four answers.
const (
	Unanswered Answer = iota
	Approve
	Deny
	GatewayRefused
)

var answerNames = [...]string{"unanswered", "approve", "deny", "gateway_refused"}

func (a Answer) String() string {
	if int(a) < len(answerNames) {
		return answerNames[a]
	}
	return fmt.Sprintf("answer(%d)", uint8(a))
}

// Runs reports whether the answer lets the step run (G5 answered).
func (a Answer) Runs() bool { return a == Approve }

// MarshalJSON spells the answer as the wire does: "approve", "deny",
// "unanswered", "gateway_refused".
func (a Answer) MarshalJSON() ([]byte, error) { return json.Marshal(a.String()) }

// UnmarshalJSON reads one of the four names.
func (a *Answer) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	parsed, ok := ParseAnswer(s)
	if !ok {
		return fmt.Errorf("answer %q: want approve, deny, unanswered or gateway_refused", s)
	}
	*a = parsed
	return nil
}

// ParseAnswer reads one of the four names.
func ParseAnswer(s string) (Answer, bool) {
	for i, n := range answerNames {
		if n == s {
			return Answer(i), true
		}
	}
	return Unanswered, false
}

// Refusal is a step, cell or document access that did not run. Its text is
// the one renderer of S7.8: "<verb> did not run (<effects>): <reason>.
// <next step>."
type Refusal struct {
	// Verb names what did not run: "step 2 (rm -rf build)", "write /x/y".
	Verb    string
	Effects Effects
	Answer  Answer
	// Hint is how the user can answer now (route.Chain.Hint); "" is the
	// general sentence.
	Hint string
	// Unheard says which attached client could not be asked (route.Chain.Unheard),
	// "" when none.
	Unheard string
	// InCell marks the refusal of a call an ipython cell made, which asks
	// no one (cell.go).
	InCell bool
	// Auto is what the auto set held when it was refused: the next step
	// names only the effects it lacks.
	Auto Effects
}

func (r *Refusal) Error() string {
	if r.InCell && r.Answer == Unanswered {
		return cellRefusalText(r.Verb, r.Effects)
	}
	return refusalText(r.Verb, r.Effects, r.Answer, r.Hint, r.Unheard, r.Auto)
}

// RefusalText is the text the model gets when something did not run.
func RefusalText(verb string, effs Effects, a Answer) string {
	return refusalText(verb, effs, a, "", "", 0)
}

// RefusalHinted is RefusalText whose next step for an unanswered question
// is hint (what works now for this session: its client's own window, or
// `eukhe approvals` in a terminal in its directory) when hint is not "".
func RefusalHinted(verb string, effs Effects, a Answer, hint string) string {
	return refusalText(verb, effs, a, hint, "", 0)
}

// UnheardRefusalText is RefusalText when an attached client could not be
// asked (unheard, from route.Chain.Unheard: "the editor (helix) cannot show
// questions"): an unanswered question says so, and asks for a client that
// can answer instead of one to attach.
func UnheardRefusalText(verb string, effs Effects, a Answer, unheard string) string {
	return refusalText(verb, effs, a, "", unheard, 0)
}

// refusalText is the one renderer of S7.8's refusal: the hint, when there
// is one, is the next step of an unanswered question; an unheard client is
// named in its reason; the setting it names gets the effects auto does not
// hold (all of them when it holds every one).
func refusalText(verb string, effs Effects, a Answer, hint, unheard string, auto Effects) string {
	var reason, next string
	switch a {
	case Deny:
		reason = "the user denied it"
		next = "Do not try it again unless the user asks for it"
	case GatewayRefused:
		reason = "it needs the user's approval, and this session runs only from the phone gateway, which refuses protected and secret steps"
		next = "Ask the user to run it from the editor or from `eukhe approvals` in a terminal"
	case Approve:
		reason = "it was approved but did not start"
		next = "Try it again"
	default:
		reason = "it needs the user's approval, and no one answered"
		next = "Ask the user to attach a client (the editor, or `eukhe approvals` in a terminal)"
		if unheard != "" {
			reason += ": " + unheard
			next = "Ask the user to answer it with `eukhe approvals` in a terminal"
		}
		if hint != "" {
			next = hint
		}
		if !effs.Has(Secret) {
			// a secret always asks: no setting and no other step gets it
			missing := effs &^ auto
			if missing == 0 {
				missing = effs
			}
			next += fmt.Sprintf(", or to add %s to shell.autoEffects", strings.Join(missing.Names(), " and "))
			if effs != Of(Read) {
				next += "; or use read-only steps"
			}
		}
	}
	return fmt.Sprintf("%s did not run (%s): %s. %s.", verb, effs, reason, next)
}
