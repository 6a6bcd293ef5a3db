package route

import (
	"strconv"
	"strings"
	"sync"

	"github.com/eukhe/eukhe/gate"
)

// Grants are the answers "allow for this session" (S7.8 item 8: ours,
// beyond the seed), one store for every way of asking: the agent's MCP
// client (elicitation), `eukhe approvals` terminals, the editor's dialog,
// and a subagent's question relayed to its parent.
//
// A grant is for what was judged, not for the same text. Between the
// answer and a later step with the same text the agent controls the
// filesystem: it can swap a directory the step names for a link, or the
// entries of one for links into ~/.ssh or .git. So a grant is keyed by
// the session, the step's text, its working directory, all its effects
// and the real paths it named when it was judged (gate.Question.Reals); a step
// whose effects or real paths differ is asked about again. A step with
// secret or protected is never granted and never covered, whatever was
// answered (gate_secret_read_needs_yes; a protected write asks each time).
type Grants struct {
	mu sync.Mutex
	by map[string]map[string]bool // session → grant key
}

// SessionGrantable tells whether "allow for this session" may be offered, and
// kept, for a step of these effects.
func SessionGrantable(effs gate.Effects) bool {
	return !effs.Has(gate.Protected) && !effs.Has(gate.Secret)
}

// grantKey is what a grant is for: the text, the directory, the effects
// and the real paths, each length-prefixed so no two questions share one.
func grantKey(q gate.Question) string {
	var b strings.Builder
	field := func(s string) {
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	field(q.What)
	field(q.Cwd)
	field(strconv.FormatUint(uint64(q.Effects), 10))
	for _, r := range q.Reals {
		field(r)
	}
	return b.String()
}

// Grant keeps the answer "allow for this session" to q. It reports false,
// keeping nothing, when q's effects are not grantable or it has no
// session.
func (g *Grants) Grant(q gate.Question) bool {
	if !SessionGrantable(q.Effects) || q.Session == "" {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.by == nil {
		g.by = map[string]map[string]bool{}
	}
	if g.by[q.Session] == nil {
		g.by[q.Session] = map[string]bool{}
	}
	g.by[q.Session][grantKey(q)] = true
	return true
}

// Covers tells whether an earlier grant covers q exactly: the same
// session, text, directory, effects and real paths, none of them secret
// or protected.
func (g *Grants) Covers(q gate.Question) bool {
	if g == nil || !SessionGrantable(q.Effects) || q.Session == "" {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.by[q.Session][grantKey(q)]
}

// Forget drops every grant of a session that ended.
func (g *Grants) Forget(session string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	delete(g.by, session)
}
