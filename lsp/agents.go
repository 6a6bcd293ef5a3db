package lsp

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
	"github.com/eukhe/eukhe/gate/settings"
)

// attachments are what agents attached to this editor stand on: the
// settings watch, the path policy, the sessions (for G5 chains and host
// tools), the tools the editor lent, and the approval broker.
type attachments struct {
	s   *Server
	env map[string]string

	mu       sync.Mutex
	watch    *settings.Watcher
	paths    settings.Paths
	policy   *gate.Policy
	git      *settings.GitWatch // keeps the policy's git places current
	sessions map[string]*agent.Session
	tools    map[string]agent.HostTool // joined by the editor, by name
	listener interface{ Close() error }
	stopped  bool

	broker *broker
}

func newAttachments(s *Server, env map[string]string) *attachments {
	a := &attachments{s: s, env: env, sessions: map[string]*agent.Session{}, tools: map[string]agent.HostTool{}}
	a.paths = settings.Locate(env, []string{s.opts.Root})
	a.policy, a.git = a.paths.Policy(env)
	a.broker = newBroker(s)
	return a
}

// settings are the settings in force: the watcher's once it runs, else
// the defaults.
func (a *attachments) settings() settings.Settings {
	a.mu.Lock()
	w := a.watch
	a.mu.Unlock()
	if w == nil {
		return settings.Defaults()
	}
	return w.Current()
}

func (a *attachments) currentPolicy() *gate.Policy {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.policy
}

// host is the agent.Host of a session attached on root: the editor Store,
// the server's settings and policy, the editor session as the root of
// every chain (G5).
type host struct {
	a    *attachments
	root string
	// perCall: the host of eukhe/tool's sessions, whose requests each
	// bring their own progress sink; an agent's calls are watched.
	perCall bool
}

func (h *host) Root() string                { return h.root }
func (h *host) Store() docs.Store           { return h.a.s.store }
func (h *host) Settings() settings.Settings { return h.a.settings() }
func (h *host) Policy() *gate.Policy        { return h.a.currentPolicy() }
func (h *host) Issue(is agent.Issue)        { h.a.s.toolIssue(is) }

// Attach registers s, lends it the editor's tools, and gives its chain:
// its own link (no client of its own), each parent open on this server,
// then the editor's session, whose clients are the editor and the
// `eukhe approvals` terminals. Routing along it is route.Chain's.
func (h *host) Attach(s *agent.Session) route.Chain {
	a := h.a
	a.mu.Lock()
	defer a.mu.Unlock()
	a.sessions[s.ID] = s
	if !h.perCall {
		s.SetProgressWatch(func() docs.ProgressFunc { return a.s.progressSink(nil) })
	}
	for _, t := range a.tools {
		_ = s.Surface().Join(a.bind(t, s.ID))
	}
	// A session with a parent is a subagent: its relayed questions name
	// it. An agent of its own asks its own questions.
	name := ""
	if s.Parent != "" {
		name = s.ID
	}
	chain := route.Chain{{Name: name, Asker: route.Headless{}}}
	seen := map[string]bool{s.ID: true}
	for p := s.Parent; p != "" && !seen[p]; {
		seen[p] = true
		ps, ok := a.sessions[p]
		if !ok {
			break // not attached here: the editor's session answers for it
		}
		chain = append(chain, route.Link{Name: p, Asker: route.Headless{}})
		p = ps.Parent
	}
	return append(chain, route.Link{Name: "editor", Asker: a.broker})
}

// Detach unregisters s; its remembered approvals go with it.
func (h *host) Detach(s *agent.Session) {
	h.a.mu.Lock()
	delete(h.a.sessions, s.ID)
	h.a.mu.Unlock()
	h.a.broker.forget(s.ID)
}

// hostFor is the host of a session that attaches on root: root must lie in
// a workspace root of the editor.
func (a *attachments) hostFor(root string) (*host, error) {
	if !filepath.IsAbs(root) {
		return nil, fmt.Errorf("the root %q is not absolute", root)
	}
	root = filepath.Clean(root)
	for _, r := range a.s.roots() {
		if rel, err := filepath.Rel(r, root); err == nil && rel != ".." && !startsDotDot(rel) {
			return &host{a: a, root: root}, nil
		}
	}
	return nil, fmt.Errorf("this editor's server does not serve %s", root)
}

func startsDotDot(rel string) bool {
	return len(rel) >= 3 && rel[:3] == ".."+string(filepath.Separator)
}

// sessionOptions are the agent.Options of a session attached on h.
func (a *attachments) sessionOptions(h *host, parent string) agent.Options {
	id := agent.NewID()
	return agent.Options{
		Host:    h,
		ID:      id,
		Parent:  parent,
		LogPath: agent.SessionLogPath(a.env, id),
		// How often long calls report $/progress; 0 is EUKHE_PROGRESS_EVERY
		// of env, else the defaults.
		ProgressEvery: a.s.opts.ProgressEvery,
		Env:           a.env,
		SkillDirs:     []string{filepath.Join(h.root, ".eukhe", "skills"), filepath.Join(a.paths.UserDir, "skills")},
		Logf:          func(format string, args ...any) { a.s.logf("session %s: "+format, append([]any{id}, args...)...) },
		BeforeCall:    a.refreshGit,
	}
}

// refreshGit gives the policy the git places again when a git config
// they were read from changed (settings.GitWatch).
func (a *attachments) refreshGit() {
	a.mu.Lock()
	g, p := a.git, a.policy
	a.mu.Unlock()
	g.Refresh(p)
}

// processEnv is the process's environment as a map.
func processEnv() map[string]string { return gate.EnvFromList(os.Environ()) }
