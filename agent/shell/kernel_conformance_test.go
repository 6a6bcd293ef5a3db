package shell

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/docs/storetest"
	"github.com/eukhe/eukhe/gate"
)

// The store conformance suite (docs/storetest) with every read, edit and
// write made by a cell of a real IPython kernel through its kernel
// functions: the call crosses the driver's channel, runs the session's
// tools, and its reply comes back into Python and out again. The laws
// hold through the kernel as through the tools.
func TestStoreConformance_kernelFunctions(t *testing.T) {
	cw := newCellWorld(t)
	cw.auto = gate.DefaultAuto()
	storetest.Run(t, func(t *testing.T) storetest.Rig {
		rig := storetest.DiskRig(cw.w.root)
		rig.Via = func(tools *docs.Tools) storetest.Caller { return kernelCaller{cw: cw, tools: tools, t: t} }
		return rig
	})
}

// kernelCaller makes each documents call from a cell.
type kernelCaller struct {
	cw    *cellWorld
	tools *docs.Tools
	t     *testing.T
}

func (k kernelCaller) Read(ctx context.Context, a docs.ReadArgs) docs.Result {
	return k.cell(ctx, "read", a)
}
func (k kernelCaller) Edit(ctx context.Context, a docs.EditArgs) docs.Result {
	return k.cell(ctx, "edit", a)
}
func (k kernelCaller) Write(ctx context.Context, a docs.WriteArgs) docs.Result {
	return k.cell(ctx, "write", a)
}

// resultMark starts the line a cell prints its call's reply on.
const resultMark = "\x1eRESULT "

// cell runs fn(**args) in a cell; the kernel's call runs k.tools, and the
// reply the cell got (or the EukheError it raised) is the result.
func (k kernelCaller) cell(ctx context.Context, fn string, args any) docs.Result {
	raw, err := json.Marshal(args)
	if err != nil {
		k.t.Fatal(err)
	}
	code := fmt.Sprintf(`import json
try:
    r = %s(**json.loads(%q))
    out = {"ok": True, "text": str(r)}
except EukheError as e:
    out = {"ok": False, "kind": e.kind, "text": e.text}
print(%q + json.dumps(out))`, fn, raw, resultMark)
	res := k.cw.w.runner.Cell(ctx, CellRequest{Code: code, Python: k.cw.python, FullOutput: true,
		Calls: func(ctx context.Context, name string, a json.RawMessage) KernelReply {
			var r docs.Result
			switch name {
			case "read":
				var ra docs.ReadArgs
				_ = json.Unmarshal(a, &ra)
				r = k.tools.Read(ctx, ra)
			case "edit":
				var ea docs.EditArgs
				_ = json.Unmarshal(a, &ea)
				r = k.tools.Edit(ctx, ea)
			case "write":
				var wa docs.WriteArgs
				_ = json.Unmarshal(a, &wa)
				r = k.tools.Write(ctx, wa)
			default:
				return KernelReply{Kind: "bad_args", Text: name}
			}
			// the kind crosses as the result's own: its number and Failed
			return KernelReply{OK: !r.Failed && r.Kind == docs.Other, Kind: fmt.Sprintf("%d:%v", r.Kind, r.Failed), Text: r.Text}
		}})
	_, line, ok := strings.Cut(res.Text, resultMark)
	if !ok || res.Ending != Finished {
		k.t.Fatalf("%s(%s) in a cell: %s", fn, raw, res.Text)
	}
	line, _, _ = strings.Cut(line, "\n")
	var out struct {
		OK         bool
		Kind, Text string
	}
	if err := json.Unmarshal([]byte(line), &out); err != nil {
		k.t.Fatalf("%s: %v: %q", fn, err, line)
	}
	if out.OK {
		return docs.Result{Text: out.Text}
	}
	num, failed, _ := strings.Cut(out.Kind, ":")
	n, _ := strconv.Atoi(num)
	return docs.Result{Text: out.Text, Kind: docs.ResultKind(n), Failed: failed == "true"}
}
