package shell

import (
	"bytes"
	"strings"
	"sync/atomic"
)

// Now is how a running script goes, for a progress report (the bash
// call's notifications/progress, the editor's $/progress): the pipeline
// the gate asks about or that runs, and the lines of output so far.
type Now struct {
	// Step and Last are the first and last step (from 1) of the pipeline
	// asked about or running; both 0 before the first.
	Step, Last int
	Steps      int    // the script's steps
	Text       string // the pipeline's steps as the gate shows them, joined by " | "
	Asking     bool   // the pipeline waits for the user's answer
	Lines      int64  // lines the script's commands wrote so far
	Job        string // the job the script went on as, once it became one
}

// now is x's Now.
func (x *run) now() Now {
	x.mu.Lock()
	p, asking, job := x.at, x.asking, x.job
	x.mu.Unlock()
	n := Now{Steps: len(x.sc.Steps), Asking: asking, Lines: x.lines.Load(), Job: job}
	if p.end > p.start && p.end <= len(x.sc.Steps) {
		texts := make([]string, 0, p.end-p.start)
		for _, st := range x.sc.Steps[p.start:p.end] {
			texts = append(texts, st.Text)
		}
		n.Step, n.Last, n.Text = p.start+1, p.end, strings.Join(texts, " | ")
	}
	return n
}

// lineCount counts the newlines written through it.
type lineCount struct{ n *atomic.Int64 }

func (c lineCount) Write(p []byte) (int, error) {
	c.n.Add(int64(bytes.Count(p, []byte{'\n'})))
	return len(p), nil
}
