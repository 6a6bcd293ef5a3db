package shell

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
)

// DefaultBudget is how long a call blocks when the runner sets no Budget:
// a longer script becomes a job.
const DefaultBudget = 30 * time.Second

// DefaultKillGrace is how long a stopped process group has between TERM
// and KILL when the runner sets no KillGrace.
const DefaultKillGrace = 2 * time.Second

// Gate is what the runner asks before a step runs: the path policy the
// shell effects are judged by, the auto set in force (nil: the default),
// where questions go (G5) and the session they name.
type Gate struct {
	Policy  *gate.Policy
	Auto    func() gate.AutoSet
	Chain   route.Chain
	Session string
}

func (g Gate) auto() gate.AutoSet {
	if g.Auto == nil {
		return gate.DefaultAuto()
	}
	return g.Auto()
}

// Runner runs the scripts of one session's bash tool (S7.7). Each call
// gets a fresh interpreter whose working directory is Root.
type Runner struct {
	// Root is the session's root: where every script starts.
	Root string
	// Env is the server's environment ("NAME=value"); nil is this
	// process's. Session values are added to it, and every credential
	// taken out, before a script sees it.
	Env     []string
	Session map[string]string
	Gate    Gate
	// Budget is how long a call blocks (DefaultBudget when 0).
	Budget time.Duration
	// Cap bounds a result's output in bytes (DefaultCap when 0).
	Cap int
	// KeepWhole keeps every output byte (up to MaxWhole) beside the cut
	// text, for Result.Whole: the session's transcript (memory://).
	KeepWhole bool
	// RecallToken, with KeepWhole, is what the marker of a cut output
	// names after memory:// (the session puts the call's id in its
	// place): a random token no script can print by chance.
	RecallToken string
	// KillGrace is the time between TERM and KILL (DefaultKillGrace when 0).
	KillGrace time.Duration
	// Jobs is the session's job table; nil makes one on first use.
	Jobs *Jobs
	// Confine is how each external process is confined; the
	// zero value is shell.confinement "auto" with no writable dirs.
	Confine Confine

	mu  sync.Mutex
	tmp string // the session's private temporary directory, once made
	// links is the last search of the roots for other names of protected
	// files (sandbox.go).
	links gate.LinkCache
	// pathSeen is what the session saw of PATH: the entries it found
	// missing (a directory that appears later was made during the
	// session; gate.PathAppeared).
	pathSeen gate.PathSeen
	// protected is the session's map of the protected entries below its
	// roots (protected_tree.go).
	protected protectedTree
	// kern is the session's Python kernel and its cell jobs (kernel*.go).
	kern kernels
	// blind, in tests only, replaces the effects the gate finds for every
	// step (the classifier-blind test).
	blind func(gate.Effects) gate.Effects
}

// Request is one bash call.
type Request struct {
	Script string
	// Timeout stops the script (and every process it started) when it
	// runs longer; 0 is no limit. A script over the blocking budget
	// becomes a job first; the timeout still applies to it.
	Timeout time.Duration
	// FullOutput keeps all output: no cap.
	FullOutput bool
	// Grant are effects the script's steps may have beside the auto set,
	// unasked: the approval of the ipython cell whose bash() this is (a
	// cell the gate let run has exec). Zero for a bash call.
	Grant gate.Effects
	// Block waits for the script to end however long it runs: no job (a
	// cell's bash(), whose cell is the job).
	Block bool
	// Watch, when set, is called once the script starts with how to read
	// how it goes (progress.go); the stop it returns is called before Run
	// returns, also when the script goes on as a job.
	Watch func(now func() Now) (stop func())
}

func (r *Runner) budget() time.Duration {
	if r.Budget > 0 {
		return r.Budget
	}
	return DefaultBudget
}

func (r *Runner) grace() time.Duration {
	if r.KillGrace > 0 {
		return r.KillGrace
	}
	return DefaultKillGrace
}

func (r *Runner) jobs() *Jobs {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.Jobs == nil {
		r.Jobs = &Jobs{}
	}
	return r.Jobs
}

