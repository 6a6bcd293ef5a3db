package shell

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// CellRequest is one ipython call that runs code.
type CellRequest struct {
	Code string
	// Timeout interrupts the cell when it runs longer (then stops the
	// kernel when the interrupt does not end it); 0 is no limit.
	Timeout time.Duration
	// FullOutput keeps all output: no cap.
	FullOutput bool
	// Restart starts a new kernel for this cell: the old one's variables
	// are gone.
	Restart bool
	// Python is the setting ipython.python: the program the kernel runs;
	// "" finds python3 (else python) on PATH.
	Python string
	// Calls serves the kernel functions the cell calls (read, edit,
	// write, grep, glob, bash) with the cell's context; nil refuses each.
	Calls func(ctx context.Context, fn string, args json.RawMessage) KernelReply
	// Watch, when set, is called once the cell was sent to the kernel
	// with how to read how it goes (Now: its lines of output, its job);
	// the stop it returns is called before Cell returns.
	Watch func(now func() Now) (stop func())
}

// KernelReply is a kernel function's answer: the tool's reply text, and
// whether it did what was asked (OK); Kind names how it did not
// (refused, not_applied, partial, bad_args, failed, timed_out,
// cancelled). Status and Ending are bash()'s.
type KernelReply struct {
	OK     bool   `json:"ok"`
	Kind   string `json:"kind,omitempty"`
	Text   string `json:"text"`
	Status int    `json:"status,omitempty"`
	Ending string `json:"ending,omitempty"`
}

// CellImage is display data a cell showed: an image/png, in order.
type CellImage struct {
	MIME string
	Data []byte
}

// CellResult is what an ipython call gives back: Result as bash's (Text,
// Ending, Failed, Job, Dropped), the images the cell displayed, and the
// exception it raised, if any.
type CellResult struct {
	Result
	Images []CellImage
	// Error is the name of the exception the cell raised; "" when none.
	Error string
}

// The bounds of a cell's images: each, and all of one cell's.
const (
	maxImage      = 8 << 20
	maxCellImages = 16 << 20
)

// Died: the kernel's process ended during the cell (a crash, os._exit, a
// signal); its state is gone, and the next cell starts a new kernel.
const Died Ending = "died"

// kernels is a session's kernel and its cell jobs.
type kernels struct {
	start sync.Mutex // one cell starts at a time
	mu    sync.Mutex
	k     *kernel
	cur   *cellRun // the last cell started: running, as a call or a job, or ended
	next  int
	jobs  map[string]*cellRun
	// lost is told at the next cell: why the last kernel ended unasked.
	lost string
}

// cellRun is one cell's run.
type cellRun struct {
	id      string
	k       *kernel
	ctx     context.Context
	cancel  context.CancelFunc
	out     *output
	note    *sandboxNote
	calls   func(ctx context.Context, fn string, args json.RawMessage) KernelReply
	timeout time.Duration
	pre     string // notes before the output: a new kernel, why
	done    chan struct{}
	after   func(c *cellRun) // what runs once the cell ended, before done closes

	mu         sync.Mutex
	finished   bool
	stopped    Ending // Killed, TimedOut or Cancelled once eukhe stopped it
	ending     Ending
	value      *string
	count      int
	errName    string
	images     []CellImage
	job        string
	lines      atomic.Int64 // lines of output so far (progress)
	post       string       // notes after the output: the sandbox's, what was renamed
	exit       string       // how the kernel ended, when it died during the cell
	hardStop   bool         // the interrupt did not end it: the kernel was killed
	narrowed   bool         // stopped as the settings narrowed (watchNarrowing)
	imageBytes int          // the bytes of the images kept
}

