package gate

import (
	"context"
	"sync"
)

// Recorder is an Asker for the tests: it records the frames it was shown
// and answers from a list.
type Recorder struct {
	mu      sync.Mutex
	Clients Attached
	Answers []Answer // one per Ask, in order; none left: the clients leave
	Frames  []Question
}

// Attached is Clients.
func (r *Recorder) Attached() Attached {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Clients
}

// Ask records q and gives the next answer, or leaves when none is left.
func (r *Recorder) Ask(_ context.Context, q Question) (Answer, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Frames = append(r.Frames, q)
	if len(r.Answers) == 0 {
		r.Clients.Interactive = 0
		return Unanswered, false
	}
	a := r.Answers[0]
	r.Answers = r.Answers[1:]
	return a, true
}
