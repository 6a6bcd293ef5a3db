package agent

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/agent/transcript"
	"github.com/eukhe/eukhe/agent/urls"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

// memWorld is sessions on one workspace and one state directory, each
// served to a go-sdk client.
type memWorld struct {
	t      testing.TB
	dir    string
	home   string
	state  string
	host   *Headless
	budget time.Duration // the sessions' ShellBudget; 0 for the default
}

func newMemWorld(t testing.TB, client func(context.Context, gate.Question) gate.Answer) *memWorld {
	w := &memWorld{t: t, dir: t.TempDir(), home: t.TempDir(), state: t.TempDir()}
	env := map[string]string{"HOME": w.home}
	paths := settings.Locate(env, []string{w.dir})
	w.host = &Headless{RootDir: w.dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS), Client: client}
	return w
}

type memSession struct {
	t  testing.TB
	s  *Session
	cs *mcp.ClientSession
}

func (w *memWorld) open(id, parent string) *memSession {
	w.t.Helper()
	s, err := Open(Options{Host: w.host, ID: id, Parent: parent, LogPath: filepath.Join(w.state, "sessions", id+".jsonl"), ShellBudget: w.budget})
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Cleanup(s.Close)
	return &memSession{t: w.t, s: s, cs: connect(w.t, s)}
}

func (m *memSession) call(tool string, args map[string]any) (string, bool) {
	m.t.Helper()
	res, err := m.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		m.t.Fatal(err)
	}
	return res.Content[0].(*mcp.TextContent).Text, res.IsError
}

func (m *memSession) read(path string) (string, bool) {
	m.t.Helper()
	return m.call("read", map[string]any{"path": path})
}

var rowRE = regexp.MustCompile(`(?m)^(\d+):(.*)$`)

// pages reads a call's every row through memory://cN:A-B pages and gives
// the text they spell, each row a line.
func (m *memSession) pages(url string, lines, page int) string {
	m.t.Helper()
	var b strings.Builder
	for from := 1; from <= lines; from += page {
		text, failed := m.read(fmt.Sprintf("%s:%d-%d", url, from, from+page-1))
		if failed {
			m.t.Fatalf("%s page %d: %s", url, from, text)
		}
		want := from
		for _, r := range rowRE.FindAllStringSubmatch(text, -1) {
			if r[1] != fmt.Sprint(want) {
				m.t.Fatalf("%s page %d: row %s where %d belongs:\n%s", url, from, r[1], want, text)
			}
			b.WriteString(r[2] + "\n")
			want++
		}
		if want != min(from+page, lines+1) {
			m.t.Fatalf("%s page %d: rows up to %d:\n%s", url, from, want-1, text)
		}
	}
	return b.String()
}

var cutRE = regexp.MustCompile(`\[… ([0-9,]+) bytes not shown; read memory://(c\d+) for the whole output\]`)

// A bash output cut in the middle names memory://cN at its cut; its pages
// spell the whole result byte for byte: the same text full_output gives.
func TestMemoryGivesBackACutBashOutput(t *testing.T) {
	w := newMemWorld(t, nil)
	w.budget = time.Minute // a reply, not a job, where steps are slow (Wine)
	m := w.open("s1", "")
	// 200 lines of 230 bytes, past the 30 KB a reply shows, in builtins
	// only (it runs on Windows too) and few words: the gate resolves each
	// word, which under Wine takes tens of milliseconds
	script := "p=" + strings.Repeat("x", 200) + "; for i in {1..200}; do echo \"line $i\ttab é $p\"; done"
	text, failed := m.call("bash", map[string]any{"script": script})
	cut := cutRE.FindStringSubmatch(text)
	if failed || cut == nil || cut[2] != "c1" {
		t.Fatalf("the cut reply does not name memory://c1:\n%s\n…\n%s", text[:min(len(text), 400)], text[max(0, len(text)-400):])
	}
	full, _ := m.call("bash", map[string]any{"script": script, "full_output": true})
	if !strings.HasSuffix(full, "\n") {
		full += "\n" // rows do not tell whether the last line ends
	}
	lines := strings.Count(full, "\n")
	if got := m.pages("memory://c1", lines, 50); got != full {
		t.Fatalf("memory://c1 pages (%d bytes) differ from the full output (%d bytes)", len(got), len(full))
	}
	if !strings.Contains(m.s.memory.Dir, filepath.Join("sessions", "s1")) {
		t.Fatalf("transcript in %s", m.s.memory.Dir)
	}
	one, _ := m.read("memory://c1/102")
	if !strings.Contains(one, "\n102:line 100\ttab é "+strings.Repeat("x", 200)+"\n") || len(rowRE.FindAllString(one, -1)) != 1 {
		t.Fatalf("memory://c1/102:\n%s", one)
	}
	list, _ := m.read("memory://")
	if !strings.Contains(list, "c1 bash ") || !strings.Contains(list, "c2 bash ") || !strings.Contains(list, "c1 bash 43,584 bytes: p=xxxx") {
		t.Fatalf("memory://:\n%s", list)
	}
}

