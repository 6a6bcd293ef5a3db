package agent

import (
	"context"
	"sync"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
	"github.com/eukhe/eukhe/gate/settings"
)

// Host is the store and asker of one workspace root: what every session on
// that root stands on. Headless (below) keeps documents on disk and has no
// interactive client; the editor's server (lsp) implements the same
// interface with its buffers and dialogs, so the tools reach the editor
// once `eukhe mcp` attaches to it (DESIGN.md §7).
type Host interface {
	// Root is the workspace root, absolute.
	Root() string
	// Store is where documents are read and where changes land.
	Store() docs.Store
	// Settings are the settings in force now (they change as the files do).
	Settings() settings.Settings
	// Policy is the path policy of this root (G1).
	Policy() *gate.Policy
	// Attach registers an open session and gives the chain its questions
	// go up (G5): the session's own sink first, then each parent's, to the
	// root. Detach unregisters it when the session ends.
	Attach(s *Session) route.Chain
	Detach(s *Session)
	// Issue receives each report_issue row, for the user to see (S7.4).
	Issue(Issue)
}

// Headless is the host without an editor: documents on disk, settings
// from a function (a settings.Watcher's Current), and no interactive
// client unless Client is set — so a question is unanswered and the model
// gets the refusal text (G5).
type Headless struct {
	RootDir string
	Disk    docs.Store
	Current func() settings.Settings
	Paths   *gate.Policy
	// Client answers the questions of sessions opened on this host; nil:
	// no one is attached.
	Client func(ctx context.Context, q gate.Question) gate.Answer
	// Sink, when set, is the sessions' own approval sink in place of
	// Client: the session's approvals endpoint (Terminals), which `eukhe
	// approvals` attaches to.
	Sink route.Asker
	// Remote, when set, is the client of a parent session open in another
	// process (its approvals endpoint, G5 relay), the whole sink of that
	// link (ClientSink); nil: a link no one answers.
	Remote func(parent string) Client
	// OnIssue sees each report_issue row; nil drops it (the session log
	// keeps it).
	OnIssue func(Issue)

	mu       sync.Mutex
	sessions map[string]*Session
}

// Root is the workspace root.
func (h *Headless) Root() string { return h.RootDir }

// Store is the disk.
func (h *Headless) Store() docs.Store { return h.Disk }

// Settings are Current's, or the defaults.
func (h *Headless) Settings() settings.Settings {
	if h.Current == nil {
		return settings.Defaults()
	}
	return h.Current()
}

// Policy is the path policy.
func (h *Headless) Policy() *gate.Policy { return h.Paths }

// Attach registers s. Its chain is its own sink, then each parent open on
// this host; a parent not open here (its session is in another process
// with no editor between them) is a link no one can answer.
func (h *Headless) Attach(s *Session) route.Chain {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.sessions == nil {
		h.sessions = map[string]*Session{}
	}
	h.sessions[s.ID] = s
	var sink route.Asker = route.Headless{Client: h.Client}
	if h.Sink != nil {
		sink = h.Sink
	}
	chain := route.Chain{{Name: s.ID, Asker: sink}}
	seen := map[string]bool{s.ID: true}
	for p := s.Parent; p != "" && !seen[p]; {
		seen[p] = true
		ps, ok := h.sessions[p]
		if !ok {
			var remote route.Asker = route.Headless{}
			if h.Remote != nil {
				remote = ClientSink{h.Remote(p)}
			}
			chain = append(chain, route.Link{Name: p, Asker: remote})
			break
		}
		chain = append(chain, route.Link{Name: p, Asker: sink})
		p = ps.Parent
	}
	return chain
}

// RelayTo asks session id's chain a question relayed to it from a
// subagent in another process (G5): its frame names the subagent.
func (h *Headless) RelayTo(id string) func(ctx context.Context, q gate.Question) gate.Answer {
	return func(ctx context.Context, q gate.Question) gate.Answer {
		h.mu.Lock()
		s := h.sessions[id]
		h.mu.Unlock()
		if s == nil || q.Session == id || RelayHops(ctx) >= MaxRelayHops {
			return gate.Unanswered // gone, or a loop of --parent
		}
		return s.Chain().Ask(ctx, q)
	}
}

// Detach unregisters s.
func (h *Headless) Detach(s *Session) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.sessions, s.ID)
}

// Issue hands the row to OnIssue.
func (h *Headless) Issue(is Issue) {
	if h.OnIssue != nil {
		h.OnIssue(is)
	}
}
