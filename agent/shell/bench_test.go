package shell

import (
	"context"
	"os/exec"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// BenchmarkRunTrue is a call that runs true through the whole runner: the
// gate's judgement, a fresh interpreter, the re-check and the output
// pipe. external runs the program true (a fork and exec); builtin runs the
// shell's own true. Its sibling BenchmarkForkExecTrue is a bare fork and
// exec of the same program: the target is at most 5 ms over it.
func BenchmarkRunTrue(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		testkit.Missing(b, "no true on PATH")
	}
	w := newWorld(b, gate.DefaultAuto())
	for _, c := range []struct{ name, script string }{{"external", path}, {"builtin", "true"}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if r := w.runner.Run(context.Background(), Request{Script: c.script}); r.Ending != Finished || r.Status != 0 {
					b.Fatalf("%s:\n%s", r.Ending, r.Text)
				}
			}
		})
	}
}

func BenchmarkForkExecTrue(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		testkit.Missing(b, "no true on PATH")
	}
	for b.Loop() {
		if err := exec.Command(path).Run(); err != nil {
			b.Fatal(err)
		}
	}
}
