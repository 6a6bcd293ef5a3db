package shell

import (
	"time"

	"github.com/eukhe/eukhe/gate"
)

// A process keeps the confinement it started with; the settings may
// narrow while it runs (an effect taken out of the auto set,
// shell.confinement or shell.writableDirs changed). What runs then is
// stopped, so that nothing keeps more than the settings now allow (seed
// S7.8: a user who narrows the auto set is asked about the steps it no
// longer holds, and a running step was never asked): a bash pipeline,
// as a call or a job, and an ipython cell (watchNarrowing in
// kernel_cell.go). A widening stops nothing.

// narrowCheck is how often what runs is compared with the settings.
const narrowCheck = 200 * time.Millisecond

// watchSettings calls stop once still says the settings no longer allow
// what runs, looking every narrowCheck until done is closed.
func watchSettings(done <-chan struct{}, still func() bool, stop func()) {
	t := time.NewTicker(narrowCheck)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		if !still() {
			stop()
			return
		}
	}
}

// watchPipeline stops the script when the settings narrow while the
// pipeline runs: the auto set it was let run under (was) is no longer
// held by the auto set now with what the user approved of its steps
// (approved), or the confinement changed. The returned func ends the
// watch.
func (x *run) watchPipeline(was, approved gate.Effects) (end func()) {
	key := x.confine.key()
	done := make(chan struct{})
	go watchSettings(done, func() bool {
		return was.SubsetOf(x.gate.auto().Effects().Union(approved)) && x.confine.key() == key
	}, func() {
		x.mu.Lock()
		x.res.Narrowed = true
		x.mu.Unlock()
		x.stop(Killed)
	})
	return func() { close(done) }
}