// A cut read names memory://cN; the middle rows come back exactly.
func TestMemoryGivesBackACutRead(t *testing.T) {
	w := newMemWorld(t, nil)
	var b strings.Builder
	for i := 1; i <= 6000; i++ {
		fmt.Fprintf(&b, "row %d: \u00e9\u4e16 \t%s\n", i, strings.Repeat("x", i%17))
	}
	os.WriteFile(filepath.Join(w.dir, "big.txt"), []byte(b.String()), 0o644)
	m := w.open("s1", "")
	text, failed := m.read("big.txt")
	if failed || !strings.Contains(text, "[cut: lines") || !strings.Contains(text, "read memory://c1 for the whole result") {
		t.Fatalf("cut read:\n%s", text[len(text)-300:])
	}
	mid, _ := m.read("memory://c1:3001-3003")
	for i := 3000; i <= 3002; i++ {
		want := fmt.Sprintf("%d:%d:row %d: \u00e9\u4e16 \t%s\n", i+1, i, i, strings.Repeat("x", i%17))
		if !strings.Contains(mid, want) {
			t.Fatalf("memory://c1:3001-3003 lacks %q:\n%s", want, mid)
		}
	}
	// Rows of memory:// are not anchors: the cut lines are still unseen.
	if _, failed := m.call("edit", map[string]any{"patch": "[big.txt#" + tagOf(t, text) + "]\n@@ 3000\n+x\n"}); !failed {
		t.Fatal("an edit anchored on a line only memory:// showed landed")
	}
}

// A read whose whole is over what a transcript keeps (a range of one 9 MiB
// line) keeps no copy of it: the reply is cut as any, names no
// memory:// for it, and memory://c1 gives what the agent was shown.
func TestMemoryKeepsNoHugeWhole(t *testing.T) {
	w := newMemWorld(t, nil)
	os.WriteFile(filepath.Join(w.dir, "line.txt"), append(bytes.Repeat([]byte("y"), docs.KeptBound+1<<20), '\n'), 0o644)
	m := w.open("s1", "")
	text, failed := m.read("line.txt:1")
	if failed || strings.Contains(text, "memory://c1 for the whole") || len(text) > 1<<20 {
		t.Fatalf("cut read of a huge line (%d bytes): %.300s", len(text), text)
	}
	back, _ := m.read("memory://c1")
	if strings.Count(back, "y") > 1<<20 {
		t.Fatalf("memory://c1 holds the huge whole: %d bytes", len(back))
	}
}

