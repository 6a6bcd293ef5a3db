package agent

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/agent/transcript"
	"github.com/eukhe/eukhe/agent/urls"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
	"github.com/eukhe/eukhe/gate/settings"
)

// Options open a session.
type Options struct {
	// Host is the root's store and asker (Headless without an editor).
	Host Host
	// ID names the session; "" makes a new one.
	ID string
	// Parent names the session whose clients answer this one's questions
	// when it has none (G5): a subagent's parent.
	Parent string
	// CallTimeout bounds each call to a configured MCP server; 0 is
	// DefaultCallTimeout.
	CallTimeout time.Duration
	// ShellBudget is how long a bash call blocks before its script becomes
	// a job; 0 is the shell's default (30 s).
	ShellBudget time.Duration
	// LogPath is the session's JSONL log (report_issue rows); "" keeps none.
	LogPath string
	// OneShot is a session of one call (`eukhe tool`): it keeps no
	// transcript beside the log (no later call could read it) and its
	// refusals name no MCP client (it has none).
	OneShot bool
	// SkillDirs are where skill:// looks, in order; nil is the root's
	// .eukhe/skills alone.
	SkillDirs []string
	// Logf reports what the session cannot tell the model (a log that
	// cannot be written); nil drops it.
	Logf func(format string, a ...any)
	// Env is the process's environment ("NAME" → value): HOME is where a
	// tool path's leading "~" points. nil is this process's own.
	Env map[string]string
	// Docs is the document session to continue (the versions and lines
	// seen; `eukhe tool --session`); nil starts a new one.
	Docs *docs.Session
	// ProgressEvery is how often a long call reports its progress to a
	// client that asked (progress.go); 0 is Env's EUKHE_PROGRESS_EVERY,
	// else the defaults (docs.DefaultProgressEvery for walks,
	// DefaultBashProgressEvery for bash).
	ProgressEvery time.Duration
	// BeforeCall runs before each tool call is judged (the git places of
	// a git config the user changed: settings.GitWatch); nil is nothing.
	BeforeCall func()
}

// Session is one agent's connection: its own seen lines (docs.Session), its
// document tools over the host's store, its gate chain, its fixed roster,
// its dynamic tools and its MCP clients.
type Session struct {
	ID     string
	Parent string

	pruned <-chan struct{} // the sessions directory's prune this session started, if any

	host       Host
	roster     *Roster
	surface    Surface
	clients    *Clients
	log        *SessionLog
	logf       func(string, ...any)
	beforeCall func()
	paramNames map[string][]string
	oneShot    bool // a one-shot call (Options.OneShot): no MCP client

	// URLs reads the internal URLs of read (S7.5); nil until the URL
	// reader is wired.
	URLs URLReading

	shell  *shell.Runner // the bash tool's runner and job table
	notify func(text string)
	memory *transcript.Transcript // the calls it served (memory://); nil without a state directory
	recall string                 // the shell's marker token for a cut output's call id
	// secretLater is set when a secret was allowed in a job after its
	// call returned: later job results are not kept (memory.go).
	secretLater atomic.Bool
	// reportEvery is how often long calls report progress (0: the defaults).
	reportEvery time.Duration

	mu    sync.Mutex // one document call at a time: docs.Session is one agent's state
	tools *docs.Tools
	guard *DocGuard
	chain route.Chain
	// rootsChange is the client's last change of roots, until the next
	// tool result says it (rootsnote.go)
	rootsChange atomic.Pointer[rootsChange]
	// watch gives every call's watcher beside its client (progress.go);
	// not under mu, which a document call holds while it runs.
	watch atomic.Pointer[func() docs.ProgressFunc]
}

// NewID is a fresh session id: 16 hex digits.
func NewID() string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// Open opens a session: the roster is built and fixed before its first
// request (S7.1, S7.3), the document tools get a fresh docs.Session over
// the host's store, and the documents gate is set with the session's chain.
func Open(o Options) (*Session, error) {
	if o.Host == nil {
		return nil, fmt.Errorf("a session needs a host")
	}
	roster, err := OpenRoster()
	if err != nil {
		return nil, err
	}
	id := o.ID
	if id == "" {
		id = NewID()
	}
	h := o.Host
	s := &Session{ID: id, Parent: o.Parent, host: h, roster: roster, logf: o.Logf, beforeCall: o.BeforeCall, paramNames: map[string][]string{}, oneShot: o.OneShot}
	for _, t := range roster.Tools() {
		s.paramNames[t.Name] = Params(t.Built)
	}
	if s.logf == nil {
		s.logf = func(string, ...any) {}
	}
	if o.LogPath != "" {
		s.log = &SessionLog{Path: o.LogPath}
	}
	env := o.Env
	if env == nil {
		env = gate.EnvFromList(os.Environ())
	}
	ds := o.Docs
	if ds == nil {
		ds = docs.NewSession()
	}
	s.reportEvery = progressEvery(o.ProgressEvery, env)
	s.tools = &docs.Tools{Store: h.Store(), Session: ds, Root: h.Root(), Home: env["HOME"],
		Excludes: func() []string { return h.Settings().GrepExcludes }, ProgressEvery: s.reportEvery}
	s.clients = &Clients{Servers: func() map[string]settings.MCPServer { return h.Settings().MCPServers },
		Timeout: o.CallTimeout, Dir: h.Root()}
	s.chain = s.withClients(h.Attach(s))
	skills := o.SkillDirs
	if skills == nil {
		// The project's skills first, then the user's (S7.5).
		user := settings.Locate(env, nil).UserDir
		skills = []string{filepath.Join(h.Root(), ".eukhe", "skills"), filepath.Join(user, "skills")}
	}
	s.URLs = &urls.Reader{Root: h.Root(), SkillDirs: skills, Resources: s.clients, Tools: s.tools,
		SSH: (&sshReader{Hosts: func() []string { return h.Settings().SSHHosts }}).Read}
	if p := h.Policy(); p != nil {
		s.guard = &DocGuard{Gate: &gate.DocumentsGate{Policy: p, Dir: h.Root(),
			Auto: func() gate.AutoSet { return h.Settings().AutoEffects }, Chain: s.chain}}
		s.wireGuard()
	}
	s.shell = &shell.Runner{
		Root:    h.Root(),
		Budget:  shellBudget(o.ShellBudget, h),
		Session: map[string]string{"EUKHE_SESSION": s.ID},
		Gate: shell.Gate{Policy: h.Policy(), Auto: func() gate.AutoSet { return h.Settings().AutoEffects },
			Chain: s.chain, Session: s.ID},
		Jobs: &shell.Jobs{OnSettle: func(id, status, output string) { s.Notify(jobSettled(id, status, output)) }},
		Confine: shell.Confine{Mode: func() string { return h.Settings().Confinement },
			WritableDirs: func() []string { return h.Settings().WritableDirs }},
	}
	if !o.OneShot {
		s.openTranscript(o.LogPath)
	}
	if o.LogPath != "" && !o.OneShot {
		// A one-shot call (eukhe tool) would end before a prune of many
		// sessions did, and take the day's mark with it: the sessions
		// that live (eukhe mcp, an editor's) prune.
		s.pruned = pruneSessionsOnce(filepath.Dir(o.LogPath))
	}
	return s, nil
}

