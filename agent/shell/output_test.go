package shell

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eukhe/eukhe/gate"
	"pgregory.net/rapid"
)

// The bounded output keeps a prefix and a suffix of what was written, and
// counts every byte it cut (output_bounded).
func TestOutputBounded(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		capacity := rapid.IntRange(1, 64).Draw(rt, "cap")
		o := newOutput(capacity)
		var all []byte
		for _, chunk := range rapid.SliceOf(rapid.SliceOf(rapid.Byte())).Draw(rt, "chunks") {
			o.Write(chunk)
			all = append(all, chunk...)
		}
		s, dropped := o.String(), o.Dropped()
		if len(all) <= capacity {
			if s != string(all) || dropped != 0 {
				rt.Fatalf("within the cap: got %q (%d dropped), wrote %q", s, dropped, all)
			}
			return
		}
		pre, rest, ok := strings.Cut(s, "[… ")
		if !ok {
			rt.Fatalf("no marker in %q", s)
		}
		marker, tail, _ := strings.Cut(rest, " …]\n")
		if want := fmt.Sprintf("%d bytes of output cut here; full_output: true keeps them", dropped); marker != want {
			rt.Fatalf("marker %q, want %q", marker, want)
		}
		if !strings.HasSuffix(string(all), tail) {
			rt.Fatalf("tail %q is not a suffix of %q", tail, all)
		}
		// The marker has a line of its own: a newline may stand between
		// the head and it.
		found := false
		for _, head := range []string{pre, strings.TrimSuffix(pre, "\n")} {
			if strings.HasPrefix(string(all), head) && len(head)+len(tail)+int(dropped) == len(all) &&
				len(head)+len(tail) <= capacity {
				found = true
			}
		}
		if !found {
			rt.Fatalf("head %q, tail %q and %d dropped do not make up %q", pre, tail, dropped, all)
		}
	})
}

// A cut never splits a rune of valid UTF-8.
func TestOutputCutsOnRunes(t *testing.T) {
	o := newOutput(11)
	o.WriteString(strings.Repeat("é", 40))
	if s := o.String(); !utf8.ValidString(s) {
		t.Fatalf("invalid UTF-8: %q", s)
	}
}

// Through the runner: the cap holds, the count is in the text and the
// result, and full_output keeps everything.
func TestRunOutputCap(t *testing.T) {
	unixPrograms(t, "seq")
	w := newWorld(t, gate.DefaultAuto())
	w.runner.Cap = 1000
	r := w.run("seq 1 100000")
	if len(r.Text) > 1200 || r.Dropped == 0 || !strings.Contains(r.Text, fmt.Sprintf("[… %d bytes of output cut here", r.Dropped)) {
		t.Fatalf("%d bytes, %d dropped:\n%s", len(r.Text), r.Dropped, r.Text)
	}
	if !strings.HasPrefix(r.Text, "$ seq 1 100000\n1\n2\n") || !strings.Contains(r.Text, "99999\n100000\n[exit 0]\n[finished") {
		t.Fatalf("head or tail lost:\n%s", r.Text)
	}
	full := w.runner.Run(t.Context(), Request{Script: "seq 1 100000", FullOutput: true})
	if full.Dropped != 0 || !strings.Contains(full.Text, "\n50000\n") {
		t.Fatalf("full output lost bytes: %d dropped", full.Dropped)
	}
	marker := int64(len(fmt.Sprintf("[… %d bytes of output cut here; full_output: true keeps them …]\n", r.Dropped)))
	if d := int64(len(full.Text)) - int64(len(r.Text)) - r.Dropped + marker; d != 0 && d != -1 {
		t.Fatalf("full %d bytes; bounded %d + %d dropped", len(full.Text), len(r.Text), r.Dropped)
	}
}