// Eviction: past MaxCalls the oldest go, with a clear message; a
// session's ids are its own.
func TestMemoryEvictsAndKeepsSessionsApart(t *testing.T) {
	w := newMemWorld(t, nil)
	a := w.open("a1", "")
	a.s.memory.MaxCalls = 3
	for i := 0; i < 5; i++ {
		a.call("bash", map[string]any{"script": fmt.Sprintf("echo %d", i)})
	}
	if text, failed := a.read("memory://c1"); !failed || !strings.Contains(text, "was dropped") || !strings.Contains(text, "not_found") {
		t.Fatalf("evicted c1: %s", text)
	}
	if text, failed := a.read("memory://c5"); failed || !strings.Contains(text, "$ echo 4") {
		t.Fatalf("kept c5: %s", text)
	}
	list, _ := a.read("memory://")
	if !strings.HasPrefix(list, "[memory://: the calls of this session: 3 kept, c1-c4 dropped") || strings.Contains(list, "\nc1 ") {
		t.Fatalf("list after eviction:\n%s", list)
	}
	// The index is compacted to the kept calls (past 8× them and 1024
	// rows); dropped ids still say so.
	if err := os.WriteFile(filepath.Join(w.dir, "more.txt"), []byte("more\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1100; i++ {
		a.call("read", map[string]any{"path": "more.txt"})
	}
	a.s.memory.Flush()
	l, err := transcript.ReadLog(a.s.memory.Dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := len(l.Rows)
	l.Close() // Windows removes no directory with a file open in it (t.TempDir's cleanup)
	if rows > 8*3+1024 {
		t.Fatalf("the log has %d rows", rows)
	}
	if text, _ := a.read("memory://c2"); !strings.Contains(text, "was dropped") {
		t.Fatalf("c2 after compaction: %s", text)
	}
	b := w.open("b1", "")
	if text, failed := b.read("memory://c5"); !failed || !strings.Contains(text, "has no call c5") {
		t.Fatalf("another session's id: %s", text)
	}
	if text, failed := b.read("agent://a1"); !failed || !strings.Contains(text, "not_allowed") {
		t.Fatalf("a session that is not a subagent: %s", text)
	}
}

// agent://: the parent chain reads a subagent's transcript; a sibling,
// the subagent itself and an escape are refused.
func TestAgentURLReadsASubagentForItsParentChainOnly(t *testing.T) {
	w := newMemWorld(t, nil)
	root := w.open("root", "")
	mid := w.open("mid", "root")
	leaf := w.open("leaf", "mid")
	other := w.open("other", "")
	leaf.call("bash", map[string]any{"script": "echo from-the-leaf"})
	for _, m := range []*memSession{mid, root} {
		text, failed := m.read("agent://leaf/c1")
		if failed || !strings.Contains(text, "from-the-leaf") {
			t.Fatalf("%s reads agent://leaf/c1: %s", m.s.ID, text)
		}
		list, _ := m.read("agent://leaf")
		if !strings.Contains(list, "c1 bash") {
			t.Fatalf("%s lists agent://leaf:\n%s", m.s.ID, list)
		}
	}
	for _, c := range []struct {
		m    *memSession
		url  string
		kind string
	}{
		{other, "agent://leaf/c1", urls.KindNotAllowed},
		{leaf, "agent://leaf", urls.KindNotAllowed},
		{leaf, "agent://mid", urls.KindNotAllowed}, // a child never reads its parent
		{root, "agent://../leaf", urls.KindEscapes},
		{root, "agent://leaf/../../x", urls.KindEscapes},
		{root, "agent://nobody", urls.KindNotFound},
		{root, "agent://le af", urls.KindNotFound},
		{root, "memory://../c1", urls.KindEscapes},
		{root, "memory://c1/../../c1", urls.KindEscapes},
		{root, "memory://c1/x", urls.KindNotFound},
		{root, "notascheme://x", urls.KindScheme},
		// Other spellings of the same call or session do not alias it.
		{root, "memory://C1", urls.KindNotFound},
		{root, "memory://c01", urls.KindNotFound},
		{root, "agent://LEAF/c1", urls.KindNotFound},
		{root, "agent://leaf%2F..%2Fother", urls.KindNotFound},
		// A walk that lands on another session is judged as that session.
		{mid, "agent://leaf/../root", urls.KindNotAllowed},
		{other, "agent://x/../leaf", urls.KindNotAllowed},
	} {
		text, failed := c.m.read(c.url)
		if !failed || !strings.Contains(text, ": "+c.kind+": ") {
			t.Errorf("%s reads %s: %s", c.m.s.ID, c.url, text)
		}
	}
	// Inside the root, .. resolves (never clamped): agent://x/../leaf is agent://leaf.
	if text, failed := root.read("agent://x/../leaf/c1"); failed || !strings.Contains(text, "from-the-leaf") {
		t.Fatalf("agent://x/../leaf/c1: %s", text)
	}
	// memory://c9/../c1 is c1 (root's first call: its read of agent://leaf/c1).
	if text, failed := root.read("memory://c9/../c1"); failed || !strings.HasPrefix(text, "[memory://c1]") || !strings.Contains(text, "from-the-leaf") {
		t.Fatalf("memory://c9/../c1 should be c1: %s", text)
	}
}

// A secret the user allowed is never kept; a refused access keeps the
// refusal.
func TestMemoryNeverKeepsASecret(t *testing.T) {
	allow := true
	w := newMemWorld(t, func(context.Context, gate.Question) gate.Answer {
		if allow {
			return gate.Approve
		}
		return gate.Deny
	})
	os.MkdirAll(filepath.Join(w.home, ".ssh"), 0o700)
	key := filepath.Join(w.home, ".ssh", "id_ed25519")
	os.WriteFile(key, []byte("SECRET-KEY-BYTES\n"), 0o600)
	m := w.open("s1", "")
	if text, failed := m.read(key); failed || !strings.Contains(text, "SECRET-KEY-BYTES") {
		t.Fatalf("allowed secret read: %s", text)
	}
	if text, _ := m.call("bash", map[string]any{"script": "read -r line < " + ShellQuote(key) + `; echo "$line"`}); !strings.Contains(text, "SECRET-KEY-BYTES") {
		t.Fatalf("allowed secret read by bash: %s", text)
	}
	allow = false
	if text, failed := m.read(key); !failed || !strings.Contains(text, "denied") {
		t.Fatalf("denied secret read: %s", text)
	}
	for _, u := range []string{"memory://c1", "memory://c2"} {
		if text, _ := m.read(u); strings.Contains(text, "SECRET") || !strings.Contains(text, "keeps no copy") {
			t.Fatalf("%s: %s", u, text)
		}
	}
	if text, _ := m.read("memory://c3"); !strings.Contains(text, "did not run") {
		t.Fatalf("the refusal is kept: %s", text)
	}
	filepath.Walk(m.s.memory.Dir, func(p string, fi os.FileInfo, err error) error {
		if b, _ := os.ReadFile(p); strings.Contains(string(b), "SECRET-KEY") {
			t.Errorf("%s holds the secret", p)
		}
		return nil
	})
	if list, _ := m.read("memory://"); !strings.Contains(list, "(not kept: a secret)") {
		t.Fatalf("list: %s", list)
	}
}

// transcriptReader is a urls.Reader over a real transcript "me" holding c1,
// beside a subagent "kid" of "me" holding c1.
func transcriptReader(t interface {
	Fatal(...any)
	TempDir() string
	Cleanup(func())
}) *urls.Reader {
	sessions := t.TempDir()
	me, err := transcript.Open(filepath.Join(sessions, "me"), "me", "")
	if err != nil {
		t.Fatal(err)
	}
	kid, err := transcript.Open(filepath.Join(sessions, "kid"), "kid", "me")
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range []*transcript.Transcript{me, kid} {
		t.Cleanup(tr.Close) // before the temp directory's removal: Windows removes no open file
		tr.Begin()
		if err := tr.Keep(transcript.CallRow{ID: "c1", Tool: "bash"}, "one\ntwo\n"); err != nil {
			t.Fatal(err)
		}
	}
	return &urls.Reader{Memory: transcriptURLs{me}}
}

// TestLaw_path_rejects_escape_memory_agent: a memory:// or agent:// path
// that climbs above its root at any point is the rejection escapes, never
// clamped to a call or a session (S7.6).
func TestLaw_path_rejects_escape_memory_agent(t *testing.T) {
	r := transcriptReader(t)
	rapid.Check(t, func(t *rapid.T) {
		segs := rapid.SliceOfN(rapid.SampledFrom([]string{"..", ".", "", "c1", "kid", "me", "2", "c1:1-2", "x"}), 0, 8).Draw(t, "segs")
		_, escaped := walkModel(segs)
		for _, scheme := range []string{"memory://", "agent://"} {
			raw := scheme + strings.Join(segs, "/")
			_, err := r.Read(context.Background(), raw, 0)
			if escaped != (urlKind(err) == urls.KindEscapes) {
				t.Fatalf("%s: %v (the walk escapes: %v)", raw, err, escaped)
			}
		}
	})
}

// TestLaw_path_resolves_inside_memory_agent: a path that stays under its
// root reads what the walk names: the same text as the path written
// without moves.
func TestLaw_path_resolves_inside_memory_agent(t *testing.T) {
	r := transcriptReader(t)
	rapid.Check(t, func(t *rapid.T) {
		segs := rapid.SliceOfN(rapid.SampledFrom([]string{"..", ".", "", "c1", "kid", "2", "x"}), 0, 8).Draw(t, "segs")
		names, escaped := walkModel(segs)
		if escaped {
			return
		}
		for _, scheme := range []string{"memory://", "agent://"} {
			got, gerr := r.Read(context.Background(), scheme+strings.Join(segs, "/"), 0)
			want, werr := r.Read(context.Background(), scheme+strings.Join(names, "/"), 0)
			if urlKind(gerr) == urls.KindEscapes || urlKind(gerr) != urlKind(werr) || (gerr == nil && got != want) {
				t.Fatalf("%s%s = %q, %v; %s%s = %q, %v", scheme, strings.Join(segs, "/"), got, gerr, scheme, strings.Join(names, "/"), want, werr)
			}
		}
	})
}

// FuzzTranscriptURL: no path panics, and the escapes rejection is exactly
// the walk's.
func FuzzTranscriptURL(f *testing.F) {
	for _, s := range []string{"", "c1", "c1:1-2", "c1/2", "../c1", "kid/c1", "kid/c1/1", "c01", "c1:0-", "c1/../../x", "kid/../me/c1"} {
		f.Add(s)
	}
	r := transcriptReader(f)
	f.Fuzz(func(t *testing.T, rest string) {
		_, walked := urls.WalkPath(rest)
		for _, scheme := range []string{"memory://", "agent://"} {
			_, err := r.Read(context.Background(), scheme+rest, 0)
			if (urlKind(err) == urls.KindEscapes) == walked {
				t.Fatalf("%s%s: %v (walk ok: %v)", scheme, rest, err, walked)
			}
		}
	})
}
