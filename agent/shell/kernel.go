package shell

import (
	"bufio"
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// The ipython tool's kernel (S7 item 8, G4): one Python process per
// session, running IPython's InteractiveShell under a small driver
// (kernel_driver.py, embedded) that eukhe talks to in JSON lines over the
// process's stdin and stdout. It is started at the session's first cell
// the gate lets run, inside the sandbox of the auto set with exec
// (kernelAllowed): a process that lives across cells keeps the one
// confinement it started with, so a cell whose allowed set differs (the
// user changed shell.autoEffects, shell.confinement or
// shell.writableDirs, or ipython.python) gets a new kernel, never one
// with more than it may have.
//
// Why a driver of our own and not ipykernel over the Jupyter protocol: it
// needs only IPython (Debian's python3-ipython, or any pip install), no
// ZeroMQ on either side, and no Go Jupyter client is maintained; the
// driver is one file, and its channel carries the kernel functions'
// calls back to the session (read, edit, write, grep, glob, bash), which
// the Jupyter protocol has no place for.

//go:embed kernel_driver.py
var kernelDriver string

// kernelStartWait bounds how long a kernel may take to import IPython.
const kernelStartWait = 60 * time.Second

// maxKernelLine bounds one line of the driver (an image is one line).
const maxKernelLine = 16 << 20

// kernel is one running Python kernel.
type kernel struct {
	cmd   *exec.Cmd
	group procGroup
	key   string // what it was confined by (kernelKey)
	plan  string // its sandbox (launchPlan)
	// allowed and confined are what its key is made of (narrowed, which
	// stops a running cell of it)
	allowed  gate.Effects
	confined string
	// version is IPython's and Python's, from the driver's ready line.
	version string

	writeMu sync.Mutex
	in      *os.File // the driver's stdin: writes have a deadline (sendWait)

	// dead is closed once the process was waited for; exit says how it
	// ended.
	dead chan struct{}
	exit error
	// endLive ends the watch of protected entries the process may make
	// (sandbox.go's begin), made lists those it made (refuseMade).
	endLive func() []string
	made    func() []string
	l       launch

	// frozen are the processes freezeKernel stopped after the last cell;
	// the next cell lets them go on first. Only the cell's goroutines
	// (cellEnded, Cell) touch it, one at a time.
	frozen []int
	// broke says how the driver broke its channel (a line over
	// maxKernelLine): the kernel was stopped for it.
	broke string

	// reapMu is held while the kernel's processes are looked for and
	// signalled (freeze, kill), and by the reaper for the moment it
	// reaps: an unreaped process keeps its pid, and its session's id, from
	// being given to anyone else, so a look by pid never finds another
	// user's process. reaped is set under it just before the reap.
	reapMu sync.Mutex
	reaped bool

	mu  sync.Mutex
	cur *cellRun // the cell that runs now; nil between cells
	// killed is set when eukhe killed the process (a stop past the
	// interrupt's grace, a restart): its end is not a crash.
	killed bool
}

// kernelMsg is one line of the driver.
type kernelMsg struct {
	Ready   *string         `json:"ready"`
	Python  string          `json:"python"`
	Fatal   *string         `json:"fatal"`
	Missing bool            `json:"missing"`
	Out     *string         `json:"out"`
	Image   int             `json:"image"`
	MIME    string          `json:"mime"`
	Data    string          `json:"data"`
	Place   int             `json:"place"`
	Call    int             `json:"call"`
	Fn      string          `json:"fn"`
	Args    json.RawMessage `json:"args"`
	Done    *string         `json:"done"`
	Value   *string         `json:"value"`
	Count   int             `json:"count"`
	Error   *string         `json:"error"`
}

// send writes one message to the driver.
// A driver that does not read what eukhe sends (its reader stopped, or
// made to wait by the cell) makes the write wait past sendWait: the
// kernel is then stopped, and the send fails, so no call, cell or kill
// waits on it.
func (k *kernel) send(v any) error {
	b, err := json.Marshal(v)
	if err != nil {
		return err
	}
	k.writeMu.Lock()
	defer k.writeMu.Unlock()
	_ = k.in.SetWriteDeadline(time.Now().Add(sendWait))
	if _, err = k.in.Write(append(b, '\n')); err != nil {
		go k.kill()
	}
	return err
}

// sendWait bounds one write to the driver.
const sendWait = 10 * time.Second

// alive tells whether the process still runs.
func (k *kernel) alive() bool {
	select {
	case <-k.dead:
		return false
	default:
		return true
	}
}

// kill ends the kernel's process and all it started, and waits for it.
func (k *kernel) kill() {
	if !k.alive() {
		return
	}
	k.mu.Lock()
	k.killed = true
	k.mu.Unlock()
	k.unreaped(func(pid int) { killKernel(pid, k.group) })
	<-k.dead
}

// unreaped runs f with the kernel's pid while the kernel is not reaped
// (reapMu), and not at all once it is: a pid signalled, or a process tree
// looked for by it, is the kernel's and never a reused one.
func (k *kernel) unreaped(f func(pid int)) {
	k.reapMu.Lock()
	defer k.reapMu.Unlock()
	if !k.reaped {
		f(k.cmd.Process.Pid)
	}
}

// reap waits for the kernel's process to end and reaps it; its pid is
// free for others only after this, and never while unreaped runs.
func (k *kernel) reap() error {
	waitExited(k.cmd.Process.Pid)
	k.reapMu.Lock()
	k.reaped = true
	k.reapMu.Unlock()
	return k.cmd.Wait()
}

// startError is a kernel that did not start: Missing when the Python has
// no IPython.
type startError struct {
	text    string
	missing bool
}

func (e *startError) Error() string { return e.text }

// kernelKey is what a kernel is confined by: a cell whose key differs
// gets a new kernel.
func (r *Runner) kernelKey(python string, allowed gate.Effects) string {
	return fmt.Sprintf("%d\x00%s", allowed, r.confineKey(python))
}

// confineKey is what confines a kernel beside its effects: the
// confinement setting, the writable directories and the Python.
func (r *Runner) confineKey(python string) string {
	return python + "\x00" + r.Confine.key()
}

// findPython is the program the kernel runs: the setting ipython.python
// (a path, or a name looked up on the judged PATH), else python3, else
// python (Windows' installer names it so).
func findPython(setting string, env []string, dir string) (string, error) {
	names := []string{"python3", "python"}
	if setting != "" {
		names = []string{setting}
	}
	environ := expand.ListEnviron(env...)
	if home := environ.Get("HOME").String(); home != "" && strings.HasPrefix(setting, "~/") {
		names = []string{filepath.Join(home, setting[2:])}
	}
	for _, n := range names {
		if p, err := interp.LookPathDir(dir, environ, n); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no %s on PATH", strings.Join(names, " or "))
}

// startKernel starts a kernel confined to allowed and waits until IPython
// is up. The driver's channel is its stdin and stdout; what Python writes
// to stderr before the driver runs is kept for the message of a start
// that failed.
func (r *Runner) startKernel(ctx context.Context, python string, allowed gate.Effects, route func(*kernel, kernelMsg, bool)) (*kernel, error) {
	l, path, root, err := r.kernelLaunch(python, allowed)
	if err != nil {
		return nil, err
	}
	// WaitDelay: a process the kernel left holding its stderr cannot hold
	// the kernel's end past the grace
	cmd := &exec.Cmd{Path: l.path, Args: l.argv, Env: l.env, Dir: root, SysProcAttr: groupAttr(), WaitDelay: r.grace()}
	stdin, in, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	defer stdin.Close()
	cmd.Stdin = stdin
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	var stderr bytes.Buffer
	cmd.Stderr = &limitedBuffer{b: &stderr, max: 16 << 10}
	var planW *os.File
	if l.plan != nil {
		pr, pw, perr := os.Pipe()
		if perr != nil {
			return nil, fmt.Errorf("no pipe for the sandbox's plan (%v)", perr)
		}
		defer pr.Close()
		planW = pw
		cmd.ExtraFiles = []*os.File{pr}
	}
	var endLive func() []string
	if l.begin != nil {
		endLive = l.begin()
	}
	if err := cmd.Start(); err != nil {
		if planW != nil {
			planW.Close()
		}
		if endLive != nil {
			endLive()
		}
		in.Close()
		return nil, &startError{text: fmt.Sprintf("%s: %v", path, err), missing: errors.Is(err, os.ErrNotExist)}
	}
	if planW != nil {
		go func(plan []byte) {
			_, _ = planW.Write(plan)
			planW.Close()
		}(l.plan)
	}
	k := &kernel{cmd: cmd, group: startGroup(cmd.Process), key: r.kernelKey(python, allowed), in: in,
		allowed: allowed, confined: r.confineKey(python),
		dead: make(chan struct{}), endLive: endLive, made: l.made, l: l, plan: launchPlan(l)}
	ready := make(chan kernelMsg, 1)
	lines := bufio.NewReaderSize(out, 64<<10)
	go func() {
		first := true
		for {
			line, err := readKernelLine(lines)
			if err != nil {
				if err != io.EOF {
					// a line past the bound: the channel is broken, and
					// so is the kernel
					k.broke = err.Error()
					killKernel(cmd.Process.Pid, k.group)
				}
				break
			}
			var m kernelMsg
			if json.Unmarshal(line, &m) != nil {
				continue
			}
			if first && (m.Ready != nil || m.Fatal != nil) {
				first = false
				ready <- m
				continue
			}
			route(k, m, false)
		}
		k.exit = k.reap()
		close(k.dead)
		if first {
			close(ready)
		}
		route(k, kernelMsg{}, true) // the end: a cell still running died with it
	}()
	t := time.NewTimer(kernelStartWait)
	defer t.Stop()
	select {
	case m, ok := <-ready:
		switch {
		case ok && m.Ready != nil:
			k.version = "IPython " + *m.Ready + ", Python " + m.Python
			return k, nil
		case ok && m.Fatal != nil && m.Missing:
			<-k.dead
			return nil, &startError{text: fmt.Sprintf("%s cannot import IPython (%s)", path, *m.Fatal), missing: true}
		case ok && m.Fatal != nil:
			<-k.dead
			return nil, &startError{text: fmt.Sprintf("IPython did not start in %s: %s", path, *m.Fatal)}
		}
		<-k.dead
		return nil, &startError{text: fmt.Sprintf("%s ended before IPython was up (%v)%s", path, k.exit, stderrTail(stderr.String()))}
	case <-t.C:
		k.kill()
		return nil, &startError{text: fmt.Sprintf("%s did not bring IPython up within %s", path, kernelStartWait)}
	case <-ctx.Done():
		k.kill()
		return nil, ctx.Err()
	}
}

// kernelLaunch is how a kernel would start now: its Python (path), its
// directory (root), and the sandbox around it, planned as for a step's
// process allowed these effects. A kernel that runs keeps its launch's
// plan; a cell whose launch plans another gets a new kernel
// (launchPlan).
func (r *Runner) kernelLaunch(python string, allowed gate.Effects) (l launch, path, root string, err error) {
	root, err = filepath.Abs(r.Root)
	if err != nil {
		return l, "", "", &startError{text: fmt.Sprintf("the session root %q cannot be the kernel's directory (%v)", r.Root, err)}
	}
	env, _ := startPath(scriptEnv(r.Env, r.Session), r.Gate.Policy, &r.pathSeen)
	path, err = findPython(python, env, root)
	if err != nil {
		return l, "", "", &startError{text: err.Error(), missing: true}
	}
	x := r.kernelRun(root, env)
	// a cell is one exec step, judged whole: its kernel's allowance is
	// not narrowed to paths (sandbox), as no words of its name them
	x.autoNow = allowed
	argv := []string{path, "-u", "-c", kernelDriver}
	l, refusal := x.sandbox(path, argv, env, root, allowed, nil)
	if refusal != "" {
		return l, "", "", &startError{text: strings.TrimSpace(strings.Replace(refusal, "bash: ", "", 1))}
	}
	return l, path, root, nil
}

// launchPlan is what a launch confines by, as text: the sandbox's
// arguments and its plan.
func launchPlan(l launch) string {
	return strings.Join(append([]string{l.path}, l.argv...), "\x00") + "\x00" + string(l.plan) + "\x00" + strings.Join(l.env, "\x00")
}

// kernelRun is the run a kernel's sandbox is planned with: the session's
// places, as a script's external process has them.
func (r *Runner) kernelRun(root string, env []string) *run {
	r.protected.live.enable()
	return &run{
		gate: r.Gate, policy: r.Gate.Policy, root: root, env: env, grace: r.grace(), id: newID(),
		done: make(chan struct{}), groups: map[procGroup]bool{},
		confine: r.Confine, tempDir: r.tempDir, blind: r.blind, pathSeen: &r.pathSeen, tree: &r.protected, links: &r.links,
	}
}

// readKernelLine reads one line of at most maxKernelLine bytes.
func readKernelLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > maxKernelLine {
			return nil, fmt.Errorf("it wrote a line over %d MiB on its channel to eukhe, so it was stopped", maxKernelLine>>20)
		}
		if err == bufio.ErrBufferFull {
			continue
		}
		return line, err
	}
}

// limitedBuffer keeps the first max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	b   *bytes.Buffer
	max int
}

func (l *limitedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if room := l.max - l.b.Len(); room > 0 {
		l.b.Write(p[:min(room, len(p))])
	}
	return len(p), nil
}

// stderrTail is the last lines of what a kernel wrote before its driver
// ran, for a message.
func stderrTail(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return ""
	}
	lines := strings.Split(s, "\n")
	if len(lines) > 5 {
		lines = lines[len(lines)-5:]
	}
	return ": " + strings.Join(lines, " / ")
}

// decodeOut is an out message's bytes.
func decodeOut(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return nil
	}
	return b
}