// Cell is an ipython call that runs code (S7 item 8, G4): the cell is one
// step with the effect exec; it runs unasked only when exec is in the
// auto set, else only on the user's yes (the question shows the code as
// it runs, control and bidi characters escaped). It then runs in the
// session's kernel, started now when there is none, and blocks until it
// ends or the blocking budget passes (then it goes on as a job, kN).
func (r *Runner) Cell(ctx context.Context, req CellRequest) CellResult {
	invalid := func(format string, a ...any) CellResult {
		return CellResult{Result: Result{Text: "ipython did not run: " + fmt.Sprintf(format, a...), Ending: Invalid, Failed: true}}
	}
	if r.Gate.Policy == nil {
		return invalid("the session has no path policy, so the gate cannot judge a cell; nothing ran. Open the session with its settings loaded")
	}
	ks := &r.kern
	ks.start.Lock()
	defer ks.start.Unlock()
	ks.mu.Lock()
	busy := ks.cur
	ks.mu.Unlock()
	if busy != nil && !busy.isFinished() {
		return invalid("cell job %s still runs in the kernel; ipython {\"job\": %q} waits for it, {\"kill\": %q} interrupts it. Nothing ran", busy.jobID(), busy.jobID(), busy.jobID())
	}
	// G4: each cell is one step with the effect exec.
	caps := gate.CellRunner.Caps
	if r.Confine.unconfined() {
		caps = gate.Unconfined(caps) // the kernel runs without a sandbox
	}
	auto := r.Gate.auto()
	answer := gate.Approve
	if !auto.Holds(caps) {
		answer = r.Gate.Chain.Ask(ctx, gate.Question{ID: newID() + ":cell", Session: r.Gate.Session,
			What: gate.VisibleText(req.Code), Effects: caps, Cwd: r.Root, Cell: true})
	}
	if end := gate.Cell(caps, auto, answer); !end.Runs {
		return CellResult{Result: Result{Text: r.Gate.Chain.RefusalText("ipython", caps, auto.Effects(), answer) + "\n",
			Ending: Refused, Failed: true, Effects: caps, Reason: ReasonOf(answer)}}
	}
	if ctx.Err() != nil {
		return CellResult{Result: Result{Text: "[cancelled: the call was cancelled before the cell ran]\n", Ending: Cancelled, Failed: true}}
	}
	// The kernel's confinement: the auto set with exec, never more.
	allowed := auto.Effects().Union(caps)
	k, pre, res, ok := r.kernelFor(ctx, req, allowed)
	if !ok {
		return res
	}
	capacity := r.Cap
	if capacity == 0 {
		capacity = DefaultCap
	}
	if req.FullOutput {
		capacity = -1
	}
	c := &cellRun{id: newID(), k: k, calls: req.Calls, timeout: req.Timeout, pre: pre, done: make(chan struct{}),
		out:  &output{cap: capacity, keepWhole: r.KeepWhole, recall: map[bool]string{true: r.RecallToken}[r.KeepWhole]},
		note: &sandboxNote{}}
	c.ctx, c.cancel = context.WithCancel(context.WithoutCancel(ctx))
	c.after = r.cellEnded
	if k.l.confined != "" {
		x := &run{note: c.note}
		x.noteSandbox(k.l, allowed)
	}
	k.mu.Lock()
	k.cur = c
	k.mu.Unlock()
	ks.mu.Lock()
	ks.cur = c
	ks.mu.Unlock()
	// the watch of protected entries runs while a cell does; then what
	// the last cell left goes on, its calls served as this cell's
	if k.endLive == nil && k.l.begin != nil {
		k.endLive = k.l.begin()
	}
	k.unreaped(func(pid int) { thawKernel(pid, k.frozen) })
	k.frozen = nil
	if err := k.send(map[string]string{"cell": c.id, "code": req.Code}); err != nil {
		// the kernel is gone: its end finishes the cell
		<-k.dead
	}
	if req.Watch != nil {
		defer req.Watch(c.now)()
	}
	go r.watchNarrowing(c, req.Python)
	return r.waitCell(ctx, c)
}

