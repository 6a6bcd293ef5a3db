package transcript

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	fastjson "github.com/segmentio/encoding/json"
)

// calls.log, the transcript's one file of calls. Each kept call is a
// header line — its CallRow as JSON — then exactly Size bytes of its whole
// result and a newline; a line {"drop":N} says that every call up to cN
// is dropped (the bounds). Records are only appended, each batch in one
// write, by the transcript's one writer, after the calls' replies went
// out; a reader ignores a last record that is not whole yet. When the file
// holds much more than the kept calls, the writer copies the kept calls
// to a new file and renames it over the old: a reader that opened the old
// file still reads it whole.

// CallsLog is the name of the transcript's file of calls in its
// directory.
const CallsLog = "calls.log"

// maxPending is how many bytes of results may wait for the writer before
// Keep waits for it: the transcript never holds more than this in memory.
const maxPending = 64 << 20

// logHeader is a header line: a call's row, or a drop mark.
type logHeader struct {
	CallRow
	Drop int `json:"drop,omitempty"`
}

// logRecord is one call handed to the writer, with the transcript's
// bounds as they were after it.
type logRecord struct {
	row       CallRow
	whole     string
	drop      int
	keep      int
	keptBytes int64
}

// logWriter appends a transcript's calls to calls.log in the background.
type logWriter struct {
	path   string
	report func(error)

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []logRecord
	pending int64 // bytes in queue
	queued  int
	written int
	closed  bool
	armed   bool // a kick is on its way (writeDelay)
	done    chan struct{}

	// The writer goroutine's own state.
	f        *os.File
	rows     int   // header lines in the file
	size     int64 // the file's size
	fileDrop int   // the last drop mark in the file
	// index is where each call record this writer wrote lies in the
	// file, in file order; indexed is false while the file holds
	// records it did not write (it was there when the writer opened it).
	index   []recordAt
	indexed bool
}

// recordAt is where one header line starts in calls.log: a call's record
// (n its number) or a drop mark.
type recordAt struct {
	n    int
	off  int64
	drop bool
}

func newLogWriter(path string, report func(error)) *logWriter {
	w := &logWriter{path: path, report: report, done: make(chan struct{})}
	w.cond = sync.NewCond(&w.mu)
	go w.loop()
	return w
}

// add queues a record; it waits while too many bytes are pending.
func (w *logWriter) add(r logRecord) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.pending > maxPending && !w.closed {
		w.cond.Wait()
	}
	w.queue = append(w.queue, r)
	w.pending += int64(len(r.whole))
	w.queued++
	switch {
	case len(w.queue) >= writeBatch || w.pending >= writeBatchBytes:
		w.cond.Broadcast()
	case !w.armed:
		// written after the reply: the call's reply goes out first, and
		// the writer wakes writeDelay later for every call kept meanwhile
		// (woken at once, it took a core from the reply)
		w.armed = true
		time.AfterFunc(writeDelay, w.kick)
	}
}

// writeDelay is how long a kept call waits for the writer, unless
// writeBatch calls or writeBatchBytes are waiting.
const (
	writeDelay      = 10 * time.Millisecond
	writeBatch      = 64
	writeBatchBytes = 1 << 20
)

// kick wakes the writer for what waits.
func (w *logWriter) kick() {
	w.mu.Lock()
	w.armed = false
	w.cond.Broadcast()
	w.mu.Unlock()
}

// flush waits until every record queued so far is written.
func (w *logWriter) flush() {
	w.mu.Lock()
	defer w.mu.Unlock()
	target := w.queued
	w.cond.Broadcast() // the writer, now: not after writeDelay
	for w.written < target {
		w.cond.Wait()
	}
}

// close writes what is queued, closes the file and ends the writer.
func (w *logWriter) close() {
	w.mu.Lock()
	w.closed = true
	w.cond.Broadcast()
	w.mu.Unlock()
	<-w.done
}

func (w *logWriter) loop() {
	defer close(w.done)
	w.mu.Lock()
	for {
		for len(w.queue) == 0 && !w.closed {
			w.cond.Wait()
		}
		if len(w.queue) == 0 {
			break
		}
		batch := w.queue
		w.queue = nil
		w.mu.Unlock()
		if err := w.write(batch); err != nil && w.report != nil {
			w.report(err)
		}
		w.mu.Lock()
		for _, r := range batch {
			w.pending -= int64(len(r.whole))
		}
		w.written += len(batch)
		w.cond.Broadcast()
	}
	w.mu.Unlock()
	if w.f != nil {
		w.f.Close()
	}
}

