package agent

import (
	"strings"

	"github.com/eukhe/eukhe/docs"
)

// recoverer is a store that finished interrupted commits when its process
// started (docs.Disk with an intent journal: DESIGN.md §10).
type recoverer interface {
	TakeRecovered() []docs.Recovery
}

// withRecovered adds to a reply what the host's store recovered of
// interrupted commits and has not told yet: the first reply after the
// start tells it, once.
func (s *Session) withRecovered(r docs.Result) docs.Result {
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
	r.Text += b.String()
	return r
}
