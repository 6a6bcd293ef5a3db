package docs

import "fmt"

// Result is a document tool's reply: its text, whether the tool refused
// or failed, and how it ended as data (Kind, and for an edit refused
// whole the refusal of its file). agent turns it into the tool result
// the model and the transcript get; nothing above docs parses Text.
type Result struct {
	Text   string
	Failed bool
	// Whole is the result with nothing cut, when the output bound cut
	// Text (a read past its bound, a bash output cut in the middle); ""
	// otherwise. The session's transcript keeps it (memory://).
	Whole string
	// Kind is how the call ended; Failed agrees with it (Failed is the
	// Kind's Fails, except Other, which is whatever Failed says).
	Kind ResultKind
	// Refusal is why an edit was NOT applied (Kind NotApplied), when
	// one file's section stopped it.
	Refusal *Refusal
	// Unseen are the anchors an edit stands on that this session has not
	// seen (Kind NotApplied, S8.8), in order.
	Unseen []Anchor
	// Err is the documents gate's refusal (Kind Refused), as the
	// PathGuard gave it: agent reads its effects and answer from it.
	Err error
}

// ResultKind is how a document tool call ended.
type ResultKind uint8

// The outcomes. The zero value is Other: the tool did what was asked, or
// failed in a way no caller acts on (a missing file, bad arguments); its
// Failed says which.
const (
	Other ResultKind = iota
	// NotApplied: an edit or write was refused before anything was
	// written (a stale tag, an unseen anchor, a file that exists).
	NotApplied
	// Partial: an edit landed in some files and not in others.
	Partial
	// Refused: the documents gate did not let the access run (Err).
	Refused
	// Cancelled: the call was cancelled before it was done.
	Cancelled
)

// Fails tells whether a call that ended so is a failure for the model.
func (k ResultKind) Fails() bool { return k == NotApplied || k == Refused || k == Cancelled }

// RefusalKind is why one file's section of an edit is NOT applied.
type RefusalKind uint8

// The kinds of a section's refusal.
const (
	// RefusedExists: a section without a tag names a file that exists.
	RefusedExists RefusalKind = iota + 1
	// RefusedMissing: the tagged file does not exist now.
	RefusedMissing
	// RefusedDir: the tagged path is a directory.
	RefusedDir
	// RefusedTooLarge: the file is over the snapshot limit (no tag).
	RefusedTooLarge
	// RefusedNotText: read's gate refuses the file (binary, another
	// encoding).
	RefusedNotText
	// RefusedUnknownTag: the tag names no version this session saw.
	RefusedUnknownTag
	// RefusedOps: the ops do not fit the version (overlap, past the end).
	RefusedOps
	// RefusedStale: the file changed on lines the edit stands on; Why
	// shows them as they are now.
	RefusedStale
	// RefusedUnreadable: the file cannot be read.
	RefusedUnreadable
	// RefusedConflict: the store's check under its lock refused the
	// commit (the bytes changed, a destination exists); Why is its reason.
	RefusedConflict
)

// Refusal is why one file's section of an edit is NOT applied, as a value:
// the reply renders it, and no code takes its text apart again.
type Refusal struct {
	File string // the file as the reply names it
	Kind RefusalKind
	// Why is the reason as the reply says it after "NOT applied: " (it
	// ends with "Nothing was written." or with the lines as they are now).
	Why string
}

// Text is the refusal as the reply of a refused edit.
func (r *Refusal) Text() string { return "NOT applied: " + r.Why }

// refuseSection makes a section's refusal.
func refuseSection(file string, k RefusalKind, format string, a ...any) *Refusal {
	return &Refusal{File: file, Kind: k, Why: fmt.Sprintf(format, a...)}
}

// notApplied is the reply of an edit one section's refusal stopped.
func notApplied(r *Refusal) Result {
	return Result{Text: r.Text(), Failed: true, Kind: NotApplied, Refusal: r}
}

// committed is how a commit's reply ended (Reply's text and isErr): not
// applied when the store refused it whole, partial when some files
// landed and some did not.
func committed(text string, isErr bool, names []string, res Committed) Result {
	r := Result{Text: text, Failed: isErr}
	landed := 0
	for _, o := range res.Outcomes {
		if o.Fate == Landed {
			landed++
		}
	}
	switch {
	case res.Conflict != nil:
		c := res.Conflict
		r.Kind = NotApplied
		if c.Index >= 0 && c.Index < len(names) {
			r.Refusal = &Refusal{File: names[c.Index], Kind: RefusedConflict, Why: c.Why}
		}
	case landed > 0 && landed < len(res.Outcomes):
		r.Kind = Partial
	}
	return r
}

// refused is the reply of an access the documents gate refused; prefix
// says what did not happen ("NOT written: "), "" for nothing.
func refused(prefix string, err error) Result {
	return Result{Text: prefix + err.Error(), Failed: true, Kind: Refused, Err: err}
}

// notWritten is the reply of a write refused before anything was
// written, for what the file is now (gone, not read, changed).
func notWritten(format string, a ...any) Result {
	return Result{Text: "NOT written: " + fmt.Sprintf(format, a...), Failed: true, Kind: NotApplied}
}

func failed(format string, a ...any) Result {
	return Result{Text: fmt.Sprintf(format, a...), Failed: true}
}
