package transcript

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/eukhe/eukhe/gate"
)

// The session's transcript (DESIGN §11): every tool call it served, with
// its whole result, in the session's state directory, so that memory://
// (and agent:// from a parent) can give back what a reply cut. Bounded:
// the last MaxCalls calls or MaxBytes bytes, the oldest dropped. Never a
// secret: a call in which the user allowed a secret step or access is
// kept as a note instead of its result (the session decides: package
// agent's endCall).

// The transcript's bounds when a Transcript sets none.
const (
	DefaultMaxCalls = 200
	DefaultMaxBytes = 64 << 20
)

// Transcript is one session's kept calls: Dir/meta.json names the session
// and its parent; Dir/calls.log holds each kept call as a header line (its
// CallRow) and its whole result (log.go). A call's result is
// written after its reply, by the transcript's one writer: a call costs
// its reply no file operation. A reader in this process waits for the
// calls already replied to (Flush).
type Transcript struct {
	Dir      string
	Session  string
	MaxCalls int
	MaxBytes int64
	// OnError is told of a write that failed (the reply went out already).
	OnError func(error)

	mu    sync.Mutex
	meta  meta
	next  int
	kept  []keptCall // in order
	bytes int64
	drop  int      // calls up to cN with N <= drop are dropped
	lock  *os.File // the directory's lock, held while the session is open (lock_*.go); nil when not

	w *logWriter // calls.log's writer, started on the first Keep
}

type keptCall struct {
	n    int
	size int64
	row  CallRow
}

// CallRow is one call in the transcript.
type CallRow struct {
	ID       string    `json:"id"`
	Tool     string    `json:"tool"`
	Summary  string    `json:"summary"`
	Size     int       `json:"size"`
	Failed   bool      `json:"failed,omitempty"`
	Withheld bool      `json:"withheld,omitempty"`
	Time     time.Time `json:"time,omitzero"` // when the call ended
	// Asked are the questions the call asked the user, each with its
	// answer: "step 2 (write+outside) rm -rf build: approve".
	Asked []string `json:"asked,omitempty"`
}

// meta is Dir/meta.json.
type meta struct {
	Session string    `json:"session"`
	Parent  string    `json:"parent,omitempty"`
	Root    string    `json:"root,omitempty"`
	Client  string    `json:"client,omitempty"` // the MCP client's name and version
	Start   time.Time `json:"start,omitzero"`
}

// Dir is where session id's transcript lives beside its log (package
// agent's SessionLogPath): <state>/eukhe/sessions/<id>/.
func Dir(logPath, id string) string {
	return filepath.Join(filepath.Dir(logPath), id)
}

// Open makes the directory of a new transcript (0700) and its meta.json,
// and takes the directory's lock until Close. A directory left by an
// earlier session of the same id is emptied first: a transcript is never
// shared.
func Open(dir, session, parent string) (*Transcript, error) {
	if !ValidSessionID(session) {
		return nil, fmt.Errorf("session id %q cannot name a transcript directory", session)
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, fmt.Errorf("the transcript directory %s: %v", dir, err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("the transcript directory %s: %v", dir, err)
	}
	lock, err := lockDir(dir)
	if err != nil {
		return nil, fmt.Errorf("the transcript directory %s: %v", dir, err)
	}
	t := &Transcript{Dir: dir, Session: session, lock: lock, meta: meta{Session: session, Start: time.Now().UTC()}}
	if err := t.SetParent(parent); err != nil {
		t.Close()
		return nil, err
	}
	openTranscripts.Store(filepath.Clean(dir), t)
	return t, nil
}

// SetParent records the session's parent, for agent:// (only the parent
// chain may read a subagent's transcript).
func (t *Transcript) SetParent(parent string) error {
	return t.setMeta(func(m *meta) { m.Parent = parent })
}

// SetRoot records the workspace the session serves, for eukhe sessions.
func (t *Transcript) SetRoot(root string) error {
	return t.setMeta(func(m *meta) { m.Root = root })
}

// SetClient records the MCP client's name and version, for eukhe
// sessions.
func (t *Transcript) SetClient(client string) error {
	return t.setMeta(func(m *meta) { m.Client = client })
}

// setMeta changes meta.json, written whole.
func (t *Transcript) setMeta(change func(*meta)) error {
	t.mu.Lock()
	change(&t.meta)
	b, _ := json.Marshal(t.meta)
	t.mu.Unlock()
	return writeWhole(filepath.Join(t.Dir, "meta.json"), b)
}

// writeWhole writes a file whole: a temp file, then a rename.
func writeWhole(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return fmt.Errorf("%s: %v", name, err)
	}
	if err := renameOver(tmp, name); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %v", name, err)
	}
	return nil
}