// Shell is the session's bash runner.
func (s *Session) Shell() *shell.Runner {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.shell
}

// SetNotify sets where the session's notices go (a settled job): the MCP
// binding sends them as log messages.
func (s *Session) SetNotify(f func(text string)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.notify = f
}

// Notify sends a notice to the session's client, when one listens.
func (s *Session) Notify(text string) {
	s.mu.Lock()
	f := s.notify
	s.mu.Unlock()
	if s.recall != "" {
		text = strings.ReplaceAll(text, s.recall, "ID-of-your-bash-job-call")
	}
	if f != nil {
		f(text)
	} else if s.logf != nil {
		s.logf("%s", text)
	}
}

// SetParent names the parent after open (an initialize field): the chain
// is made again. The roster does not change.
func (s *Session) SetParent(parent string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if parent == s.Parent || parent == s.ID {
		return
	}
	s.host.Detach(s)
	s.Parent = parent
	s.chain = s.withClients(s.host.Attach(s))
	if s.guard != nil {
		s.guard.Gate.Chain = s.chain
	}
	if s.shell != nil {
		s.shell.Gate.Chain = s.chain
	}
}

// Chain is where the session's questions go (G5).
func (s *Session) Chain() route.Chain {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.chain
}

// Roster is the session's fixed roster.
func (s *Session) Roster() *Roster { return s.roster }

// Surface is where host tools join and quit (S7.2).
func (s *Session) Surface() *Surface { return &s.surface }

// Clients are the session's MCP clients (the urls.ResourceSource of mcp://).
func (s *Session) Clients() *Clients { return s.clients }

// Guard is the documents gate adapter (nil without a policy).
func (s *Session) Guard() *DocGuard { return s.guard }

// DocTools are the session's document tools.
func (s *Session) DocTools() *docs.Tools { return s.tools }

// Close stops the session's MCP servers and its jobs, removes its
// private temporary directory, and detaches it from its host.
func (s *Session) Close() {
	Grants.Forget(s.ID) // its "allow for this session" answers end with it
	s.clients.Close()
	if err := s.Shell().Close(); err != nil {
		s.logf("%v", err)
	}
	s.host.Detach(s)
	s.closeTranscript() // its last calls written, its writer ended
	if s.pruned != nil {
		<-s.pruned // the prune it started writes nothing after it closed
	}
}

// params are a roster tool's parameters, for argument errors.
func (s *Session) params(name string) []string { return s.paramNames[name] }

// wireGuard sets the documents gate on the document tools (G1.6).
func (s *Session) wireGuard() { s.tools.Guard = s.guard }

// docs runs one document call under the session's lock; the tool takes
// the call's context first, and asks the documents gate under it.
func (s *Session) docs(ctx context.Context, f func(context.Context, *docs.Tools) docs.Result) Result {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fromDocs(f(ctx, s.tools))
}

// readURL is read's path for scheme://… (S7.5).
func (s *Session) readURL(ctx context.Context, raw string) Result {
	if s.URLs == nil {
		return failure(fmt.Sprintf("read %s: internal URLs (repo://, skill://, mcp://, ssh://) are not wired in this build; read a workspace path instead", raw))
	}
	// Only repo:// and skill:// touch the session's documents; a slow
	// mcp:// or ssh:// read must not hold the session's other calls.
	if scheme, _, _ := urls.Split(raw); scheme == "repo" || scheme == "skill" {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	bound := s.tools.Bound
	if bound == 0 {
		bound = docs.DefaultReadBound
	}
	text, err := s.URLs.Read(ctx, raw, bound)
	if err != nil {
		return failure(err.Error())
	}
	return done(text)
}

// shellBudget is the bash call's blocking budget: the option (tests), else
// the settings' shell.blockingBudgetSeconds when the session opens.
func shellBudget(opt time.Duration, h Host) time.Duration {
	if opt > 0 {
		return opt
	}
	return h.Settings().ShellBudget
}
