package shell

import (
	"context"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Jobs is a session's job table (S7.7): the scripts that ran past their
// call's blocking budget. OnSettle is called once when a job ends, with
// its id, its status (finished, exited, refused, killed, timed_out) and
// its bounded output; the MCP layer turns it into
// [job-settled job:ID status:S]. It may be called before the detached
// call's result is sent.
type Jobs struct {
	OnSettle func(id, status, output string)

	mu   sync.Mutex
	next int
	jobs map[string]*run
}

// adopt makes a running script a job; ok is false when it has already
// ended (then the call gives its result).
func (j *Jobs) adopt(x *run) (id string, ok bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.finished {
		return "", false
	}
	if j.jobs == nil {
		j.jobs = map[string]*run{}
	}
	j.next++
	id = "j" + strconv.Itoa(j.next)
	j.jobs[id] = x
	x.job, x.jobs = id, j
	return id, true
}

func (j *Jobs) settle(id string, res Result) {
	if j.OnSettle != nil {
		j.OnSettle(id, string(res.Ending), res.Text)
	}
}

func (j *Jobs) get(id string) *run {
	j.mu.Lock()
	defer j.mu.Unlock()
	return j.jobs[id]
}

// Wait waits for the job until it settles or ctx ends: its result, or,
// while it runs, its output so far (detached).
func (j *Jobs) Wait(ctx context.Context, id string) Result { return j.wait(ctx, id, nil) }

// wait is Wait; watch, when set, is handed how the job goes while it is
// waited for (Request.Watch).
func (j *Jobs) wait(ctx context.Context, id string, watch func(now func() Now) (stop func())) Result {
	x := j.get(id)
	if x == nil {
		return j.unknown(id)
	}
	if watch != nil {
		defer watch(x.now)()
	}
	select {
	case <-x.done:
		return x.result()
	case <-ctx.Done():
		select {
		case <-x.done:
			return x.result()
		default:
		}
		return x.snapshot(id)
	}
}

// Kill stops the job's script and every process group it started, waits
// for it to settle (killed), and gives its result. A job that already
// ended is left as it ended.
func (j *Jobs) Kill(id string) Result {
	x := j.get(id)
	if x == nil {
		return j.unknown(id)
	}
	select {
	case <-x.done:
		res := x.result()
		res.Text = fmt.Sprintf("job %s had already ended (%s); nothing was killed.\n", id, res.Ending) + res.Text
		return res
	default:
	}
	x.stop(Killed)
	// The processes get KILL after the grace; the interpreter stops at its
	// next step. Wait a while longer than that for the script to settle.
	t := time.NewTimer(x.grace + 10*time.Second)
	defer t.Stop()
	select {
	case <-x.done:
		return x.result()
	case <-t.C:
		res := x.snapshot(id)
		res.Text = fmt.Sprintf("job %s was told to stop, but has not settled yet; bash {\"job\": %q} shows when it does.\n", id, id) + res.Text
		return res
	}
}

func (j *Jobs) unknown(id string) Result {
	j.mu.Lock()
	var ids []string
	for k := range j.jobs {
		ids = append(ids, k)
	}
	j.mu.Unlock()
	sort.Slice(ids, func(a, b int) bool {
		na, _ := strconv.Atoi(strings.TrimPrefix(ids[a], "j"))
		nb, _ := strconv.Atoi(strings.TrimPrefix(ids[b], "j"))
		return na < nb
	})
	var known []string
	for _, k := range ids {
		x := j.get(k)
		state := "running"
		select {
		case <-x.done:
			state = string(x.result().Ending)
		default:
		}
		known = append(known, k+" ("+state+")")
	}
	list := "it has no jobs"
	if len(known) > 0 {
		list = "its jobs are " + strings.Join(known, ", ")
	}
	return Result{Ending: Invalid, Failed: true, Job: id,
		Text: fmt.Sprintf("bash: there is no job %q in this session; %s.", id, list)}
}
