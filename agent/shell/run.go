package shell

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// drainGrace is how long a pipeline's output is read after its last
// process ended: a process it left behind may still hold the pipe.
const drainGrace = 250 * time.Millisecond

// run is one script's execution: its interpreter, the gate's steps, what
// was approved, the process groups it started and its output.
type run struct {
	gate    Gate
	policy  *gate.Policy
	root    string
	env     []string
	sc      gate.Script
	file    *syntax.File
	ix      *index
	out     *output
	grace   time.Duration
	id      string
	timeout time.Duration
	confine Confine
	tempDir func() (string, error)
	blind   func(gate.Effects) gate.Effects
	// pathSeen is the session's memory of PATH (Runner.pathSeen).
	pathSeen *gate.PathSeen
	// tree is the session's map of protected entries (Runner.protected).
	tree *protectedTree
	// links is the session's last search for other names of protected
	// files (Runner.links).
	links *gate.LinkCache
	// dropped are the entries of the server's PATH the script's PATH
	// left out, for the message of a command not found.
	dropped []gate.PathEntry

	ctx    context.Context
	cancel context.CancelFunc
	sh     *interp.Runner
	done   chan struct{}

	mu       sync.Mutex
	stopped  Ending // Killed, TimedOut or Cancelled once stopped
	finished bool
	job      string
	jobs     *Jobs
	groups   map[procGroup]bool // every process group the script started
	// live are the programs started and not yet reaped, by pid, with
	// their groups: endProcesses kills what is left of them when the
	// script ends (under reapMu, so no pid among them is reused)
	live map[int]procGroup
	// ending is set when the script ended: no program starts after it
	ending  bool
	cur     pipeline     // the pipeline that runs now
	autoNow gate.Effects // what the auto set held when it started
	fifoDir string       // the process substitutions' directory, if any
	at      pipeline     // the pipeline asked about or running (progress.go)
	asking  bool         // at waits for the gate's answer
	allowed []gate.Effects
	status  []int
	started []bool
	changed *changedError // the runtime re-check's refusal
	note    *sandboxNote  // the running pipeline's sandbox, and its signs
	res     Result
	refusal string

	lines atomic.Int64 // lines of output the script's commands wrote (progress.go)

	// reapMu is held by endProcesses while it looks for and kills what
	// the live programs left, and by each program's waiter for the
	// moment it marks the program reaped: an unreaped process keeps its
	// pid, and its session's and group's ids, from being given to
	// another, so a look by pid never finds another user's process.
	reapMu sync.Mutex
	// externals counts the programs started whose waiter has not
	// returned (its post-step look for protected entries done).
	externals sync.WaitGroup

	funcsOnce sync.Once
	funcNames map[string]bool // the functions the script defines (funcs)
}

// execute runs the script to its end; it is the job's goroutine.
func (x *run) execute() {
	defer x.finish()
	n := len(x.sc.Steps)
	x.allowed = make([]gate.Effects, n)
	x.status = make([]int, n)
	x.started = make([]bool, n)
	for i := range x.status {
		x.status[i] = -1
	}
	env := &interpEnv{Environ: expand.ListEnviron(x.env...), fifos: noFifoDir()}
	if hasProcSubst(x.file) {
		// its FIFOs need a directory: one of the run's own, made here
		// (0700, a name no one knows), removed at the end
		d, err := os.MkdirTemp("", "eukhe-fifos-")
		if err != nil {
			x.out.WriteString(fmt.Sprintf("bash: no directory for the process substitutions' pipes: %v; set TMPDIR to a writable directory\n", err))
			x.res.Ending, x.res.Status = Exited, 1
			return
		}
		defer os.RemoveAll(d)
		env.fifos, x.fifoDir = d, realOf(d)
	}
	sh, err := interp.New(
		interp.Dir(x.root),
		interp.Env(env),
		interp.CallHandler(x.call),
		interp.ExecHandlers(x.execMiddleware),
		interp.OpenHandler(x.open),
		interp.ReadDirHandler2(x.readDir),
		interp.StatHandler(x.stat),
		interp.AccessHandler(x.access),
	)
	if err != nil {
		x.out.WriteString(fmt.Sprintf("bash: the shell did not start: %v\n", err))
		x.res.Ending, x.res.Status = Exited, 1
		return
	}
	// The interpreter takes its FIFO directory from TMPDIR as it resets:
	// then, and only then, TMPDIR names env.fifos (interpEnv).
	env.resetting.Store(true)
	sh.Reset()
	env.resetting.Store(false)
	x.sh = sh
	if !x.sc.Grammar {
		// One step with every effect: asked once, then run whole.
		x.pipeline(pipeline{start: 0, end: 1}, x.file)
	} else {
		for _, st := range x.file.Stmts {
			if !x.list(st, true) {
				break
			}
		}
	}
	if x.res.Ending == "" {
		x.res.Ending = Finished
	}
}