// watchNarrowing stops a running cell (as a call or a job) once the
// settings no longer allow what its kernel was confined to: an effect
// taken out of the auto set, shell.confinement, shell.writableDirs or
// ipython.python changed (narrow.go).
func (r *Runner) watchNarrowing(c *cellRun, python string) {
	watchSettings(c.done, func() bool {
		allowed := r.Gate.auto().Effects().Union(gate.CellRunner.Caps)
		return c.k.allowed.SubsetOf(allowed) && c.k.confined == r.confineKey(python)
	}, func() {
		c.mu.Lock()
		c.narrowed = true
		c.mu.Unlock()
		r.stopCell(c, Killed)
	})
}

// now is how the cell goes, for progress: one step, its lines of output
// so far and its job.
func (c *cellRun) now() Now {
	return Now{Step: 1, Last: 1, Steps: 1, Lines: c.lines.Load(), Job: c.jobID()}
}

// kernelFor is the kernel a cell runs in: the session's, or a new one
// when there is none, it died, the cell asks for a restart, or it was
// confined otherwise than this cell may be. pre tells the model what
// happened to the kernel.
func (r *Runner) kernelFor(ctx context.Context, req CellRequest, allowed gate.Effects) (k *kernel, pre string, res CellResult, ok bool) {
	ks := &r.kern
	ks.mu.Lock()
	k, pre = ks.k, ks.lost
	ks.lost = ""
	ks.mu.Unlock()
	key := r.kernelKey(req.Python, allowed)
	if k != nil && k.alive() {
		switch {
		case req.Restart:
			k.kill()
			pre += "[the kernel was restarted, as asked: its variables are gone]\n"
			k = nil
		case k.key != key:
			k.kill()
			pre += "[a new kernel: shell.autoEffects, shell.confinement, shell.writableDirs or ipython.python changed since the last one started, and a kernel keeps the confinement it started with; its variables are gone]\n"
			k = nil
		default:
			// the sandbox a process would get now: a protected or secret
			// entry that appeared or went since the kernel started
			// changes it, and the kernel must not keep the old one
			if l, _, _, err := r.kernelLaunch(req.Python, allowed); err != nil || launchPlan(l) != k.plan {
				k.kill()
				pre += "[a new kernel: the sandbox a program gets here changed since the last one started (a protected or secret place appeared or went), and a kernel keeps the one it started with; its variables are gone]\n"
				k = nil
			}
		}
	} else {
		k = nil
	}
	if k == nil {
		var err error
		k, err = r.startKernel(ctx, req.Python, allowed, r.routeKernel)
		if err != nil {
			text := err.Error()
			if se, isStart := err.(*startError); isStart && se.missing {
				text += ". The ipython tool needs IPython: install it (Debian and Ubuntu: apt install python3-ipython; " +
					"elsewhere: python3 -m pip install ipython), or set ipython.python in your settings.json " +
					"to a Python that has it"
			}
			return nil, "", CellResult{Result: Result{Text: "ipython did not run: " + text + "; nothing ran\n", Ending: Invalid, Failed: true}}, false
		}
		pre += fmt.Sprintf("[a new kernel: %s]\n", k.version)
		ks.mu.Lock()
		ks.k = k
		ks.mu.Unlock()
	}
	return k, pre, CellResult{}, true
}