// Run runs one script: the gate judges each step, the steps it does not
// let run unasked are asked about pipeline by pipeline, and the script
// runs until it ends, a step is refused, or the blocking budget passes
// (then it goes on as a job and the call settles detached).
func (r *Runner) Run(ctx context.Context, req Request) Result {
	x, res, ok := r.start(ctx, req)
	if !ok {
		return res
	}
	if req.Watch != nil {
		defer req.Watch(x.now)()
	}
	go x.execute()
	if req.Timeout > 0 {
		t := time.AfterFunc(req.Timeout, func() { x.stop(TimedOut) })
		go func() { <-x.done; t.Stop() }()
	}
	budget := r.budget()
	if req.Block {
		budget = 1<<63 - 1
	}
	timer := time.NewTimer(budget)
	defer timer.Stop()
	select {
	case <-x.done:
		return x.result()
	case <-ctx.Done():
		x.stop(Cancelled)
		<-x.done
		return x.result()
	case <-timer.C:
		id, adopted := r.jobs().adopt(x)
		if !adopted {
			<-x.done
			return x.result()
		}
		return x.snapshot(id)
	}
}

// Wait is bash {job: ID}: it waits for the job up to the blocking budget
// and gives its result, or, while it runs, its output so far (detached).
func (r *Runner) Wait(ctx context.Context, id string) Result { return r.WaitWatched(ctx, id, nil) }

// WaitWatched is Wait; watch, when set, is handed how the job goes while
// this call waits for it, and stopped before it returns (Request.Watch).
func (r *Runner) WaitWatched(ctx context.Context, id string, watch func(now func() Now) (stop func())) Result {
	ctx, cancel := context.WithTimeout(ctx, r.budget())
	defer cancel()
	return r.jobs().wait(ctx, id, watch)
}

// Kill is bash {kill: ID}: it stops the job's script and every process
// group it started; the job settles killed.
func (r *Runner) Kill(id string) Result { return r.jobs().Kill(id) }

// start judges the script and readies its run; ok is false when nothing
// can run, and res says why.
func (r *Runner) start(ctx context.Context, req Request) (x *run, res Result, ok bool) {
	invalid := func(format string, a ...any) (*run, Result, bool) {
		text := fmt.Sprintf("bash did not run: "+format, a...)
		return nil, Result{Text: text, Ending: Invalid, Failed: true}, false
	}
	if r.Gate.Policy == nil {
		return invalid("the session has no path policy, so the gate cannot judge a step; nothing ran. Open the session with its settings loaded")
	}
	root, err := filepath.Abs(r.Root)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(root); err == nil && !fi.IsDir() {
			err = fmt.Errorf("not a directory")
		}
	}
	if err != nil {
		return invalid("the session root %q cannot be the working directory (%v); nothing ran", r.Root, err)
	}
	env, dropped := startPath(scriptEnv(r.Env, r.Session), r.Gate.Policy, &r.pathSeen)
	judge := &gate.Shell{Policy: r.Gate.Policy, Dir: root, Env: gate.EnvFromList(env), ReadDir: os.ReadDir,
		PathSeen: &r.pathSeen}
	f, err := gate.Parse(req.Script)
	if err != nil {
		return invalid("%v; nothing ran", err)
	}
	sc := judge.ClassifyFile(f)
	if r.blind != nil {
		for i := range sc.Steps {
			sc.Steps[i].Effects = r.blind(sc.Steps[i].Effects)
		}
	}
	if r.Confine.unconfined() {
		WidenUnconfined(&sc)
	}
	capacity := r.Cap
	if capacity == 0 {
		capacity = DefaultCap
	}
	if req.FullOutput {
		capacity = -1
	}
	r.protected.live.enable()
	g := r.Gate
	if req.Grant != 0 {
		grant := req.Grant
		if r.Confine.unconfined() {
			grant = gate.Unconfined(grant) // as the cell that grants it was asked
		}
		base := g
		g.Auto = func() gate.AutoSet { return gate.AutoOf(base.auto().Effects().Union(grant)) }
	}
	x = &run{
		gate: g, policy: r.Gate.Policy, root: root, env: env, sc: sc, file: f,
		out: &output{cap: capacity, keepWhole: r.KeepWhole, recall: map[bool]string{true: r.RecallToken}[r.KeepWhole]}, grace: r.grace(), id: newID(), timeout: req.Timeout,
		done: make(chan struct{}), groups: map[procGroup]bool{},
		confine: r.Confine, tempDir: r.tempDir, blind: r.blind, pathSeen: &r.pathSeen, tree: &r.protected, links: &r.links,
		dropped: dropped,
	}
	if sc.Grammar {
		x.ix = newIndex(sc)
	}
	// The script outlives the call when it becomes a job: its context keeps
	// the call's values (the asker may need them) but not its end.
	x.ctx, x.cancel = context.WithCancel(context.WithoutCancel(ctx))
	return x, Result{}, true
}

func newID() string {
	var b [4]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