// list runs a statement of the grammar: a pipeline, or pipelines joined by
// && and ||, each asked about when it is about to run. last is false for
// the left side of && and ||, where a failure does not end the script
// under set -e.
func (x *run) list(st *syntax.Stmt, last bool) bool {
	if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
		if !x.list(b.X, false) {
			return false
		}
		if (x.res.Status == 0) == (b.Op == syntax.AndStmt) {
			return x.list(b.Y, last)
		}
		return true
	}
	var node syntax.Node = st
	if !last {
		// `P && <nothing>`: the status of P, and no errexit, as bash
		// gives the left side of && and ||.
		node = &syntax.Stmt{Cmd: &syntax.BinaryCmd{Op: syntax.AndStmt, X: st, Y: &syntax.Stmt{}}}
	}
	return x.pipeline(x.ix.pipelines[st], node)
}

// pipeline asks about the pipeline's steps in order (S7.8), then runs it.
// It reports whether the script goes on.
func (x *run) pipeline(p pipeline, node syntax.Node) bool {
	if s := x.stopReason(); s != "" {
		x.res.Ending = s
		return false
	}
	steps := x.sc.Steps[p.start:p.end]
	auto := x.gate.auto()
	x.mu.Lock()
	x.at, x.asking = p, false
	for _, st := range steps {
		x.asking = x.asking || !auto.Holds(st.Effects) // the gate asks about it
	}
	x.mu.Unlock()
	refused, answer, _, ok := gate.AskPipeline(steps, auto, func(i int, st gate.Step) gate.Answer {
		n := p.start + i + 1
		return x.gate.Chain.Ask(x.ctx, gate.Question{ID: fmt.Sprintf("%s:%d", x.id, n),
			Session: x.gate.Session, What: st.Text, Effects: st.Effects, Step: n, Cwd: x.sh.Dir, Reals: st.Reals})
	})
	x.mu.Lock()
	x.asking = false
	x.mu.Unlock()
	if s := x.stopReason(); s != "" {
		x.res.Ending = s
		return false
	}
	if !ok {
		n := p.start + refused + 1
		st := x.sc.Steps[n-1]
		x.res.Ending, x.res.RefusedAt, x.res.Reason, x.res.Effects = Refused, n, ReasonOf(answer), st.Effects
		x.refusal = x.gate.Chain.RefusalTextAt(x.ctx, fmt.Sprintf("step %d (%s)", n, st.Text), st.Effects, x.gate.auto().Effects(), answer)
		return false
	}
	// The auto set as it is now, after the questions: one the user
	// narrowed while a question was open (the thirteenth red team's) is
	// what the steps run under, and a step the old set held, not asked
	// about, that the new one does not hold does not run.
	now := x.gate.auto()
	for i, st := range steps {
		if auto.Holds(st.Effects) && !now.Holds(st.Effects) {
			n := p.start + i + 1
			x.res.Ending, x.res.RefusedAt, x.res.Reason, x.res.Effects = Refused, n, Changed, st.Effects
			x.refusal = fmt.Sprintf("Step %d (%s) did not run: the settings took %s out of the auto set while the script waited for an answer, so it is no longer let run unasked. Run the script again: it will be asked about.",
				n, gate.Visible(st.Text), gate.Effects(st.Effects&^now.Effects()))
			return false
		}
	}
	var approved gate.Effects
	x.mu.Lock()
	for i, st := range steps {
		// What may run at this step: what the auto set holds now, and
		// what the user approved.
		x.allowed[p.start+i] = now.Effects()
		if !auto.Holds(st.Effects) {
			x.allowed[p.start+i] = st.Effects.Union(now.Effects())
			approved = approved.Union(st.Effects)
		}
	}
	auto = now
	x.autoNow = now.Effects()
	x.cur = p
	x.note = &sandboxNote{}
	x.mu.Unlock()

	texts := make([]string, len(steps))
	for i, st := range steps {
		texts[i] = st.Text
	}
	x.out.WriteString("$ " + strings.Join(texts, " | ") + "\n")
	endWatch := x.watchPipeline(auto.Effects(), approved)
	err := x.runNode(node)
	endWatch()
	code := exitCode(err)

	x.mu.Lock()
	changed := x.changed
	var statuses []int
	for i := p.start; i < p.end; i++ {
		if changed != nil && !x.started[i] {
			continue
		}
		s := x.status[i]
		if i == p.end-1 && (s < 0 || !x.sc.Grammar) {
			s = code
		}
		statuses = append(statuses, s)
		x.res.Steps = append(x.res.Steps, StepResult{N: i + 1, Text: x.sc.Steps[i].Text, Status: s})
	}
	x.mu.Unlock()

	if s := x.stopReason(); s != "" {
		x.res.Ending = s
		return false
	}
	if changed != nil {
		x.res.Ending, x.res.RefusedAt, x.res.Reason = Refused, changed.step+1, Changed
		x.refusal = changed.Error()
		return false
	}
	if !x.out.EndsInNewline() {
		x.out.WriteString("\n")
	}
	x.out.WriteString(statusLine(statuses))
	x.out.WriteString(x.currentNote().line())
	x.res.Status = code
	if _, isStatus := exitStatus(err); err != nil && !isStatus {
		x.out.WriteString(fmt.Sprintf("bash: %v\n", err))
		x.res.Ending = Exited
		return false
	}
	if x.sh.Exited() {
		x.res.Ending = Exited
		return false
	}
	return true
}