// routeKernel takes one line of a kernel's driver to its cell; m nil is
// the kernel's end.
func (r *Runner) routeKernel(k *kernel, m kernelMsg, end bool) {
	k.mu.Lock()
	c := k.cur
	killed := k.killed
	k.mu.Unlock()
	if end {
		why := exitText(k.exit)
		if k.broke != "" {
			why = k.broke
		}
		if !killed || k.broke != "" {
			r.kern.mu.Lock()
			if r.kern.k == k {
				r.kern.lost = fmt.Sprintf("[a new kernel: the last one ended (%s); its variables are gone]\n", why)
			}
			r.kern.mu.Unlock()
		}
		if c != nil {
			c.mu.Lock()
			c.exit = why
			c.mu.Unlock()
			r.finishCell(c, nil)
		}
		return
	}
	switch {
	case m.Out != nil:
		if c != nil && !c.isFinished() {
			b := decodeOut(*m.Out)
			_, _ = c.out.Write(b)
			_, _ = c.note.Write(b)
			c.lines.Add(int64(bytes.Count(b, []byte{'\n'})))
		}
	case m.Image > 0:
		if c != nil && !c.isFinished() {
			if data := decodeOut(m.Data); data != nil {
				c.mu.Lock()
				kept := len(data) <= maxImage && c.imageBytes+len(data) <= maxCellImages
				if kept {
					c.images = append(c.images, CellImage{MIME: m.MIME, Data: data})
					c.imageBytes += len(data)
				}
				c.mu.Unlock()
				if !kept {
					note := fmt.Sprintf("[an image of %d bytes not shown: a cell shows images of at most %d MiB each, %d MiB in all]\n",
						len(data), maxImage>>20, maxCellImages>>20)
					_, _ = c.out.Write([]byte(note))
				}
			}
		}
	case m.Call > 0:
		go func() {
			reply := cellCall(c, m.Fn, m.Args)
			_ = k.send(struct {
				Reply int `json:"reply"`
				KernelReply
			}{m.Call, reply})
		}()
	case m.Done != nil:
		// A cell can write this line itself (it runs in the driver's
		// process) and go on: the kernel then runs no more until the next
		// cell (freezeKernel), which reports what became of it.
		if c != nil && *m.Done == c.id {
			r.finishCell(c, &m)
		}
	}
}

// cellCall serves one kernel function: only while its cell runs (a
// thread the cell left behind cannot call one after it ended).
func cellCall(c *cellRun, fn string, args json.RawMessage) KernelReply {
	if c == nil || c.isFinished() {
		return KernelReply{Kind: "bad_args", Text: fmt.Sprintf("%s() was called outside a running cell (a thread left behind by an ended cell); "+
			"kernel functions run only while their cell runs: call it from the cell itself", fn)}
	}
	if c.calls == nil {
		return KernelReply{Kind: "failed", Text: fmt.Sprintf("%s(): this session serves no kernel functions", fn)}
	}
	return c.calls(c.ctx, fn, args)
}

// exitText is how a kernel's process ended, in words.
func exitText(err error) string {
	if err == nil {
		return "exit status 0"
	}
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ProcessState.String()
	}
	return err.Error()
}

// finishCell ends a cell once: from the driver's done line, or from its
// kernel's end (m nil).
func (r *Runner) finishCell(c *cellRun, m *kernelMsg) {
	c.mu.Lock()
	if c.finished {
		c.mu.Unlock()
		return
	}
	c.finished = true
	switch {
	case c.stopped != "":
		c.ending = c.stopped
	case m == nil:
		c.ending = Died
	default:
		c.ending = Finished
	}
	if m != nil {
		c.value, c.count = m.Value, m.Count
		if m.Error != nil {
			c.errName = *m.Error
		}
	} else {
		c.hardStop = c.stopped != ""
	}
	c.mu.Unlock()
	c.k.mu.Lock()
	if c.k.cur == c {
		c.k.cur = nil
	}
	c.k.mu.Unlock()
	c.cancel()
	if c.after != nil {
		c.after(c)
	}
	close(c.done)
}

// cellEnded runs once a cell ended: the protected entries its kernel made
// are renamed out of use (as after a step's process), and a job settles.
func (r *Runner) cellEnded(c *cellRun) {
	k := c.k
	// nothing of the kernel runs between cells: a thread or a program the
	// cell left makes nothing, and calls nothing, until the next cell
	// (freezeKernel)
	k.unreaped(func(pid int) { k.frozen = freezeKernel(pid) })
	var made []string
	if k.endLive != nil {
		made = append(made, k.endLive()...)
		k.endLive = nil
	}
	made = append(made, refuseMade(k.made, c.id)...)
	if len(made) > 0 {
		c.note.made(made)
	}
	if k.allowed.Has(gate.Protected) && r.Gate.Policy != nil {
		// a link the cell made in a protected place makes its target one
		r.Gate.Policy.LearnLinks()
	}
	c.mu.Lock()
	c.post = c.note.line()
	job := c.job
	c.mu.Unlock()
	if job != "" {
		res := c.result()
		go r.jobs().settle(job, res.Result)
	}
}

