package agent

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
)

// The ipython tool (S7 item 8, G4): a Python kernel per session whose
// document functions are the session's own tools. It declares the gate's
// CellRunner (exec, each call gated); agent/shell runs the kernel
// (Runner.Cell). A cell's read(), edit(), write(), grep(), glob() and
// bash() come back here (kernelCall) and run the roster's handlers with
// the cell's context, marked gate.InCell: the same argument check,
// documents gate, store and laws as the tools, and no question (a cell
// the gate let run does not ask again; what would need one does not run).
//
// Lines a cell's read() or grep() receives count as seen (S8.8): the
// rows reached the code the model wrote and runs, which is the model's
// own reading of them, as a read's rows reaching the model are; an edit()
// on lines no read() or grep() of the session showed is refused as the
// edit tool refuses it.

const ipythonDescription = `Run Python code in this session's IPython kernel. State (variables, imports) lasts between calls; {"restart": true} starts a fresh kernel.
Inside the code, the workspace tools are Python functions that keep their laws: read(path) returns the read's text with .tag, .lines and .rows (rows it returns count as seen for edit); edit(patch) applies a patch all-or-nothing and raises EukheError when it did not land whole; write(path, content); grep(pattern, path=None, **args); glob(pattern, path=None, **args) with .paths; bash(script) runs each step as the bash tool does. They never ask the user: what needs approval raises EukheError (use the tool itself then). The kernel runs only during a call: between calls its threads and programs are stopped.
Each call is gated as one step with the effect exec, and the kernel runs confined like a bash step. The result shows the output (stdout and stderr in order, cut in the middle past about 30 KB), the value of the last expression as Out[N], a traceback when the code raised, and images the code displayed. A call that runs past the blocking budget becomes a job: {"job": ID} waits for it, {"kill": ID} interrupts it.`

const ipythonSchema = `{
  "type": "object",
  "properties": {
    "code": {"type": "string", "description": "The Python code of the cell (IPython syntax: %magics and !commands work)."},
    "timeout": {"type": "number", "description": "Seconds after which the cell is interrupted (default: none beyond the job's own life)."},
    "full_output": {"type": "boolean", "description": "Keep all output instead of cutting its middle."},
    "restart": {"type": "boolean", "description": "Start a fresh kernel before the code runs: every variable is gone."},
    "job": {"type": "string", "description": "A cell job id: wait for it and show its output."},
    "kill": {"type": "string", "description": "A cell job id: interrupt it (and stop the kernel if it does not stop)."}
  },
  "additionalProperties": false
}`

type ipythonArgs struct {
	I          string   `json:"i"`
	Code       *string  `json:"code"`
	Timeout    *float64 `json:"timeout"`
	FullOutput bool     `json:"full_output"`
	Restart    bool     `json:"restart"`
	Job        string   `json:"job"`
	Kill       string   `json:"kill"`
}

func handleIPython(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a ipythonArgs
	if err := docs.DecodeArgs("ipython", s.params("ipython"), raw, &a); err != nil {
		return badArgs(err)
	}
	if given := countSet(a.Code != nil, a.Job != "", a.Kill != ""); given != 1 && !(given == 0 && a.Restart) {
		return badArgsText(`ipython takes one of: {"code": "..."} to run a cell, {"job": "k1"} to wait for a cell job, {"kill": "k1"} to interrupt one; "restart": true starts a fresh kernel`)
	}
	r := s.Shell()
	var res shell.CellResult
	switch {
	case a.Job != "":
		res = r.CellWait(ctx, a.Job)
	case a.Kill != "":
		res = r.CellKill(a.Kill)
	default:
		code := ""
		if a.Code != nil {
			code = *a.Code
		}
		timeout, bad := timeoutArg("ipython", a.Timeout)
		if bad != "" {
			return badArgsText(bad)
		}
		res = r.Cell(ctx, shell.CellRequest{Code: code, FullOutput: a.FullOutput, Restart: a.Restart, Timeout: timeout,
			Python: s.host.Settings().IPythonPython, Calls: s.kernelCall,
			Watch: watchCell(ctx, "ipython "+oneLine(gate.VisibleText(code)), s.reportEvery)})
	}
	out := fromShell(res.Result)
	for _, im := range res.Images {
		out.Parts = append(out.Parts, Part{Kind: ImagePart, MIME: im.MIME, Data: im.Data})
	}
	if res.Error != "" && res.Ending == shell.Finished && out.Outcome == Done {
		out.Outcome = Failed
	}
	return out
}

// kernelTools are the kernel functions and the roster tools they run.
var kernelTools = map[string]bool{"read": true, "edit": true, "write": true, "grep": true, "glob": true, "bash": true}

// kernelCall serves one kernel function of a running cell: the roster
// tool of its name, with the cell's context marked gate.InCell, its
// arguments checked as a tool call's are. bash() waits for its script
// (the cell is the job) and its steps may have exec beside the auto set:
// the cell the gate let run had it.
func (s *Session) kernelCall(ctx context.Context, fn string, args json.RawMessage) shell.KernelReply {
	if !kernelTools[fn] {
		return shell.KernelReply{Kind: BadArgs.String(), Text: fmt.Sprintf("%s() is not a kernel function; they are read, edit, write, grep, glob and bash", fn)}
	}
	if err := checkArgs(fn, s.params(fn), args); err != nil {
		return shell.KernelReply{Kind: BadArgs.String(), Text: err.Error()}
	}
	ctx = gate.InCell(ctx)
	var r Result
	ending := ""
	if fn == "bash" {
		r, ending = s.cellBash(ctx, args)
	} else {
		t, _ := s.roster.Lookup(fn)
		r = s.withRecovered(t.Handler(ctx, s, args))
	}
	reply := shell.KernelReply{OK: !r.Failed() && r.Outcome != Partial, Text: r.Text(), Status: r.Status, Ending: ending}
	if !reply.OK {
		reply.Kind = r.Outcome.String()
	}
	return reply
}

// cellBash is a cell's bash(): the bash tool's run, waited for, with the
// cell's exec granted.
func (s *Session) cellBash(ctx context.Context, raw json.RawMessage) (Result, string) {
	var a bashArgs
	if err := docs.DecodeArgs("bash", s.params("bash"), raw, &a); err != nil {
		return badArgs(err), ""
	}
	if a.Script == nil || a.Job != "" || a.Kill != "" {
		return badArgsText(`bash() in a cell takes a script: bash("make test"), and a timeout in seconds if you want one`), ""
	}
	timeout, bad := timeoutArg("bash", a.Timeout)
	if bad != "" {
		return badArgsText(bad), ""
	}
	res := s.Shell().Run(ctx, shell.Request{Script: *a.Script, FullOutput: a.FullOutput, Timeout: timeout,
		Grant: gate.CellRunner.Caps, Block: true})
	return fromShell(res), string(res.Ending)
}