// runNode runs a node with its output going to a fresh pipe that is read
// into the bounded output: children write to the pipe itself, and a
// writer whose reader is gone gets SIGPIPE.
func (x *run) runNode(node syntax.Node) error {
	pr, pw, err := os.Pipe()
	if err != nil {
		return fmt.Errorf("no pipe for the output: %w", err)
	}
	if err := interp.StdIO(nil, pw, pw)(x.sh); err != nil {
		pr.Close()
		pw.Close()
		return err
	}
	drained := make(chan struct{})
	note := x.currentNote()
	go func() {
		_, _ = io.Copy(io.MultiWriter(x.out, note, lineCount{&x.lines}), pr)
		close(drained)
	}()
	err = x.sh.Run(x.ctx, node)
	// under mu, as each program's start is (external): a background
	// statement of the script may start one while Run returns, and its
	// start reads this pipe's descriptor (a data race -race found; the
	// start sees the pipe open or closed, never both)
	x.mu.Lock()
	pw.Close()
	x.mu.Unlock()
	t := time.NewTimer(drainGrace)
	select {
	case <-drained:
	case <-t.C:
		pr.Close()
		<-drained
	}
	t.Stop()
	pr.Close()
	return err
}

// exitCode is the status a Run error stands for.
func exitCode(err error) int {
	if err == nil {
		return 0
	}
	if s, ok := exitStatus(err); ok {
		return int(s)
	}
	return 1
}

// exitStatus is the status an interpreter error carries, if it is one.
func exitStatus(err error) (interp.ExitStatus, bool) {
	var s interp.ExitStatus
	ok := errors.As(err, &s)
	return s, ok
}

// stopReason is the ending of a stopped script, or "".
func (x *run) stopReason() Ending {
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.stopped
}

// stop stops the script for reason: no step starts after it, a question
// pending is dropped, and every process group it started gets TERM, then
// KILL after the grace. A script that already ended is left as it is.
func (x *run) stop(reason Ending) {
	x.mu.Lock()
	if x.finished || x.stopped != "" {
		x.mu.Unlock()
		return
	}
	x.stopped = reason
	x.mu.Unlock()
	x.cancel()
	x.killGroups()
}

// finish settles the script: its result, and its job when it has one.
// What the script left running is ended first (endProcesses).
func (x *run) finish() {
	x.cancel()
	x.endProcesses()
	x.mu.Lock()
	x.finished = true
	job, jobs := x.job, x.jobs
	x.mu.Unlock()
	res := x.result()
	close(x.done)
	if job != "" {
		jobs.settle(job, res)
	}
}

