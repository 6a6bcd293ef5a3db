package agent

import (
	"strings"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// RecoveryJudge is how the recovery of a journal left behind judges each
// path it names again (docs.JournalAt.Judge): the documents gate's
// judgment of a write of that real path now, as a document tool's write
// is judged. "" when it would run unasked; else why not, for the notice.
// Recovery never asks (no one is there at a start): a path that would ask
// is not acted on, and a forward journal naming one is turned back.
func RecoveryJudge(g *gate.DocumentsGate) func(real string) string {
	return func(real string) string {
		v := g.JudgeAccess(real, gate.WriteAccess)
		if !v.Asks {
			return ""
		}
		return "a write there is " + v.Effects.String() + " and asks now"
	}
}

// recoverer is a store that finished interrupted commits when its process
// started (docs.Disk with an intent journal: DESIGN.md §10).
type recoverer interface {
	TakeRecovered() []docs.Recovery
}

// withRecovered adds to a reply what the host's store recovered of
// interrupted commits and has not told yet: the first reply after the
// start tells it, once.
func (s *Session) withRecovered(r Result) Result {
	st, ok := s.host.Store().(recoverer)
	if !ok {
		return r
	}
	rs := st.TakeRecovered()
	if len(rs) == 0 {
		return r
	}
	var b strings.Builder
	for _, rc := range rs {
		b.WriteString("\n[notice] " + rc.Text(s.tools.Display))
	}
	r.appendText(b.String())
	return r
}
