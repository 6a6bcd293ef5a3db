package shell

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"
)

// DefaultCap is the output a result keeps when the runner sets no Cap:
// about 30 KB, half from the start of the script's output and half from
// its end.
const DefaultCap = 30 * 1024

// output is a script's output as the model gets it (S7.7, output_bounded):
// the first half of the cap and the last half, the middle cut with a
// marker that counts every dropped byte. A cap of 0 or less keeps all.
type output struct {
	mu    sync.Mutex
	cap   int
	head  []byte
	tail  []byte // a ring once full: the oldest byte is at start
	start int
	total int64
	// whole is every byte, kept while keepWhole and within MaxWhole, for
	// Result.Whole (the session's transcript); over is set past MaxWhole.
	keepWhole bool
	whole     []byte
	over      bool
	// recall, when set, is the token the marker names where the whole
	// output can be read (Runner.RecallToken).
	recall string
}

// MaxWhole bounds the whole output a result keeps beside its cut text.
const MaxWhole = 64 << 20

func newOutput(capacity int) *output { return &output{cap: capacity} }

// Write keeps p within the cap; it never fails.
func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	n := len(p)
	o.total += int64(n)
	if o.keepWhole && !o.over && o.cap > 0 {
		if len(o.whole)+n > MaxWhole {
			o.over, o.whole = true, nil
		} else {
			o.whole = append(o.whole, p...)
		}
	}
	if o.cap <= 0 {
		o.head = append(o.head, p...)
		return n, nil
	}
	headCap := o.cap / 2
	tailCap := o.cap - headCap
	if room := headCap - len(o.head); room > 0 {
		k := min(room, len(p))
		o.head = append(o.head, p[:k]...)
		p = p[k:]
	}
	if len(p) >= tailCap {
		o.tail = append(o.tail[:0], p[len(p)-tailCap:]...)
		o.start = 0
		return n, nil
	}
	for len(p) > 0 {
		if len(o.tail) < tailCap {
			k := min(tailCap-len(o.tail), len(p))
			o.tail = append(o.tail, p[:k]...)
			p = p[k:]
			continue
		}
		k := copy(o.tail[o.start:], p)
		p = p[k:]
		o.start = (o.start + k) % tailCap
	}
	return n, nil
}

// WriteString is Write for a string.
func (o *output) WriteString(s string) { _, _ = o.Write([]byte(s)) }

// Dropped is how many bytes the cap has cut so far (output_bounded).
func (o *output) Dropped() int64 {
	o.mu.Lock()
	defer o.mu.Unlock()
	_, d := o.render()
	return d
}

// String is the kept output: all of it, or its head, a marker that counts
// the cut bytes, and its tail. The cut falls on rune boundaries, so the
// kept text stays valid UTF-8 where the output was.
func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	s, _ := o.render()
	return s
}

// EndsInNewline reports whether the output so far is empty or ends a line.
func (o *output) EndsInNewline() bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	last := byte('\n')
	switch {
	case len(o.tail) > 0:
		last = o.tail[(o.start+len(o.tail)-1)%len(o.tail)]
	case len(o.head) > 0:
		last = o.head[len(o.head)-1]
	}
	return last == '\n'
}

func (o *output) render() (string, int64) {
	kept := int64(len(o.head) + len(o.tail))
	if kept == o.total {
		var b strings.Builder
		b.Grow(int(kept))
		b.Write(o.head)
		b.Write(o.tail[o.start:])
		b.Write(o.tail[:o.start])
		return b.String(), 0
	}
	head := o.head
	// Cut a rune split by the head's end.
	if i := lastRuneStart(head); i >= 0 && !utf8.FullRune(head[i:]) {
		head = head[:i]
	}
	tail := append(append([]byte(nil), o.tail[o.start:]...), o.tail[:o.start]...)
	// Cut continuation bytes left at the tail's start.
	j := 0
	for j < len(tail) && j < utf8.UTFMax && !utf8.RuneStart(tail[j]) {
		j++
	}
	tail = tail[j:]
	dropped := o.total - int64(len(head)+len(tail))
	var b strings.Builder
	b.Write(head)
	if len(head) > 0 && head[len(head)-1] != '\n' {
		b.WriteByte('\n')
	}
	if o.recall != "" && !o.over {
		fmt.Fprintf(&b, "[… %s bytes not shown; read memory://%s for the whole output]\n", Thousands(dropped), o.recall)
	} else {
		b.WriteString(CutMarker(dropped))
	}
	b.Write(tail)
	return b.String(), dropped
}

// CutMarker is the line that stands for the cut middle of an output.
func CutMarker(dropped int64) string {
	return fmt.Sprintf("[… %d bytes of output cut here; full_output: true keeps them …]\n", dropped)
}

// Thousands is n with a comma every three digits: 48,213.
func Thousands(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + Thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Whole is all the output when the cap cut some and every byte was kept;
// ok is false otherwise.
func (o *output) Whole() (string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.keepWhole || o.over || int64(len(o.head)+len(o.tail)) == o.total {
		return "", false
	}
	return string(o.whole), true
}

// lastRuneStart is the index of the last byte of b that starts a rune,
// looking back at most utf8.UTFMax bytes; -1 when there is none.
func lastRuneStart(b []byte) int {
	for i := len(b) - 1; i >= 0 && i >= len(b)-utf8.UTFMax; i-- {
		if utf8.RuneStart(b[i]) {
			return i
		}
	}
	return -1
}