// Begin gives the next call its id: c1, c2, …
func (t *Transcript) Begin() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.next++
	return "c" + strconv.Itoa(t.next)
}

// Keep hands a call's whole result to the transcript's writer and drops
// the oldest calls past the bounds; it does not wait for the write (Flush
// does). Its error is only for a row that cannot be kept at all.
func (t *Transcript) Keep(row CallRow, whole string) error {
	n, ok := CallNumber(row.ID)
	if !ok {
		return fmt.Errorf("call id %q", row.ID)
	}
	row.Size = len(whole)
	if row.Time.IsZero() {
		row.Time = time.Now().UTC()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	i := len(t.kept)
	for i > 0 && t.kept[i-1].n > n {
		i--
	}
	t.kept = slices.Insert(t.kept, i, keptCall{n, int64(len(whole)), row}) // at the end, mostly: no copy
	t.bytes += int64(len(whole))
	maxCalls, maxBytes := t.MaxCalls, t.MaxBytes
	if maxCalls <= 0 {
		maxCalls = DefaultMaxCalls
	}
	if maxBytes <= 0 {
		maxBytes = DefaultMaxBytes
	}
	for len(t.kept) > 0 && (len(t.kept) > maxCalls || t.bytes > maxBytes) {
		old := t.kept[0]
		t.kept = t.kept[1:]
		t.bytes -= old.size
		t.drop = max(t.drop, old.n)
	}
	if t.w == nil {
		t.w = newLogWriter(filepath.Join(t.Dir, CallsLog), t.report)
	}
	t.w.add(logRecord{row: row, whole: whole, drop: t.drop, keep: len(t.kept), keptBytes: t.bytes})
	return nil
}

// report hands a write's failure to OnError.
func (t *Transcript) report(err error) {
	if t.OnError != nil {
		t.OnError(fmt.Errorf("the transcript of session %s: %v", t.Session, err))
	}
}

// Flush waits until every call kept so far is written.
func (t *Transcript) Flush() {
	t.mu.Lock()
	w := t.w
	t.mu.Unlock()
	if w != nil {
		w.flush()
	}
}

// Close writes what is pending and closes the log; it removes nothing: a
// parent may still read a subagent's transcript after it ended.
func (t *Transcript) Close() {
	t.mu.Lock()
	w := t.w
	t.w = nil
	t.mu.Unlock()
	if w != nil {
		w.close()
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.lock != nil {
		t.lock.Close()
		t.lock = nil
	}
	openTranscripts.CompareAndDelete(filepath.Clean(t.Dir), t)
}

// openTranscripts are the transcripts open in this process, by directory:
// a reader flushes one before reading it (Flush).
var openTranscripts sync.Map

// Flush waits for the pending writes of the transcript in dir when this
// process holds it open: what a reader in this process reads next holds
// every call already replied to.
func Flush(dir string) {
	if v, ok := openTranscripts.Load(filepath.Clean(dir)); ok {
		v.(*Transcript).Flush()
	}
}

// CallNumber is N of a call id "cN"; false for any other spelling (C1,
// c01, c0).
func CallNumber(id string) (int, bool) {
	rest, ok := strings.CutPrefix(id, "c")
	if !ok || rest == "" || rest[0] == '0' {
		return 0, false
	}
	n, err := strconv.Atoi(rest)
	return n, err == nil && n > 0
}

// ValidSessionID tells whether id can name a session's directory: letters,
// digits, '-' and '_', at most 64.
func ValidSessionID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// readMeta is the meta.json of the transcript in dir.
func readMeta(dir string) (meta, error) {
	var m meta
	b, err := os.ReadFile(filepath.Join(dir, "meta.json"))
	if err != nil {
		return m, err
	}
	return m, json.Unmarshal(b, &m)
}

// Summary is a call's one-line summary: what it named (a path, a
// pattern, a script's first line, a tool), escaped and at most 80
// characters.
func Summary(tool string, args json.RawMessage) string {
	var a map[string]any
	_ = json.Unmarshal(args, &a)
	pick := func(keys ...string) string {
		for _, k := range keys {
			if v, ok := a[k].(string); ok && v != "" {
				return v
			}
		}
		return ""
	}
	var s string
	switch tool {
	case "bash", "ipython":
		if j := pick("job"); j != "" {
			s = "job " + j
		} else if k := pick("kill"); k != "" {
			s = "kill " + k
		} else {
			s = pick("script", "code")
		}
	case "edit":
		s = pick("patch")
	case "dyn":
		s = pick("name")
		if s == "" {
			s = "(list)"
		}
	default:
		s = pick("path", "pattern")
	}
	s, _, _ = strings.Cut(s, "\n")
	s = gate.VisibleText(s)
	if utf8.RuneCountInString(s) > 80 {
		r := []rune(s)
		s = string(r[:79]) + "…"
	}
	return s
}
