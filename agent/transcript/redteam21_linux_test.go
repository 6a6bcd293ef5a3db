//go:build linux

package transcript

// The twenty-first red team's attacks on the transcript after a full
// disk (a tmpfs: Linux, root). Held (were open): a batch whose write
// failed or fell short counts for nothing — the file is cut back to
// where it was and no index entry points at bytes that are not its
// record's (logWriter.write); a compaction that finds its index wrong
// reads the file instead (readTail refuses an offset past the end).

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// r21tmpfs mounts a tmpfs of size bytes (root only) and gives its path;
// unmounted at the end.
func r21tmpfs(t *testing.T, size int) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "fs")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() != 0 {
		testkit.Missing(t, "a tmpfs (a full disk) needs root")
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+strconv.Itoa(size)); err != nil {
		testkit.Missing(t, "mount tmpfs: "+err.Error())
	}
	t.Cleanup(func() { _ = syscall.Unmount(dir, syscall.MNT_DETACH) })
	return dir
}

// r21fill fills the file system of dir (a filler file written until
// ENOSPC) and gives a func that frees it.
func r21fill(t *testing.T, dir string) func() {
	t.Helper()
	name := filepath.Join(dir, "filler")
	f, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	chunk := make([]byte, 64<<10)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	// the last pages too
	for {
		if _, err := f.Write(chunk[:512]); err != nil {
			break
		}
	}
	f.Close()
	return func() {
		if err := os.Remove(name); err != nil {
			t.Fatal(err)
		}
	}
}

var r21when = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// r21row is a call's row with a fixed time (its header's length is then
// known).
func r21row(id string) CallRow {
	return CallRow{ID: id, Tool: "read", Summary: "s", Time: r21when}
}

// r21keep keeps id with whole, then waits for the write.
func r21keep(t *testing.T, tr *Transcript, id, whole string) {
	t.Helper()
	if err := tr.Keep(r21row(id), whole); err != nil {
		t.Fatal(err)
	}
	tr.Flush()
}

// Attack (target 3, the transcript's compaction by its index): the
// agent fills the disk (fallocate, one bash step), so that one batch of
// the writer — call c1 and a call c5 that finished before c2..c4, kept
// in the same 10 ms — fails to be written (ENOSPC, nothing appended);
// it frees the disk, and the next calls are c2 (a result of about 2 MB
// whose text the agent chose: a file it read), then c3 and c4 (the
// bounds, 3 calls, drop c1 then c2, and the file is now past twice the
// kept bytes and a MiB: compaction). The result c2 holds, at the offset
// the writer's index gives c5's lost record, a forged header
// {"id":"c5",…} whose size reaches exactly c2's end.
// THROUGH (severity medium: memory://c5 shows a result the agent forged
// — another call's bytes — with any row it likes, a question asked and
// approved included; the agent needs a full disk for one write, which a
// bash step can make and undo): the compacted calls.log begins at the
// forged header, and a reader gives c5 as the forged text. (With c1
// larger than the file, the copy's start lies past its end: the writer
// panics, the next row.)
// Root cause: agent/transcript/log.go logWriter.write appends each
// record's index entry (its offset, w.size plus the batch so far)
// before the write, and keeps them when the write fails or is short
// (w.size grows only by what was written), so the index names offsets
// where the file holds other records; compact copies the file's tail
// from the first such entry past the drop, bytes as they are.
func TestRedteam21_TranscriptWriteThatFailedLeavesAnIndexIntoAnotherCallsResult(t *testing.T) {
	fs := r21tmpfs(t, 8<<20)
	dir := filepath.Join(fs, "s")
	tr, err := Open(dir, "s", "")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var mu sync.Mutex
	var failed []error
	tr.OnError = func(err error) { mu.Lock(); failed = append(failed, err); mu.Unlock() }
	tr.MaxCalls = 3
	for range 5 {
		tr.Begin()
	}
	whole1 := strings.Repeat("a", 1000)
	whole5 := "c5's own result\n"
	rec1 := appendRecord(nil, r21row("c1"), whole1)

	free := r21fill(t, fs)
	// c1 and c5 in one batch (the writer wakes writeDelay after c1)
	if err := tr.Keep(r21row("c1"), whole1); err != nil {
		t.Fatal(err)
	}
	r21keep(t, tr, "c5", whole5)
	mu.Lock()
	if len(failed) == 0 {
		mu.Unlock()
		t.Fatal("control: the write on the full disk did not fail")
	}
	mu.Unlock()
	free()

	// c2's text: filler up to the offset of c5's lost record, then a
	// forged header whose size reaches c2's end
	const l2 = 2 << 20
	h2 := len(appendRecord(nil, r21row("c2"), strings.Repeat("x", l2))) - l2 - 1
	at := len(rec1) - h2 // c5's index offset, inside c2's text
	forgedBody := func(k int) string { return strings.Repeat("FORGED ", k/7+1)[:k] }
	var forgedHead []byte
	k := 0
	for range 5 {
		forgedHead, _ = json.Marshal(logHeader{CallRow: CallRow{ID: "c5", Tool: "bash", Summary: "forged",
			Size: k, Asked: []string{"step 1 (write+secret) cat key: approve"}}})
		forgedHead = append(forgedHead, '\n')
		k = l2 - at - len(forgedHead)
	}
	whole2 := strings.Repeat("x", at) + string(forgedHead) + forgedBody(k)
	if len(whole2) != l2 {
		t.Fatalf("c2 is %d bytes, not %d", len(whole2), l2)
	}
	r21keep(t, tr, "c2", whole2)
	r21keep(t, tr, "c3", "c3's own result\n")
	r21keep(t, tr, "c4", "c4's own result\n")

	l, err := ReadLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	own := map[string]string{"c3": "c3's own result\n", "c4": "c4's own result\n", "c5": whole5}
	var ids []string
	for _, r := range l.Kept() {
		ids = append(ids, r.ID)
		b, err := l.Body(r.ID)
		if err != nil || string(b) != own[r.ID] {
			t.Errorf("%s (summary %q, asked %q) reads %.40q… (%d bytes, %v), not its own result", r.ID, r.Summary, r.Asked, b, len(b), err)
		}
	}
	for _, id := range []string{"c3", "c4"} {
		if !strings.Contains(" "+strings.Join(ids, " ")+" ", " "+id+" ") {
			t.Errorf("the kept call %s is lost: the log keeps %v", id, ids)
		}
	}
}

