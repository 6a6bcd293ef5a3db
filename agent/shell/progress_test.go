package shell

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
)

// watched is a Request.Watch that keeps the script's now and counts its
// stops.
type watched struct {
	mu    sync.Mutex
	now   func() Now
	stops int
}

func (w *watched) watch(now func() Now) func() {
	w.mu.Lock()
	w.now = now
	w.mu.Unlock()
	return func() { w.mu.Lock(); w.stops++; w.mu.Unlock() }
}

func (w *watched) get() (func() Now, int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.now, w.stops
}

// Now tells the pipeline the gate asks about (its steps, their text, that
// it waits for an answer), then the one that runs, and counts the lines
// the commands wrote: not the "$ step" and "[exit N]" lines of the result.
func TestNowTellsTheStepAndCountsLines(t *testing.T) {
	w := newWorld(t, readOnly())
	var wd watched
	var asked []Now
	w.runner.Gate.Chain = route.Chain{{Name: "test", Asker: route.Headless{Client: func(_ context.Context, q gate.Question) gate.Answer {
		now, _ := wd.get()
		asked = append(asked, now())
		return gate.Approve
	}}}}
	res := w.runner.Run(context.Background(), Request{Script: "echo a; echo b | tee out.txt; echo c", Watch: wd.watch})
	if res.Failed || !strings.Contains(res.Text, "a\n") {
		t.Fatalf("run: %s", res.Text)
	}
	// The pipeline's two steps are asked about in turn, with the same Now.
	want := Now{Step: 2, Last: 3, Steps: 4, Text: "echo b | tee out.txt", Asking: true, Lines: 1}
	if len(asked) == 0 || asked[0] != want {
		t.Fatalf("asked with %+v, want %+v", asked, want)
	}
	now, stops := wd.get()
	if stops != 1 {
		t.Fatalf("stopped %d times", stops)
	}
	if got, want := now(), (Now{Step: 4, Last: 4, Steps: 4, Text: "echo c", Lines: 3}); got != want {
		t.Fatalf("at the end %+v, want %+v", got, want)
	}
}

// A script that becomes a job stops its watch when the call returns, and
// its Now names the job.
func TestAJobStopsItsWatchWhenTheCallReturns(t *testing.T) {
	unixPrograms(t, "sleep")
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Exec)))
	w.runner.Budget = 100 * time.Millisecond
	var wd watched
	res := w.runner.Run(context.Background(), Request{Script: "sleep 1", Watch: wd.watch})
	if res.Job == "" {
		t.Fatalf("not a job: %s", res.Text)
	}
	now, stops := wd.get()
	if stops != 1 || now().Job != res.Job {
		t.Fatalf("stops %d, now %+v", stops, now())
	}
	w.runner.Kill(res.Job)
}
