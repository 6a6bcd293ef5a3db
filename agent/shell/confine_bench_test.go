package shell

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/confine"
	"github.com/eukhe/eukhe/internal/testkit"
)

// BenchmarkConfinedTrue is the program true through the whole runner,
// unconfined and under each sandbox, as one step and as a script of ten
// steps: what confinement adds per external process (the target:
// at most 5 ms).
func BenchmarkConfinedTrue(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		testkit.Missing(b, "no true on PATH")
	}
	ten := strings.Repeat(path+"; ", 9) + path
	for _, m := range []Mechanism{Unconfined, Bubblewrap, Landlock} {
		b.Run(string(m), func(b *testing.B) {
			b.Setenv(ForceEnv, string(m))
			if c := Detect(); c.Mechanism != m {
				testkit.Missing(b, fmt.Sprintf("%s does not work here: %s", m, c))
			}
			w := newWorld(b, gate.DefaultAuto())
			defer w.runner.Close()
			// {read, exec}: the sandbox hides the secrets and the sockets,
			// keeps the file system read-only and the network off.
			w.runner.Gate.Auto = func() gate.AutoSet { return gate.AutoOf(gate.Of(gate.Read, gate.Exec)) }
			for _, c := range []struct{ name, script string }{{"1step", path}, {"10steps", ten}} {
				b.Run(c.name, func(b *testing.B) {
					for b.Loop() {
						if r := w.runner.Run(context.Background(), Request{Script: c.script}); r.Ending != Finished || r.Status != 0 {
							b.Fatalf("%s:\n%s", r.Ending, r.Text)
						}
					}
				})
			}
		})
	}
}

// BenchmarkSandboxPlan is the work eukhe does per process before it
// starts one: the places looked up, the mounts planned, and for Landlock
// the rules listed.
func BenchmarkSandboxPlan(b *testing.B) {
	w := newWorld(b, gate.DefaultAuto())
	x, _, ok := w.runner.start(context.Background(), Request{Script: "true"})
	if !ok {
		b.Fatal("no run")
	}
	allowed := gate.Of(gate.Read, gate.Exec)
	b.Run("bubblewrap", func(b *testing.B) {
		for b.Loop() {
			pl, _, _ := x.places("/usr/bin/true", w.root, allowed)
			pl.TempDir = "/tmp/x"
			_ = confine.Plan(allowed, pl).BwrapArgs(w.root)
		}
	})
	b.Run("landlock", func(b *testing.B) {
		for b.Loop() {
			pl, _, _ := x.places("/usr/bin/true", w.root, allowed)
			pl.TempDir, pl.KeepTmp = "/tmp/x", true
			_ = confine.Plan(allowed, pl).Landlock(readDirNoLinks)
		}
	})
}
