package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
)

// The agent's own MCP client as a client of the session's questions (DESIGN
// §5): when it declared the elicitation capability, a question
// also goes to it as elicitation/create, a form of one enum field whose
// first value denies.

// The values of the form's one field, in the order offered: the first
// denies, since some clients pre-select it.
const (
	ElicitDeny         = "deny"
	ElicitAllow        = "allow"
	ElicitAllowSession = "allow for this session"
)

// ElicitField is the name of the form's one field.
const ElicitField = "answer"

// ElicitOffers are the values a question offers: deny, allow, and allow
// for this session only when G5 lets a client grant it (never for a
// protected or secret step).
func ElicitOffers(effs gate.Effects) []string {
	o := []string{ElicitDeny, ElicitAllow}
	if route.SessionGrantable(effs) {
		o = append(o, ElicitAllowSession)
	}
	return o
}

// ElicitForm is the elicitation/create request of a question: a message
// with the asking agent, what would run (each character a terminal hides
// or acts on escaped), its effects and why it asks under the auto set,
// and a form of one enum field whose first value denies.
func ElicitForm(q gate.Question, auto gate.AutoSet) *mcp.ElicitParams {
	offers := ElicitOffers(q.Effects)
	return &mcp.ElicitParams{
		Mode:    "form",
		Message: ElicitMessage(q, auto),
		RequestedSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				ElicitField: map[string]any{
					"type":        "string",
					"title":       "Run it?",
					"description": "deny stops it; allow runs it once" + map[bool]string{true: "; allow for this session runs this exact step here again unasked", false: ""}[len(offers) > 2],
					"enum":        offers,
					"default":     ElicitDeny,
				},
			},
			"required": []string{ElicitField},
		},
	}
}

// ElicitMessage is the question in words: the step (or the access) and
// its effects first, then who asks and where. Every field but the step is
// one line as gate.Visible shows it (a newline in a directory's name is
// $'\n', so a name cannot draw a step or an "Effects:" line of its own);
// the step keeps its lines, each indented and escaped by
// gate.VisibleText, so none starts where the message's own lines do.
func ElicitMessage(q gate.Question, auto gate.AutoSet) string {
	var b strings.Builder
	if q.Step > 0 {
		fmt.Fprintf(&b, "eukhe: run step %d? Effects: %s.\n\n", q.Step, q.Effects)
	} else if q.Cell {
		fmt.Fprintf(&b, "eukhe: run this ipython cell? Effects: %s.\n\n", q.Effects)
	} else {
		fmt.Fprintf(&b, "eukhe: allow this access? Effects: %s.\n\n", q.Effects)
	}
	for _, l := range strings.Split(gate.VisibleText(q.What), "\n") {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	who := "the agent"
	if q.Agent != "" {
		who = "subagent " + gate.Visible(q.Agent)
	}
	if q.Session != "" {
		who += " (session " + gate.Visible(q.Session) + ")"
	}
	fmt.Fprintf(&b, "\nAsked by %s", who)
	if q.Cwd != "" {
		fmt.Fprintf(&b, " in %s", gate.Visible(q.Cwd))
	}
	fmt.Fprintf(&b, ". It asks because %s.", whyAsks(q.Effects, auto))
	return b.String()
}

// whyAsks names what the auto set does not hold.
func whyAsks(effs gate.Effects, auto gate.AutoSet) string {
	if effs.Has(gate.Secret) {
		return "it reads or writes a secret, which always asks"
	}
	missing := effs &^ auto.Effects()
	if missing.Empty() {
		return "your settings ask about it"
	}
	verb := "is"
	if len(missing.List()) > 1 {
		verb = "are"
	}
	return fmt.Sprintf("%s %s not in shell.autoEffects", strings.Join(missing.Names(), " and "), verb)
}

// Shown is s as the user is shown text the agent wrote: its lines kept,
// every other character that does not print escaped (gate.VisibleText,
// the one escaper of every question and message).
func Shown(s string) string { return gate.VisibleText(s) }

// ElicitVerdict is what an elicitation's outcome makes of the question:
// accept with allow runs it (forSession when the user allowed it for the
// session and it was offered); decline, cancel, an error and any other or
// malformed content deny.
func ElicitVerdict(res *mcp.ElicitResult, err error, offers []string) (a gate.Answer, forSession bool) {
	if err != nil || res == nil || res.Action != "accept" {
		return gate.Deny, false
	}
	v, _ := res.Content[ElicitField].(string)
	switch {
	case v == ElicitAllow:
		return gate.Approve, false
	case v == ElicitAllowSession && len(offers) > 2:
		return gate.Approve, true
	}
	return gate.Deny, false
}

// Elicitor is one session's MCP client that declared elicitation.
type Elicitor struct {
	// Elicit sends one elicitation/create (ServerSession.Elicit);
	// cancelling ctx cancels the request (notifications/cancelled).
	Elicit func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error)
	// On is approval.elicitation in force; nil is on.
	On func() bool
	// Auto is the auto set in force, for the message's why.
	Auto func() gate.AutoSet

	mu   sync.Mutex
	gone bool
}

// Present is whether the client is asked now: its connection is up and
// approval.elicitation is on (Client).
func (e *Elicitor) Present() bool { return e.on() }

func (e *Elicitor) on() bool {
	e.mu.Lock()
	gone := e.gone
	e.mu.Unlock()
	return !gone && (e.On == nil || e.On())
}

// Ask sends q as elicitation/create and waits for the user's answer
// (Client); cancelling ctx cancels the request. ok is false when the
// client's connection is gone or ctx ended first.
func (e *Elicitor) Ask(ctx context.Context, q Asked) (Reply, bool) {
	auto := gate.DefaultAuto()
	if e.Auto != nil {
		auto = e.Auto()
	}
	offers := ElicitOffers(q.Effects)
	res, err := e.Elicit(ctx, ElicitForm(q.Question, auto))
	if ctx.Err() != nil {
		return Reply{}, false // answered elsewhere, or the step ended
	}
	if errors.Is(err, mcp.ErrConnectionClosed) {
		e.mu.Lock()
		e.gone = true
		e.mu.Unlock()
		return Reply{}, false
	}
	a, session := ElicitVerdict(res, err, offers)
	return Reply{Answer: a, ForSession: session}, true
}

// Settled does nothing more: the cancelled ask already sent
// notifications/cancelled, which closes the client's form.
func (e *Elicitor) Settled(Asked, Settlement) {}

// elicitors are this process's sessions whose MCP client declared
// elicitation, by session id.
var elicitors sync.Map

// elicitorOf is session id's Elicitor while its client elicits.
func elicitorOf(id string) *Elicitor {
	if id == "" {
		return nil
	}
	if v, ok := elicitors.Load(id); ok {
		return v.(*Elicitor)
	}
	return nil
}

// useClient registers the session's MCP client as one that elicits, when
// it declared the capability; a client without it is never sent one.
func (s *Session) useClient(ss *mcp.ServerSession) {
	p := ss.InitializeParams()
	if p == nil || p.Capabilities == nil || p.Capabilities.Elicitation == nil {
		return
	}
	e := &Elicitor{Elicit: ss.Elicit,
		On:   func() bool { return s.host.Settings().Elicitation },
		Auto: func() gate.AutoSet { return s.host.Settings().AutoEffects }}
	elicitors.Store(s.ID, e)
}

// dropClient forgets the session's client when its connection ends.
func (s *Session) dropClient() { elicitors.Delete(s.ID) }
