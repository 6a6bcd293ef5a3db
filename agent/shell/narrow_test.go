package shell

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// liveSettings are settings a test changes while a script runs.
type liveSettings struct {
	mu   sync.Mutex
	auto gate.AutoSet
	mode string
}

func (l *liveSettings) set(f func(*liveSettings)) {
	l.mu.Lock()
	defer l.mu.Unlock()
	f(l)
}

func (l *liveSettings) wire(r *Runner) {
	r.Gate.Auto = func() gate.AutoSet {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.auto
	}
	r.Confine.Mode = func() string {
		l.mu.Lock()
		defer l.mu.Unlock()
		return l.mode
	}
}

// runWhile runs script as a job and changes the settings once it runs;
// it gives the job's end and how long after the change it came.
func runWhile(t *testing.T, w *world, l *liveSettings, script string, change func(*liveSettings)) (Result, time.Duration) {
	t.Helper()
	w.runner.Budget = 100 * time.Millisecond
	res := w.runner.Run(context.Background(), Request{Script: script})
	if res.Ending != Detached {
		t.Fatalf("not a job: %s", res.Text)
	}
	l.set(change)
	changed := time.Now()
	w.runner.Budget = time.Minute
	end := w.runner.Wait(context.Background(), res.Job)
	return end, time.Since(changed)
}

// approvedStep is a step the auto set {read} does not hold (sh -c is
// exec): the user approves it (the test's asker approves).
const approvedStep = "sh -c 'sleep 3; echo ran to its end'"

// The law auto_narrowing_stops_what_runs: a step (as a call or a job)
// that the auto set let run, or the user approved, keeps running only as
// long as the settings still allow what it was confined to: an effect
// taken out of the auto set, or a confinement mode changed, stops it —
// unless the user approved that effect for this step; a widening stops
// nothing. Its result says why.
func TestLaw_auto_narrowing_stops_what_runs(t *testing.T) {
	unixPrograms(t, "sleep and sh")
	all := []gate.Effect{gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected}
	cases := []struct {
		name   string
		from   []gate.Effect
		to     []gate.Effect
		mode   string // "" keeps auto
		stops  bool
		script string
	}{
		{name: "net taken out", from: all, to: []gate.Effect{gate.Read, gate.Write, gate.Exec, gate.Outside, gate.Protected}, stops: true},
		{name: "exec taken out", from: all, to: []gate.Effect{gate.Read, gate.Write}, stops: true},
		{name: "nothing taken out", from: []gate.Effect{gate.Read, gate.Exec}, to: all, stops: false},
		{name: "the same set", from: []gate.Effect{gate.Read, gate.Exec}, to: []gate.Effect{gate.Read, gate.Exec}, stops: false},
		{name: "confinement switched", from: all, to: all, mode: "require", stops: true},
		// The user approved the step (read and exec; the auto set had
		// only read): what the user approved stays allowed; what only the
		// auto set allowed does not.
		{name: "approved step, auto unchanged", from: []gate.Effect{gate.Read}, to: []gate.Effect{gate.Read}, stops: false, script: approvedStep},
		{name: "approved step, read taken out (it was approved with it)", from: []gate.Effect{gate.Read}, to: []gate.Effect{gate.Write}, stops: false, script: approvedStep},
		{name: "approved step, net taken out", from: []gate.Effect{gate.Read, gate.Net}, to: []gate.Effect{gate.Read}, stops: true, script: approvedStep},
		{name: "the auto set held the step, exec taken out", from: []gate.Effect{gate.Read, gate.Exec}, to: []gate.Effect{gate.Read}, stops: true, script: approvedStep},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, gate.AutoOf(gate.Of(c.from...)))
			l := &liveSettings{auto: gate.AutoOf(gate.Of(c.from...))}
			l.wire(w.runner)
			script := c.script
			if script == "" {
				script = "sleep 3; echo ran to its end"
			}
			end, after := runWhile(t, w, l, script, func(l *liveSettings) {
				l.auto = gate.AutoOf(gate.Of(c.to...))
				if c.mode != "" {
					l.mode = c.mode
				}
			})
			narrowed := end.Ending == Killed && end.Narrowed && end.Failed &&
				strings.Contains(end.Text, "settings no longer allow")
			if c.stops {
				if !narrowed || strings.Contains(end.Text, "\nran to its end\n") {
					t.Fatalf("the settings narrowed and the job went on: %s %+v", end.Text, end)
				}
				if after > 2*time.Second {
					t.Fatalf("stopped only %s after the narrowing", after)
				}
				return
			}
			if end.Ending != Finished || !strings.Contains(end.Text, "\nran to its end\n") {
				t.Fatalf("nothing narrowed and the job was stopped: %s", end.Text)
			}
		})
	}
}
