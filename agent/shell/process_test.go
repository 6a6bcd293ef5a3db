package shell

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
)

// groupMembers are the live (not zombie) processes of a process group,
// read from /proc.
func groupMembers(t *testing.T, pgid int) []int {
	t.Helper()
	ents, err := os.ReadDir("/proc")
	if err != nil {
		testkit.Missing(t, fmt.Sprintf("no /proc: %v", err))
	}
	var pids []int
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may hold spaces and parens.
		s := string(b)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		if len(f) < 3 || f[0] == "Z" {
			continue
		}
		if g, _ := strconv.Atoi(f[2]); g == pgid {
			pids = append(pids, pid)
		}
	}
	return pids
}

// eventually polls cond every 20 ms for up to 10 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting until %s", what)
}

type settlement struct{ id, status, output string }

func withJobs(w *world, budget time.Duration) chan settlement {
	ch := make(chan settlement, 4)
	w.runner.Budget = budget
	w.runner.Jobs = &Jobs{OnSettle: func(id, status, output string) { ch <- settlement{id, status, output} }}
	return ch
}

func (w *world) pid(name string) int {
	w.t.Helper()
	var pid int
	eventually(w.t.(*testing.T), name+" is written", func() bool {
		b, err := os.ReadFile(w.path(name))
		if err != nil {
			return false
		}
		pid, err = strconv.Atoi(strings.TrimSpace(string(b)))
		return err == nil && pid > 0
	})
	return pid
}