// endWait bounds how long endProcesses waits for the programs it killed
// to be reaped and looked after, past the grace.
const endWait = 5 * time.Second

// endProcesses ends every process the script started that still runs
// when it ends, whatever the ending (a background statement, `&` with or
// without disown, a coprocess, a process substitution's program): no
// program starts after it; every group the script started gets TERM;
// after the grace, each live program's whole tree, its session and its
// group get KILL (killKernel: the Landlock supervisor, stopped, reaps
// nothing while its tree is killed, so an orphan that called setsid is
// found below it; bubblewrap's pid namespace ends with its init), and
// what is left in the groups too. It waits until each program's waiter
// has returned, its post-step look for protected entries done, so the
// result comes after every process of the script is gone and looked
// after (the thirty-first red team's: a background program outlived a
// finished script, run.finish only cancelling the context, while a
// program starts with no context). What a background program wrote
// before the end is kept: its statement's output was read to the end of
// drainGrace.
func (x *run) endProcesses() {
	x.mu.Lock()
	x.ending = true
	running := len(x.live)
	groups := len(x.groups)
	stopped := x.stopped != ""
	x.mu.Unlock()
	if running == 0 && groups == 0 {
		return
	}
	// TERM now, and KILL after the grace to a group that still has a
	// process (one whose program ended but left a process in it, no
	// sandbox running)
	x.killGroups()
	if running == 0 {
		return
	}
	ended := make(chan struct{})
	go func() {
		x.externals.Wait()
		close(ended)
	}()
	t := time.NewTimer(x.grace)
	defer t.Stop()
	select {
	case <-ended:
	case <-t.C:
		x.killLive()
		select {
		case <-ended:
		case <-time.After(endWait):
		}
	}
	x.killGroupsNow()
	if stopped {
		return
	}
	x.out.WriteString(fmt.Sprintf("bash: %d program(s) still running when the script ended were stopped: a step's processes end with its script (`wait` for a background program to keep it)\n", running))
}

// killLive kills each program of the script still running with its
// whole tree, its session and its group (killKernel), under reapMu so
// that no pid among them is reused meanwhile. It comes before any KILL
// to a program's group: under Landlock that group is the supervisor's,
// and a supervisor killed first leaves a program that called setsid an
// orphan nobody looks for (the CI run's
// TestRedteam31_BackgroundJobShapesEndWithTheScript: the group's KILL
// after the grace, sent by killGroups, outran endProcesses' own).
func (x *run) killLive() {
	x.reapMu.Lock()
	defer x.reapMu.Unlock()
	x.mu.Lock()
	live := maps.Clone(x.live)
	x.mu.Unlock()
	for pid, g := range live {
		killKernel(pid, g)
	}
}

// result is the script's result once it ended.
func (x *run) result() Result {
	x.mu.Lock()
	res := x.res
	res.Job = x.job
	x.mu.Unlock()
	res.Steps = append([]StepResult(nil), res.Steps...)
	switch res.Ending {
	case Refused, TimedOut, Cancelled, Invalid:
		res.Failed = true
	case Killed:
		res.Failed = res.Narrowed // a stop the agent did not ask for
	}
	res.Dropped = x.out.Dropped()
	text := x.out.String()
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	res.Text = text + endLine(res, x.refusal, x.timeout.String())
	if whole, ok := x.out.Whole(); ok {
		if !strings.HasSuffix(whole, "\n") {
			whole += "\n"
		}
		res.Whole = whole + endLine(res, x.refusal, x.timeout.String())
	}
	return res
}

// snapshot is a running job's result: its output so far, detached.
func (x *run) snapshot(id string) Result {
	text := x.out.String()
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	x.mu.Lock()
	steps := append([]StepResult(nil), x.res.Steps...)
	x.mu.Unlock()
	res := Result{Ending: Detached, Job: id, Steps: steps, Dropped: x.out.Dropped()}
	res.Text = text + endLine(res, "", "")
	if whole, ok := x.out.Whole(); ok {
		if !strings.HasSuffix(whole, "\n") {
			whole += "\n"
		}
		res.Whole = whole + endLine(res, "", "")
	}
	return res
}

var errHalted = errors.New("the script was stopped")
