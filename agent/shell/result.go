package shell

import (
	"fmt"
	"strings"

	"github.com/eukhe/eukhe/gate"
)

// Ending is how a call or a job ended. A job's settle status is one of
// finished, exited, refused, killed, timed_out.
type Ending string

// The endings.
const (
	// Finished: the gate let every step run and the script ran to its end
	// (steps skipped by && and || were not asked about).
	Finished Ending = "finished"
	// Exited: the script stopped itself before its end (exit, set -e).
	Exited Ending = "exited"
	// Refused: a step did not run: an answer other than approve, or the
	// runtime re-check (Reason says which).
	Refused Ending = "refused"
	// Detached: the call passed its blocking budget; the script goes on
	// as Job.
	Detached Ending = "detached"
	// Killed: bash {kill: ID} stopped it.
	Killed Ending = "killed"
	// TimedOut: it ran past its timeout and was stopped.
	TimedOut Ending = "timed_out"
	// Cancelled: the call was cancelled before it ended.
	Cancelled Ending = "cancelled"
	// Invalid: nothing ran: the script cannot run (a NUL byte, bad
	// syntax), or the job asked for is not in the table.
	Invalid Ending = "invalid"
)

// Reasons a step was refused.
const (
	// Changed is the runtime re-check's refusal: the step would run with
	// effects no one approved (a glob or a variable changed its words, a
	// link or a cd moved its paths).
	Changed = "changed"
)

// StepResult is one step that ran.
type StepResult struct {
	// N is the step's number in the script, from 1.
	N int
	// Text is the step as the gate showed it.
	Text string
	// Status is its exit status; -1 when it is not known.
	Status int
}

// Result is what a call gives back; Text is what the model gets.
type Result struct {
	Text   string
	Ending Ending
	// Narrowed marks a Killed script that was stopped because the
	// settings narrowed while a step ran (narrow.go).
	Narrowed bool
	// Failed marks a call the model should treat as an error: refused,
	// invalid, timed out or cancelled.
	Failed bool
	// Status is the exit status of the last step that ran (Exited: the
	// status the script exited with).
	Status int
	// Steps are the steps that ran, in order.
	Steps []StepResult
	// RefusedAt is the refused step's number (Refused), from 1.
	RefusedAt int
	// Effects are the refused step's effects when the answer refused it;
	// empty for the run-time check's refusal (Changed).
	Effects gate.Effects
	// Reason is why it was refused: the answer's name (denied,
	// unanswered, gateway_refused) or Changed.
	Reason string
	// Job is the job's id: a detached call's, or the job Wait or Kill
	// looked at.
	Job string
	// Dropped counts the output bytes the cap cut (output_bounded).
	Dropped int64
	// Whole is the result with no output cut, when the cap cut some and
	// the runner keeps whole outputs (Runner.KeepWhole, up to MaxWhole);
	// "" otherwise.
	Whole string
}

// ReasonOf is an answer as a refusal names it (Result.Reason; agent's
// results name a document access's refusal the same way).
func ReasonOf(a gate.Answer) string {
	switch a {
	case gate.Deny:
		return "denied"
	case gate.GatewayRefused:
		return "gateway_refused"
	}
	return "unanswered"
}

// endLine is the last line of a result's text: how the script ended.
func endLine(r Result, refusal string, timeout string) string {
	switch r.Ending {
	case Finished:
		return fmt.Sprintf("[finished, exit status %d]", r.Status)
	case Exited:
		return fmt.Sprintf("[exited %d]", r.Status)
	case Refused:
		return fmt.Sprintf("[refused at step %d: %s] %s", r.RefusedAt, r.Reason, refusal)
	case Detached:
		return fmt.Sprintf("[detached: job %s goes on. bash {\"job\": %q} waits for it and gives its output; bash {\"kill\": %q} stops it. A step of it that needs approval still asks.]",
			r.Job, r.Job, r.Job)
	case Killed:
		if r.Narrowed {
			return "[killed: the settings no longer allow what the running step was confined to (an effect left the auto set, or the confinement changed), so the script and every process it started were stopped; run it again to be asked under the settings as they are now]"
		}
		return "[killed: the script and every process it started were stopped]"
	case TimedOut:
		return fmt.Sprintf("[timed out after %s: the script and every process it started were stopped]", timeout)
	case Cancelled:
		return "[cancelled: the call was cancelled; the script and every process it started were stopped]"
	}
	return "[" + string(r.Ending) + "]"
}

// statusLine is the line after a pipeline's output: each step's status.
func statusLine(statuses []int) string {
	parts := make([]string, len(statuses))
	for i, s := range statuses {
		if s < 0 {
			parts[i] = "?"
		} else {
			parts[i] = fmt.Sprint(s)
		}
	}
	if len(parts) == 1 {
		return "[exit " + parts[0] + "]\n"
	}
	return "[exit " + strings.Join(parts, " | ") + "]\n"
}
