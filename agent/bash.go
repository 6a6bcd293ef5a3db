package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// The bash tool (S7.7, S7.8) is in the roster from the start and
// registered with the gate's BashRunner (G4); agent/shell runs it. A
// script runs in process behind the approval gate; past the blocking
// budget it becomes a job that bash {job} waits on and bash {kill} stops.

const bashDescription = `Run a bash script in the workspace root, in process. Steps join with ;, newlines, &&, ||, |. Before each pipeline runs, the approval gate judges every step's effects (read, write, exec, net, outside, protected, secret); a step outside the user's auto set waits for the user's answer, and a refused step stops the script there (earlier steps keep their effects). The result shows each pipeline as "$ step | step", its output, "[exit N]", and how the script ended. Output is cut in the middle past about 30 KB (full_output keeps all). A script that runs past the blocking budget becomes a job: the call returns its output so far and the job id; {"job": ID} waits for it again, {"kill": ID} stops it. Shell state (cd, export) lasts one call.`

const bashSchema = `{
  "type": "object",
  "properties": {
    "script": {"type": "string", "description": "The script to run."},
    "timeout": {"type": "number", "description": "Seconds after which the script is stopped (default: none beyond the job's own life)."},
    "full_output": {"type": "boolean", "description": "Keep all output instead of cutting its middle."},
    "job": {"type": "string", "description": "A job id: wait for that job and show its output."},
    "kill": {"type": "string", "description": "A job id: stop that job and every process it started."}
  },
  "additionalProperties": false
}`

type bashArgs struct {
	I          string   `json:"i"`
	Script     *string  `json:"script"`
	Timeout    *float64 `json:"timeout"`
	FullOutput bool     `json:"full_output"`
	Job        string   `json:"job"`
	Kill       string   `json:"kill"`
}

func handleBash(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a bashArgs
	if err := docs.DecodeArgs("bash", s.params("bash"), raw, &a); err != nil {
		return badArgs(err)
	}
	if countSet(a.Script != nil, a.Job != "", a.Kill != "") != 1 {
		return badArgsText(`bash takes one of: {"script": "..."} to run a script, {"job": "j1"} to wait for a job, {"kill": "j1"} to stop one`)
	}
	r := s.Shell()
	var res shell.Result
	switch {
	case a.Job != "":
		res = r.WaitWatched(ctx, a.Job, watchBash(ctx, "bash job "+a.Job, s.reportEvery, false))
	case a.Kill != "":
		res = r.Kill(a.Kill)
	default:
		timeout, bad := timeoutArg("bash", a.Timeout)
		if bad != "" {
			return badArgsText(bad)
		}
		res = r.Run(ctx, shell.Request{Script: *a.Script, FullOutput: a.FullOutput, Timeout: timeout,
			Watch: watchBash(ctx, "bash "+oneLine(gate.VisibleText(*a.Script)), s.reportEvery, true)})
	}
	return fromShell(res)
}

// countSet is how many of the arguments are set (the tools that take
// one of several).
func countSet(set ...bool) int {
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	return n
}

// timeoutArg is a tool's timeout argument in seconds as a duration (0:
// none); bad is the message of one that is not more than 0.
func timeoutArg(tool string, seconds *float64) (d time.Duration, bad string) {
	if seconds == nil {
		return 0, ""
	}
	if *seconds <= 0 {
		return 0, tool + ": timeout is in seconds and must be more than 0"
	}
	return time.Duration(*seconds * float64(time.Second)), ""
}

// jobSettled is the row a settled job sends (S7.7).
func jobSettled(id, status, output string) string {
	return fmt.Sprintf("[job-settled job:%s status:%s]\n%s", id, status, output)
}
