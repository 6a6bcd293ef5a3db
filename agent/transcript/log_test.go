package transcript

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestLaw_transcript_keeps_the_last_calls: whatever the calls' sizes and
// the bounds, once written the transcript's log holds exactly the calls
// the bounds keep — the newest, whole, in order — and says the others
// were dropped; compaction never loses a kept call.
func TestLaw_transcript_keeps_the_last_calls(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		dir := filepath.Join(t.TempDir(), "s")
		tr, err := Open(dir, "s", "")
		if err != nil {
			rt.Fatal(err)
		}
		defer tr.Close()
		tr.MaxCalls = rapid.IntRange(1, 8).Draw(rt, "maxCalls")
		tr.MaxBytes = int64(rapid.IntRange(1, 400).Draw(rt, "maxBytes"))
		n := rapid.IntRange(1, 120).Draw(rt, "calls")
		bodies := map[string]string{}
		for i := 0; i < n; i++ {
			id := tr.Begin()
			body := strings.Repeat(fmt.Sprintf("%s line\n", id), rapid.IntRange(0, 6).Draw(rt, "lines"))
			bodies[id] = body
			if err := tr.Keep(CallRow{ID: id, Tool: "bash", Summary: "s"}, body); err != nil {
				rt.Fatal(err)
			}
			if rapid.IntRange(0, 9).Draw(rt, "flush") == 0 {
				tr.Flush()
			}
		}
		tr.Flush()
		l, err := ReadLog(dir)
		if err != nil {
			rt.Fatal(err)
		}
		defer l.Close()
		// The model: walk back from the newest while the bounds hold.
		var want []string
		var bytes int64
		for i := n; i >= 1; i-- {
			id := fmt.Sprintf("c%d", i)
			if len(want)+1 > tr.MaxCalls || bytes+int64(len(bodies[id])) > tr.MaxBytes {
				break
			}
			want = append([]string{id}, want...)
			bytes += int64(len(bodies[id]))
		}
		kept := l.Kept()
		if len(kept) != len(want) {
			rt.Fatalf("kept %d calls, want %v", len(kept), want)
		}
		for i, r := range kept {
			if r.ID != want[i] {
				rt.Fatalf("kept[%d] = %s, want %s", i, r.ID, want[i])
			}
			b, err := l.Body(r.ID)
			if err != nil || string(b) != bodies[r.ID] {
				rt.Fatalf("%s = %q (%v), want %q", r.ID, b, err, bodies[r.ID])
			}
		}
		first, last := l.Span()
		if last != n || (len(want) > 0 && first != n-len(want)+1) || l.Drop != n-len(want) {
			rt.Fatalf("span %d-%d drop %d; %d calls, %d kept", first, last, l.Drop, n, len(want))
		}
	})
}

// A reader finds no row for a call whose record is not whole yet (the
// writer's append is under way), and reads the calls before it.
func TestTranscriptReaderSkipsATornRecord(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	tr, err := Open(dir, "s", "")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.Begin()
	tr.Keep(CallRow{ID: "c1", Tool: "read"}, "one\n")
	tr.Flush()
	whole := appendRecord(nil, CallRow{ID: "c2", Tool: "read"}, "two two two\n")
	for cut := 1; cut < len(whole); cut++ {
		f, err := os.OpenFile(filepath.Join(dir, CallsLog), os.O_WRONLY|os.O_APPEND, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		f.Write(whole[:cut])
		f.Close()
		l, err := ReadLog(dir)
		if err != nil {
			t.Fatal(err)
		}
		if len(l.Rows) != 1 || l.Rows[0].ID != "c1" {
			t.Fatalf("cut at %d: rows %v", cut, l.Rows)
		}
		l.Close()
		os.Truncate(filepath.Join(dir, CallsLog), st.Size())
	}
}

// A reader that opened the log before a compaction reads it whole. Where
// the system renames over an open file (Unix; Windows' POSIX rename) the
// compaction lands while the reader reads; elsewhere (Wine 8, older
// Windows) it lands at the first write after the reader closed.
func TestTranscriptReaderOutlivesCompaction(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	tr, err := Open(dir, "s", "")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.MaxCalls = 2
	for i := 0; i < 3; i++ {
		tr.Keep(CallRow{ID: tr.Begin(), Tool: "bash"}, "x\n")
	}
	tr.Flush()
	l, err := ReadLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2000; i++ {
		tr.Keep(CallRow{ID: tr.Begin(), Tool: "bash"}, "y\n")
	}
	tr.Flush()
	if b, err := l.Body("c3"); err != nil || string(b) != "x\n" {
		t.Fatalf("c3 through the old file: %q %v", b, err)
	}
	rows := func() int {
		now, err := ReadLog(dir)
		if err != nil {
			t.Fatal(err)
		}
		defer now.Close()
		return len(now.Rows)
	}
	renames, why := renamesOverOpen(t)
	if n := rows(); renames && n > 8*2+1024 {
		t.Fatalf("not compacted while a reader held the old file: %d rows", n)
	} else if !renames {
		t.Logf("the compaction waits for the reader here: %s", why)
	}
	l.Close()
	tr.Keep(CallRow{ID: tr.Begin(), Tool: "bash"}, "z\n")
	tr.Flush()
	if n := rows(); n > 8*2+1024 {
		t.Fatalf("not compacted once no reader held the file: %d rows", n)
	}
}

// Calls that finish out of order (each pair kept newest first), many more
// than the bounds: the log holds the kept calls whole, and stays bounded
// (a compaction copies the file's tail by its index, carrying a late
// record of a dropped call at most until the next one).
func TestTranscriptCompactionKeepsLateCallsAndStaysBounded(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "s")
	tr, err := Open(dir, "s", "")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	tr.MaxCalls = 5
	body := func(id string) string { return strings.Repeat(id+" line\n", 3) }
	const n = 2000
	for i := 0; i < n; i += 2 {
		a, b := tr.Begin(), tr.Begin()
		for _, id := range []string{b, a} {
			if err := tr.Keep(CallRow{ID: id, Tool: "read", Summary: "s"}, body(id)); err != nil {
				t.Fatal(err)
			}
		}
	}
	tr.Flush()
	l, err := ReadLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	kept := l.Kept()
	if len(kept) != 5 || kept[0].ID != fmt.Sprintf("c%d", n-4) || kept[4].ID != fmt.Sprintf("c%d", n) {
		t.Fatalf("kept %v", kept)
	}
	for _, r := range kept {
		if b, err := l.Body(r.ID); err != nil || string(b) != body(r.ID) {
			t.Fatalf("%s = %q (%v)", r.ID, b, err)
		}
	}
	if fi, err := os.Stat(filepath.Join(dir, CallsLog)); err != nil || fi.Size() > (8*5+1024+2)*int64(len(body("c2000"))+120) {
		t.Fatalf("calls.log is %d bytes for 5 kept calls (%v)", fi.Size(), err)
	}
}