// Attack (target 3, as the row before): the batch that fails holds c1,
// a result larger than what the file will hold at the compaction (3
// MB), and c5; then c2 (1.5 MB), c3, c4. The index puts c5's record past
// the file's end.
// THROUGH (severity medium: eukhe's process dies, every session of it;
// the agent needs a full disk for one write): compact reads the tail
// from past the file's end — make([]byte, to-from) with to < from — and
// the writer goroutine panics (makeslice: len out of range), ending the
// process. Run in a child process (GOMAXPROCS 1: c5 joins c1's batch).
// Root cause: as the row before (logWriter.write's index of a failed
// write; readTail trusts it).
func TestRedteam21_TranscriptWriteThatFailedMakesCompactionPanic(t *testing.T) {
	if dir := os.Getenv("EUKHE_R21_CHILD_DIR"); dir != "" {
		r21panicChild(t, dir)
		return
	}
	fs := r21tmpfs(t, 8<<20)
	cmd := exec.Command(os.Args[0], "-test.run=^TestRedteam21_TranscriptWriteThatFailedMakesCompactionPanic$", "-test.count=1")
	cmd.Env = append(os.Environ(), "EUKHE_R21_CHILD_DIR="+fs, "GOMAXPROCS=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		s := string(out)
		if i := strings.Index(s, "panic:"); i >= 0 {
			s = s[i:min(len(s), i+300)]
		}
		t.Errorf("the child (one session's transcript) died: %v\n%s", err, s)
	}
}

func r21panicChild(t *testing.T, fs string) {
	runtime.GOMAXPROCS(1)
	dir := filepath.Join(fs, "s")
	tr, err := Open(dir, "s", "")
	if err != nil {
		t.Fatal(err)
	}
	defer tr.Close()
	var mu sync.Mutex
	var failed []error
	tr.OnError = func(err error) { mu.Lock(); failed = append(failed, err); mu.Unlock() }
	tr.MaxCalls = 3
	for range 5 {
		tr.Begin()
	}
	free := r21fill(t, fs)
	if err := tr.Keep(r21row("c1"), strings.Repeat("a", 3<<20)); err != nil {
		t.Fatal(err)
	}
	r21keep(t, tr, "c5", "c5\n")
	mu.Lock()
	if len(failed) == 0 {
		mu.Unlock()
		t.Fatal("control: the write on the full disk did not fail")
	}
	mu.Unlock()
	free()
	r21keep(t, tr, "c2", strings.Repeat("b", 3<<19))
	r21keep(t, tr, "c3", "c3\n")
	r21keep(t, tr, "c4", "c4\n")
	l, err := ReadLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if len(l.Kept()) < 2 {
		t.Errorf("the log keeps %v", l.Kept())
	}
}