func (c *cellRun) isFinished() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.finished
}

func (c *cellRun) jobID() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.job
}

// waitCell blocks until the cell ends, the call is cancelled (the cell is
// stopped), or the blocking budget passes (the cell goes on as a job).
func (r *Runner) waitCell(ctx context.Context, c *cellRun) CellResult {
	if c.timeout > 0 {
		t := time.AfterFunc(c.timeout, func() { r.stopCell(c, TimedOut) })
		go func() { <-c.done; t.Stop() }()
	}
	timer := time.NewTimer(r.budget())
	defer timer.Stop()
	select {
	case <-c.done:
		return c.result()
	case <-ctx.Done():
		r.stopCell(c, Cancelled)
		<-c.done
		return c.result()
	case <-timer.C:
		id, ok := r.kern.adopt(c)
		if !ok {
			<-c.done
			return c.result()
		}
		return c.snapshot(id)
	}
}

// stopCell interrupts a running cell (KeyboardInterrupt); when it has not
// ended after the grace, the kernel is killed with all it started.
func (r *Runner) stopCell(c *cellRun, why Ending) {
	c.mu.Lock()
	if c.finished || c.stopped != "" {
		c.mu.Unlock()
		return
	}
	c.stopped = why
	c.mu.Unlock()
	_ = c.k.send(map[string]bool{"interrupt": true})
	t := time.NewTimer(r.grace())
	defer t.Stop()
	select {
	case <-c.done:
	case <-t.C:
		c.k.kill()
		<-c.done
	}
}

// adopt makes a running cell a job; ok is false when it has ended.
func (ks *kernels) adopt(c *cellRun) (string, bool) {
	ks.mu.Lock()
	defer ks.mu.Unlock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.finished {
		return "", false
	}
	if ks.jobs == nil {
		ks.jobs = map[string]*cellRun{}
	}
	ks.next++
	c.job = "k" + strconv.Itoa(ks.next)
	ks.jobs[c.job] = c
	return c.job, true
}

// CellWait is ipython {job: ID}: it waits for the cell job up to the
// blocking budget and gives its result, or its output so far.
func (r *Runner) CellWait(ctx context.Context, id string) CellResult {
	c, res, ok := r.cellJob(id)
	if !ok {
		return res
	}
	ctx, cancel := context.WithTimeout(ctx, r.budget())
	defer cancel()
	select {
	case <-c.done:
		return c.result()
	case <-ctx.Done():
		select {
		case <-c.done:
			return c.result()
		default:
		}
		return c.snapshot(id)
	}
}

// CellKill is ipython {kill: ID}: it interrupts the cell job, kills the
// kernel when the interrupt does not end it, and gives its result.
func (r *Runner) CellKill(id string) CellResult {
	c, res, ok := r.cellJob(id)
	if !ok {
		return res
	}
	select {
	case <-c.done:
		res := c.result()
		res.Text = fmt.Sprintf("cell job %s had already ended (%s); nothing was stopped.\n", id, res.Ending) + res.Text
		return res
	default:
	}
	r.stopCell(c, Killed)
	return c.result()
}

