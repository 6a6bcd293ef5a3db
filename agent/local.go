package agent

import (
	"context"
	"os"
	"path/filepath"
	"time"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
	"github.com/eukhe/eukhe/gate/settings"
)

// LocalOptions open a session on a root no editor serves: `eukhe mcp`
// headless and `eukhe tool`. OpenLocal is the one place such a session is
// built, so both run the same documents gate, shell gate and settings.
type LocalOptions struct {
	// Root is the workspace root, absolute.
	Root string
	// Env is the process's environment ("NAME" → value); nil is this
	// process's own.
	Env map[string]string
	// ID names the session; "" makes a new one.
	ID string
	// Parent is the session whose clients answer this one's questions.
	Parent string
	// Docs is the document session to continue (`eukhe tool --session`);
	// nil starts a new one.
	Docs *docs.Session
	// ShellBudget is how long a bash call blocks before its script becomes
	// a job; 0 is the settings' shell.blockingBudgetSeconds.
	ShellBudget time.Duration
	// Client answers questions; nil: no one is attached, so a question is
	// unanswered and the model gets the refusal text (G5).
	Client func(ctx context.Context, q gate.Question) gate.Answer
	// Sink, when set, makes the session's own approval sink from its id and
	// its settings, in place of Client (headless eukhe mcp: the terminals of
	// the approvals endpoint it publishes).
	Sink func(id string, current func() settings.Settings) route.Asker
	// Remote, when set, is the client of a parent session open in another
	// process (a subagent's questions relayed to it).
	Remote func(parent string) Client
	// Events sees each settings event above Info; nil drops them.
	Events func(settings.Event)
	// OnIssue sees each report_issue row; nil drops it (the log keeps it).
	OnIssue func(Issue)
	// OneShot is a session of one call (`eukhe tool`): the settings are
	// read once instead of watched (no file watch to set up), and the
	// session keeps no transcript and names no MCP client (Options.OneShot).
	// Its log is kept under the user's state directory, as every session's.
	OneShot bool
	// Logf reports what the session cannot tell the model.
	Logf func(format string, a ...any)
}

// Local is an open local session and what it stands on.
type Local struct {
	*Session
	Host  *Headless
	Paths settings.Paths
	watch *settings.Watcher
}

// OpenLocal builds the host of a root with no editor — the disk store, the
// user's settings (watched as they change), the path policy of the places
// those settings name — and opens one session on it.
func OpenLocal(o LocalOptions) (*Local, error) {
	env := o.Env
	if env == nil {
		env = gate.EnvFromList(os.Environ())
	}
	paths := settings.Locate(env, []string{o.Root})
	events := o.Events
	if events == nil {
		events = func(settings.Event) {}
	}
	report := func(e settings.Event) {
		if e.Level != settings.Info {
			events(e)
		}
	}
	var w *settings.Watcher
	var current func() settings.Settings
	if o.OneShot {
		s, evs := settings.Load(paths)
		for _, e := range evs {
			report(e)
		}
		current = func() settings.Settings { return s }
	} else {
		var err error
		if w, err = settings.Watch(paths, report); err != nil {
			return nil, err
		}
		current = w.Current
	}
	id := o.ID
	if id == "" {
		id = NewID()
	}
	policy, git := paths.Policy(env)
	disk := docs.NewDisk()
	disk.Journal, disk.Root = docs.JournalDir(env, o.Root), o.Root
	disk.Fault = CrashPause()
	disk.Judge = RecoveryJudge(&gate.DocumentsGate{Policy: policy, Dir: o.Root,
		Auto: func() gate.AutoSet { return current().AutoEffects }})
	for _, r := range disk.Recover() { // before any write (DESIGN.md §10); the first reply tells the model too
		if o.Logf != nil {
			o.Logf("%s", r.Text(func(p string) string { return p }))
		}
	}
	host := &Headless{
		RootDir: o.Root,
		Disk:    disk,
		Current: current,
		Paths:   policy,
		Client:  o.Client,
		Remote:  o.Remote,
		OnIssue: o.OnIssue,
	}
	if o.Sink != nil {
		host.Sink = o.Sink(id, current)
	}
	opts := Options{
		Host:        host,
		ID:          id,
		Parent:      o.Parent,
		Env:         env,
		Docs:        o.Docs,
		ShellBudget: o.ShellBudget,
		SkillDirs:   []string{filepath.Join(o.Root, ".eukhe", "skills"), filepath.Join(paths.UserDir, "skills")},
		Logf:        o.Logf,
		OneShot:     o.OneShot,
		BeforeCall:  func() { git.Refresh(policy) },
	}
	opts.LogPath = SessionLogPath(env, id)
	s, err := Open(opts)
	if err != nil {
		if w != nil {
			w.Close()
		}
		return nil, err
	}
	return &Local{Session: s, Host: host, Paths: paths, watch: w}, nil
}

// Close closes the session and stops the settings watch.
func (l *Local) Close() {
	l.Session.Close()
	if l.watch != nil {
		l.watch.Close()
	}
}
