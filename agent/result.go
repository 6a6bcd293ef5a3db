package agent

import (
	"errors"
	"fmt"
	"strings"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// Result is what one tool call gives back, as data: how it ended
// (Outcome, with the detail of that ending), what it shows (Parts: text,
// and images such as a kernel's display data) and the whole of it for
// the transcript. Its text for the model is Text (the one renderer); its
// MCP content is mcpResult (mcp_result.go). Nothing parses the text back.
type Result struct {
	Outcome Outcome
	// Parts are what the call shows, in order.
	Parts []Part
	// Whole is the result with nothing cut, when a bound cut the text (a
	// read past its bound, a bash output cut in the middle); "" otherwise.
	// The session's transcript keeps it (memory://).
	Whole string

	// Refusal is what the gate did not let run (Outcome Refused).
	Refusal *Refusal
	// NotApplied is the file section that stopped an edit (Outcome
	// NotApplied), when one did; Unseen the anchors of an edit refused for
	// lines this session has not seen.
	NotApplied *docs.Refusal
	Unseen     []docs.Anchor
	// Job is the job a bash call detached, waited on or killed.
	Job string
	// Status is the exit status of the last step that ran (bash).
	Status int
	// Dropped counts the output bytes the output cap cut (output_bounded).
	Dropped int64
}

// Outcome is how a tool call ended.
type Outcome uint8

// The outcomes, from the tools as they are: each says whether the model
// should treat the call as failed (Fails).
const (
	// Done: the tool did what was asked (a read, a landed edit, a script
	// that ran to its end or exited, a job killed as asked).
	Done Outcome = iota
	// Partial: an edit landed in some files and not in others.
	Partial
	// Job: bash passed its blocking budget; the script goes on as Job.
	Job
	// NotApplied: an edit or write was refused before anything was
	// written (a stale tag, unseen lines, a file that exists, the store's
	// check under its lock).
	NotApplied
	// Refused: the gate did not let a step or a document access run
	// (Refusal: what, its effects, the answer).
	Refused
	// BadArgs: the arguments do not fit the tool, or name no job; nothing
	// ran.
	BadArgs
	// Failed: the tool ran and failed (a missing file, a write error, a
	// dynamic tool's error).
	Failed
	// TimedOut: a script ran past its timeout and was stopped.
	TimedOut
	// Cancelled: the call was cancelled before it was done.
	Cancelled
)

var outcomeNames = [...]string{"done", "partial", "job", "not_applied", "refused", "bad_args", "failed", "timed_out", "cancelled"}

func (o Outcome) String() string {
	if int(o) < len(outcomeNames) {
		return outcomeNames[o]
	}
	return fmt.Sprintf("outcome(%d)", o)
}

// Fails tells whether the model should treat a call that ended so as an
// error (MCP isError).
func (o Outcome) Fails() bool { return o > Job }

// Refusal is a step or document access the gate did not let run.
type Refusal struct {
	// Step is the refused step of a script, from 1; 0 for a document
	// access.
	Step    int
	Effects gate.Effects // the step's or access's effects
	// Reason is why: denied, unanswered, gateway_refused (the answer), or
	// changed (the run-time check: the step would have run with effects
	// no one approved).
	Reason string
}

// PartKind is what a part of a result holds.
type PartKind uint8

// The kinds of parts.
const (
	TextPart PartKind = iota
	ImagePart
)

// Part is one piece of what a call shows: text, or an image with its MIME
// type and bytes.
type Part struct {
	Kind PartKind
	Text string
	MIME string // ImagePart: "image/png"
	Data []byte // ImagePart: the image's bytes
}

// Text is the result as the model reads it, the one renderer of a
// result's parts: text as it is, an image as a note of its type and size
// (its bytes go to an MCP client as image content).
func (r Result) Text() string {
	if len(r.Parts) == 1 && r.Parts[0].Kind == TextPart {
		return r.Parts[0].Text
	}
	var b strings.Builder
	for _, p := range r.Parts {
		b.WriteString(p.text())
	}
	return b.String()
}

// text is one part as the model reads it.
func (p Part) text() string {
	if p.Kind == ImagePart {
		return imageNote(p.MIME, len(p.Data)) + "\n"
	}
	return p.Text
}

// imageNote is an image as text: what a tool's image is to a reader
// without images (the transcript, a client given text only).
func imageNote(mime string, n int) string {
	return fmt.Sprintf("[image: %s, %d bytes]", mime, n)
}

// Failed tells whether the model should treat the call as an error.
func (r Result) Failed() bool { return r.Outcome.Fails() }

// appendText adds text at the end of what the result shows (a notice).
func (r *Result) appendText(s string) {
	if s == "" {
		return
	}
	if n := len(r.Parts); n > 0 && r.Parts[n-1].Kind == TextPart {
		r.Parts[n-1].Text += s
		return
	}
	r.Parts = append(r.Parts, Part{Kind: TextPart, Text: s})
}

// mapText rewrites each text part.
func (r *Result) mapText(f func(string) string) {
	for i := range r.Parts {
		if r.Parts[i].Kind == TextPart {
			r.Parts[i].Text = f(r.Parts[i].Text)
		}
	}
}

// TextResult is a result that shows text only: what a tool that makes
// text (an editor's host tool, a runner's message) gives back.
func TextResult(o Outcome, text string) Result {
	return Result{Outcome: o, Parts: []Part{{Kind: TextPart, Text: text}}}
}

// done is a call that did what was asked; failure one that failed.
func done(text string) Result    { return TextResult(Done, text) }
func failure(text string) Result { return TextResult(Failed, text) }

// badArgsText is a call whose arguments do not fit: nothing ran.
func badArgsText(text string) Result { return TextResult(BadArgs, text) }

// fromDocs is a document tool's reply as a result. Its Failed decides the
// outcome's failure, whatever its kind says: the model's isError is the
// tool's own.
func fromDocs(d docs.Result) Result {
	r := TextResult(Done, d.Text)
	r.Whole = d.Whole
	switch d.Kind {
	case docs.NotApplied:
		r.Outcome, r.NotApplied, r.Unseen = NotApplied, d.Refusal, d.Unseen
	case docs.Partial:
		r.Outcome = Partial
	case docs.Cancelled:
		r.Outcome = Cancelled
	case docs.Refused:
		r.Outcome = Refused
		var gr *gate.Refusal
		if errors.As(d.Err, &gr) {
			r.Refusal = &Refusal{Effects: gr.Effects, Reason: shell.ReasonOf(gr.Answer)}
		}
	}
	switch {
	case d.Failed && !r.Outcome.Fails():
		r.Outcome = Failed
	case !d.Failed && r.Outcome.Fails():
		r.Outcome = Done
	}
	return r
}

// fromShell is a bash call's result (S7.7): the shell's ending as the
// outcome, the refused step with its effects and reason, the job, the exit
// status and the bytes the cap dropped.
func fromShell(s shell.Result) Result {
	r := TextResult(Done, s.Text)
	r.Whole, r.Job, r.Status, r.Dropped = s.Whole, s.Job, s.Status, s.Dropped
	switch s.Ending {
	case shell.Detached:
		r.Outcome = Job
	case shell.Refused:
		r.Outcome = Refused
		r.Refusal = &Refusal{Step: s.RefusedAt, Effects: s.Effects, Reason: s.Reason}
	case shell.Invalid:
		r.Outcome = BadArgs
	case shell.TimedOut:
		r.Outcome = TimedOut
	case shell.Cancelled:
		r.Outcome = Cancelled
	}
	if s.Failed != r.Outcome.Fails() {
		// the shell's own verdict decides; an ending this does not know
		r.Outcome = Done
		if s.Failed {
			r.Outcome = Failed
		}
	}
	return r
}