// cellJob finds a cell job, or says which there are.
func (r *Runner) cellJob(id string) (*cellRun, CellResult, bool) {
	ks := &r.kern
	ks.mu.Lock()
	c := ks.jobs[id]
	var ids []string
	for k := range ks.jobs {
		ids = append(ids, k)
	}
	ks.mu.Unlock()
	if c != nil {
		return c, CellResult{}, true
	}
	sort.Slice(ids, func(a, b int) bool {
		na, _ := strconv.Atoi(strings.TrimPrefix(ids[a], "k"))
		nb, _ := strconv.Atoi(strings.TrimPrefix(ids[b], "k"))
		return na < nb
	})
	known := "there are none"
	if len(ids) > 0 {
		known = "the cell jobs are " + strings.Join(ids, ", ")
	}
	return nil, CellResult{Result: Result{Text: fmt.Sprintf("ipython: no cell job %q; %s\n", id, known), Ending: Invalid, Failed: true}}, false
}

// closeKernel ends the session's kernel (Runner.Close).
func (ks *kernels) close() {
	ks.mu.Lock()
	k := ks.k
	ks.k = nil
	ks.mu.Unlock()
	if k != nil && k.alive() {
		k.kill()
	}
}

// result is an ended cell's result.
func (c *cellRun) result() CellResult {
	c.mu.Lock()
	defer c.mu.Unlock()
	res := CellResult{Result: Result{Ending: c.ending, Job: c.job, Dropped: c.out.Dropped()}, Error: c.errName,
		Images: append([]CellImage(nil), c.images...)}
	var tail strings.Builder
	if c.value != nil && c.errName == "" && c.ending == Finished {
		fmt.Fprintf(&tail, "Out[%d]: %s\n", c.count, *c.value)
	}
	tail.WriteString(c.post)
	tail.WriteString(c.endLine())
	switch {
	case c.ending != Finished:
		res.Failed = c.ending != Killed
	case c.errName != "":
		res.Failed, res.Status = true, 1
	}
	text := c.out.String()
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	res.Text = c.pre + text + tail.String()
	if whole, ok := c.out.Whole(); ok {
		if whole != "" && !strings.HasSuffix(whole, "\n") {
			whole += "\n"
		}
		res.Whole = c.pre + whole + tail.String()
	}
	return res
}

// snapshot is a running cell job's output so far, detached.
func (c *cellRun) snapshot(id string) CellResult {
	text := c.out.String()
	if text != "" && !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	c.mu.Lock()
	images := append([]CellImage(nil), c.images...)
	c.mu.Unlock()
	line := fmt.Sprintf("[detached: cell job %s goes on in the kernel. ipython {\"job\": %q} waits for it and gives its output; ipython {\"kill\": %q} interrupts it. A new cell waits until it ends.]\n", id, id, id)
	return CellResult{Result: Result{Text: c.pre + text + line, Ending: Detached, Job: id, Dropped: c.out.Dropped()}, Images: images}
}

// endLine is the last line of a cell's text: how it ended.
func (c *cellRun) endLine() string {
	gone := "; the kernel did not stop at the interrupt, so it was stopped with all it started: its variables are gone, and the next cell starts a new kernel"
	if !c.hardStop {
		gone = " (KeyboardInterrupt); the kernel and its variables remain"
	}
	switch c.ending {
	case Finished:
		if c.errName != "" {
			return fmt.Sprintf("[cell %d raised %s]\n", c.count, c.errName)
		}
		return fmt.Sprintf("[cell %d finished]\n", c.count)
	case Died:
		return fmt.Sprintf("[the kernel died during the cell (%s): its variables are gone, and the next cell starts a new kernel]\n", c.exit)
	case Killed:
		if c.narrowed {
			return "[killed: the settings no longer allow what the kernel was confined to (an effect left the auto set, or the confinement changed), so the cell was interrupted" + gone + "]\n"
		}
		return "[killed: the cell was interrupted" + gone + "]\n"
	case TimedOut:
		return fmt.Sprintf("[timed out after %s: the cell was interrupted%s]\n", c.timeout, gone)
	case Cancelled:
		return "[cancelled: the call was cancelled, and the cell was interrupted" + gone + "]\n"
	}
	return "[" + string(c.ending) + "]\n"
}