// A script past its budget becomes a job; killing it stops every process
// of the group it started, even one that ignores TERM, and the job
// settles killed.
func TestKillLeavesNoProcess(t *testing.T) {
	unixPrograms(t, "sh and sleep")
	w := newWorld(t, gate.DefaultAuto())
	// Unconfined: the script writes its own pid, which a PID namespace
	// would number apart (TestConfinedKillLeavesNoProcess is the sandbox's).
	w.runner.Confine.Mode = func() string { return "off" }
	settled := withJobs(w, 200*time.Millisecond)
	r := w.run(`sh -c 'trap "" TERM; echo $$ > pid; sleep 300 & sleep 300'`)
	if r.Ending != Detached || r.Job == "" || !strings.Contains(r.Text, r.Job) {
		t.Fatalf("want detached with a job id, got %s:\n%s", r.Ending, r.Text)
	}
	pgid := w.pid("pid")
	eventually(t, "both sleeps run", func() bool { return len(groupMembers(t, pgid)) >= 3 })
	k := w.runner.Kill(r.Job)
	if k.Ending != Killed || k.Job != r.Job {
		t.Fatalf("kill: got %s:\n%s", k.Ending, k.Text)
	}
	eventually(t, "no process of the group is left", func() bool { return len(groupMembers(t, pgid)) == 0 })
	select {
	case s := <-settled:
		if s.id != r.Job || s.status != "killed" || !strings.Contains(s.output, "[killed") {
			t.Fatalf("settled %+v", s)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the job never settled")
	}
	if again := w.runner.Kill(r.Job); again.Ending != Killed || !strings.Contains(again.Text, "already ended") {
		t.Fatalf("a second kill: %s:\n%s", again.Ending, again.Text)
	}
}

// Past the budget the call settles detached with the output so far; the
// script goes on, and bash {job} gives its end.
func TestBudgetMakesAJob(t *testing.T) {
	unixPrograms(t, "sleep")
	w := newWorld(t, gate.DefaultAuto())
	settled := withJobs(w, 300*time.Millisecond)
	r := w.run("echo before; sleep 1; echo after")
	if r.Ending != Detached || !strings.Contains(r.Text, "before") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	var end Result
	eventually(t, "the job ends", func() bool {
		end = w.runner.Wait(context.Background(), r.Job)
		return end.Ending != Detached
	})
	if end.Ending != Finished || !strings.Contains(end.Text, "after") || end.Job != r.Job {
		t.Fatalf("got %s:\n%s", end.Ending, end.Text)
	}
	s := <-settled
	if s.id != r.Job || s.status != "finished" || s.output != end.Text {
		t.Fatalf("settled %+v", s)
	}
}

// A gated step of a job still asks, after the call settled.
func TestJobStillAsks(t *testing.T) {
	unixPrograms(t, "sleep")
	w := newWorld(t, readOnly())
	withJobs(w, 200*time.Millisecond)
	r := w.run("sleep 1; touch late")
	if r.Ending != Detached {
		t.Fatalf("got %s", r.Ending)
	}
	var end Result
	eventually(t, "the job ends", func() bool {
		end = w.runner.Wait(context.Background(), r.Job)
		return end.Ending != Detached
	})
	qs := w.asker.asked()
	if end.Ending != Finished || !exists(w.path("late")) || len(qs) != 1 || qs[0].Step != 2 {
		t.Fatalf("got %s, %d questions:\n%s", end.Ending, len(qs), end.Text)
	}
}

// A timeout stops the script and its processes.
func TestTimeoutStops(t *testing.T) {
	unixPrograms(t, "sh and sleep")
	w := newWorld(t, gate.DefaultAuto())
	r := w.runner.Run(context.Background(), Request{Script: `sh -c 'echo $$ > pid; exec sleep 300'`, Timeout: 500 * time.Millisecond})
	if r.Ending != TimedOut || !r.Failed || !strings.Contains(r.Text, "timed out after 500ms") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	pgid := w.pid("pid")
	eventually(t, "the sleep is gone", func() bool { return len(groupMembers(t, pgid)) == 0 })
}

// Cancelling the call stops the script.
func TestCancelStops(t *testing.T) {
	unixPrograms(t, "sleep and touch")
	w := newWorld(t, gate.DefaultAuto())
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	r := w.runner.Run(ctx, Request{Script: "sleep 300; touch never"})
	if r.Ending != Cancelled || exists(w.path("never")) {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
}

// A writer to a closed pipe stops: yes gets SIGPIPE (141) when head ends.
func TestSigpipeEndsYes(t *testing.T) {
	unixPrograms(t, "yes and head")
	w := newWorld(t, gate.DefaultAuto())
	r := w.run("yes | head -n 3")
	if r.Ending != Finished || !strings.Contains(r.Text, "y\ny\ny\n[exit 141 | 0]") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	if len(r.Steps) != 2 || r.Steps[0].Status != 141 || r.Steps[1].Status != 0 {
		t.Fatalf("statuses %+v", r.Steps)
	}
}

// An unknown job is an error that lists the session's jobs.
func TestUnknownJob(t *testing.T) {
	unixPrograms(t, "sleep")
	w := newWorld(t, gate.DefaultAuto())
	withJobs(w, 100*time.Millisecond)
	r := w.run("sleep 0.5")
	w.runner.Wait(context.Background(), r.Job)
	for _, res := range []Result{w.runner.Wait(context.Background(), "j9"), w.runner.Kill("j9")} {
		if res.Ending != Invalid || !res.Failed || !strings.Contains(res.Text, `no job "j9"`) || !strings.Contains(res.Text, r.Job+" (") {
			t.Fatalf("got %s:\n%s", res.Ending, res.Text)
		}
	}
}

// A job waiting on a question is detached; killing it drops the question,
// and it settles killed, not unanswered.
func TestKillWhileAsking(t *testing.T) {
	w := newWorld(t, readOnly())
	settled := withJobs(w, 200*time.Millisecond)
	asked := make(chan struct{})
	w.runner.Gate.Chain = route.Chain{{Name: "test", Asker: route.Headless{Client: func(ctx context.Context, q gate.Question) gate.Answer {
		close(asked)
		<-ctx.Done()
		return gate.Unanswered
	}}}}
	r := w.run("echo first; touch x")
	if r.Ending != Detached || !strings.Contains(r.Text, "first") {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	<-asked
	if k := w.runner.Kill(r.Job); k.Ending != Killed || exists(w.path("x")) {
		t.Fatalf("got %s:\n%s", k.Ending, k.Text)
	}
	if s := <-settled; s.status != "killed" {
		t.Fatalf("settled %+v", s)
	}
}

// Each step of a pipeline has its status, builtins too.
func TestPipelineStatuses(t *testing.T) {
	unixPrograms(t, "cat")
	w := newWorld(t, gate.DefaultAuto())
	r := w.run("set -o pipefail; false | true; echo $?; exit 3 | cat")
	if !strings.Contains(r.Text, "[exit 1 | 0]\n") || !strings.Contains(r.Text, "\n1\n") || !strings.Contains(r.Text, "[exit 3 | 0]") {
		t.Fatalf("statuses:\n%s", r.Text)
	}
	if r.Ending != Finished || r.Status != 3 {
		t.Fatalf("got %s %d:\n%s", r.Ending, r.Status, r.Text)
	}
}