// write appends a batch in one write, then compacts the file when it
// holds much more than the kept calls.
func (w *logWriter) write(batch []logRecord) error {
	if w.f == nil {
		f, err := openShared(w.path, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
		if err != nil {
			return err
		}
		w.f = f
		if fi, err := f.Stat(); err == nil && fi.Size() == 0 {
			w.indexed = true
		}
	}
	var b []byte
	var at []recordAt // where this batch's records will lie
	rows := 0
	for _, r := range batch {
		n, _ := CallNumber(r.row.ID)
		at = append(at, recordAt{n: n, off: w.size + int64(len(b))})
		b = appendRecord(b, r.row, r.whole)
		rows++
	}
	last := batch[len(batch)-1]
	drop := w.fileDrop
	if last.drop > w.fileDrop {
		at = append(at, recordAt{off: w.size + int64(len(b)), drop: true})
		line, _ := json.Marshal(logHeader{Drop: last.drop})
		b = append(append(b, line...), '\n')
		drop = last.drop
		rows++
	}
	n, err := w.f.Write(b)
	if err != nil || n != len(b) {
		// nothing of the batch counts: the file is cut back to where it
		// was (a torn record would stop every reader there), and no
		// index entry points at bytes that are not its record's (the
		// twenty-first red team's: after a full disk, a compaction
		// copied from inside another call's result, or past the end)
		if terr := w.f.Truncate(w.size); terr != nil {
			w.indexed = false // not known what the file holds: read it to compact
			w.size += int64(n)
		}
		if err == nil {
			err = io.ErrShortWrite
		}
		return err
	}
	w.size += int64(n)
	w.index = append(w.index, at...)
	w.rows += rows
	w.fileDrop = drop
	if w.rows > 8*last.keep+1024 || w.size > 2*last.keptBytes+(1<<20) {
		// the file past twice the kept bytes and a MiB (a reader's and
		// the disk's bound), or with many more rows than kept (a
		// reader parses every header): each compaction renames a new
		// file over the old, a flush of its data on most filesystems,
		// so small calls are not compacted every few hundred
		return w.compact(last.drop)
	}
	return nil
}

// appendRecord appends one call's header line and result.
func appendRecord(b []byte, row CallRow, whole string) []byte {
	row.Size = len(whole)
	line, _ := json.Marshal(logHeader{CallRow: row})
	b = append(append(b, line...), '\n')
	return append(append(b, whole...), '\n')
}

// compact copies the kept calls (those after drop) to a new file and
// renames it over calls.log. With the file's index (every record in it
// this writer's) it copies the file's tail from the first record past
// drop, bytes as they are: no header is read again, where the whole log
// was parsed and rebuilt at every compaction (most of a small read's
// transcript cost). A record of a dropped call that finished late (after
// a kept one) may ride along in the tail: every reader takes the drop
// mark over it, and the next compaction leaves it.
func (w *logWriter) compact(drop int) error {
	if !w.indexed {
		return w.compactByReading(drop)
	}
	cut := len(w.index)
	for i, r := range w.index {
		if !r.drop && r.n > drop {
			cut = i
			break
		}
	}
	from := w.size
	if cut < len(w.index) {
		from = w.index[cut].off
	}
	b, err := readTail(w.path, from, w.size)
	if err != nil {
		w.indexed = false // the next compaction reads the file
		return err
	}
	kept := slices.Clone(w.index[cut:])
	for i := range kept {
		kept[i].off -= from
	}
	kept = append(kept, recordAt{off: int64(len(b)), drop: true})
	line, _ := json.Marshal(logHeader{Drop: drop})
	b = append(append(b, line...), '\n')
	if err := w.replace(b, len(kept)); err != nil {
		return err
	}
	w.index = kept
	return nil
}

// readTail reads bytes [from, to) of the file at path.
func readTail(path string, from, to int64) ([]byte, error) {
	if from < 0 || from > to {
		return nil, fmt.Errorf("calls.log: no record at %d of %d bytes", from, to)
	}
	f, err := openShared(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b := make([]byte, to-from, to-from+64)
	if _, err := f.ReadAt(b, from); err != nil {
		return nil, err
	}
	return b, nil
}

// replace writes b as the whole of calls.log (renamed over it), holding
// rows header lines, and opens it again to append. The writer's own
// handle is closed before the rename: Windows renames over no file this
// process holds open without sharing its deletion (and so, before, no
// compaction there ever landed: calls.log grew without bound). When the
// rename fails the old file is opened again and stays as it was.
func (w *logWriter) replace(b []byte, rows int) error {
	w.f.Close()
	w.f = nil
	werr := writeWhole(w.path, b)
	f, err := openShared(w.path, os.O_WRONLY|os.O_APPEND)
	if err != nil {
		return errors.Join(werr, err) // the next write opens it again
	}
	w.f = f
	if werr != nil {
		return werr
	}
	w.rows, w.size = rows, int64(len(b))
	return nil
}

// compactByReading is compact of a file the writer did not write all of:
// it reads every record (ReadLog) and writes the kept ones anew, and
// from then on the file is indexed.
func (w *logWriter) compactByReading(drop int) error {
	l, err := ReadLog(filepath.Dir(w.path))
	if err != nil {
		return err
	}
	defer l.Close()
	var b []byte
	var index []recordAt
	rows := 0
	for _, r := range l.Rows {
		n, _ := CallNumber(r.ID)
		if n <= drop {
			continue
		}
		data, err := l.Body(r.ID)
		if err != nil {
			return err
		}
		index = append(index, recordAt{n: n, off: int64(len(b))})
		b = appendRecord(b, r, string(data))
		rows++
	}
	if drop > 0 {
		index = append(index, recordAt{off: int64(len(b)), drop: true})
		line, _ := json.Marshal(logHeader{Drop: drop})
		b = append(append(b, line...), '\n')
		rows++
	}
	if err := w.replace(b, rows); err != nil {
		return err
	}
	w.index, w.indexed = index, true
	return nil
}

// Log is a transcript's calls.log as a reader finds it: the rows in id
// order (the last row of an id wins), where each result lies, and the
// drop mark. A reader that opened it before a compaction reads it whole.
type Log struct {
	// Rows are the calls the file holds whole, in id order; those up to
	// cDrop are dropped (Kept leaves them out).
	Rows []CallRow
	// Drop is the last drop mark: every call up to cDrop is dropped.
	Drop int

	f     *os.File
	at    map[string]result // where a row's result lies
	empty bool
}

// result is where a call's result lies in the file: its offset and size
// (the last row of its id's). A compaction reads each kept one by it.
type result struct {
	off  int64
	size int
}

// ReadLog reads dir's calls.log; no file is an empty transcript. A last
// record not whole yet (the writer's append under way) is not read, nor
// anything past a line that is not a header. Close releases the file.
func ReadLog(dir string) (*Log, error) {
	l := &Log{at: map[string]result{}}
	f, err := openShared(filepath.Join(dir, CallsLog), os.O_RDONLY)
	if errors.Is(err, os.ErrNotExist) {
		l.empty = true
		return l, nil
	}
	if err != nil {
		return nil, err
	}
	l.f = f
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	size := fi.Size()
	br := bufio.NewReaderSize(f, 64<<10)
	byN := map[int]CallRow{}
	var off int64
	for {
		line, err := br.ReadSlice('\n')
		if err != nil {
			break // the end, or a header not whole yet
		}
		off += int64(len(line))
		var h logHeader
		if fastjson.Unmarshal(line, &h) != nil { // segmentio's: a compaction reads every header
			break // not a header: the file is damaged from here
		}
		if h.Drop > 0 {
			l.Drop = max(l.Drop, h.Drop)
			continue
		}
		if off+int64(h.Size)+1 > size {
			break // a result not whole yet
		}
		if n, ok := CallNumber(h.ID); ok {
			byN[n] = h.CallRow
			l.at[h.ID] = result{off, h.Size}
		}
		if _, err := br.Discard(h.Size + 1); err != nil {
			break
		}
		off += int64(h.Size) + 1
	}
	ns := make([]int, 0, len(byN))
	for n := range byN {
		ns = append(ns, n)
	}
	sort.Ints(ns)
	for _, n := range ns {
		l.Rows = append(l.Rows, byN[n])
	}
	return l, nil
}

// Body is call id's whole result.
func (l *Log) Body(id string) ([]byte, error) {
	at, ok := l.at[id]
	if !ok || l.f == nil {
		return nil, fmt.Errorf("call %s is not in the transcript", id)
	}
	b := make([]byte, at.size)
	if _, err := l.f.ReadAt(b, at.off); err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	return b, nil
}

// Close releases the file.
func (l *Log) Close() {
	if l.f != nil {
		l.f.Close()
	}
}

// Kept are the rows of the calls not dropped.
func (l *Log) Kept() []CallRow {
	var out []CallRow
	for _, r := range l.Rows {
		if n, _ := CallNumber(r.ID); n > l.Drop {
			out = append(out, r)
		}
	}
	return out
}

// Span is the first call still kept and the last call known (kept or
// dropped); 0, 0 for none.
func (l *Log) Span() (first, last int) {
	last = l.Drop
	for _, r := range l.Rows {
		n, _ := CallNumber(r.ID)
		if n > l.Drop && first == 0 {
			first = n
		}
		last = max(last, n)
	}
	return first, last
}
