package agent

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ipythonSession opens a headless session whose ipython tool runs the
// test's Python, with the auto set given (nil: the default) and the
// client given (nil: no one answers).
func ipythonSession(t *testing.T, files map[string]string, auto *gate.AutoSet, client func(context.Context, gate.Question) gate.Answer) (*Session, string, string) {
	t.Helper()
	w := rtSession(t, files, nil, func(s *settings.Settings) {
		if auto != nil {
			s.AutoEffects = *auto
		}
	}, client)
	return w.s, w.dir, w.home
}

// rtWorld is a session whose settings a test changes between cells.
type rtWorld struct {
	s    *Session
	dir  string
	home string
	mu   sync.Mutex
	set  settings.Settings
}

func (w *rtWorld) settings() settings.Settings {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.set
}

func (w *rtWorld) change(f func(*settings.Settings)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(&w.set)
}

// rtSession opens a headless session as ipythonSession does, with the
// extra environment given (PATH is this process's unless env sets it),
// settings a test may change, and a client (nil: no one answers).
func rtSession(t *testing.T, files map[string]string, env map[string]string, mutate func(*settings.Settings),
	client func(context.Context, gate.Question) gate.Answer) *rtWorld {
	t.Helper()
	py := testkit.IPython(t)
	dir := t.TempDir()
	home := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if strings.HasPrefix(name, "~/") {
			p = filepath.Join(home, name[2:])
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	e := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	for k, v := range env {
		e[k] = strings.ReplaceAll(v, "$HOME", home)
	}
	w := &rtWorld{dir: dir, home: home}
	w.set = settings.Defaults()
	w.set.IPythonPython = py
	if mutate != nil {
		mutate(&w.set)
	}
	paths := settings.Locate(e, []string{dir})
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: paths.Places(e).Policy(gate.OS), Client: client,
		Current: w.settings}
	s, err := Open(Options{Host: host, Env: e, ShellBudget: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	w.s = s
	t.Cleanup(func() { s.Close() })
	return w
}

// cell runs one ipython call.
func cell(t *testing.T, s *Session, args map[string]any) Result {
	t.Helper()
	raw, _ := json.Marshal(args)
	r, err := s.Call(context.Background(), "ipython", raw)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestIPythonRunsCellsWhoseStateLasts(t *testing.T) {
	s, _, _ := ipythonSession(t, nil, nil, nil)
	r := cell(t, s, map[string]any{"code": "x = 41\nprint('hello')\nimport os; os.system('echo from-a-program')\nx + 1"})
	text := r.Text()
	if r.Failed() || !strings.Contains(text, "hello\nfrom-a-program\n") || !strings.Contains(text, "Out[1]: 42") || !strings.Contains(text, "[a new kernel: IPython") {
		t.Fatalf("first cell: %v\n%s", r.Outcome, text)
	}
	r = cell(t, s, map[string]any{"code": "x * 2"})
	if r.Failed() || !strings.Contains(r.Text(), "Out[2]: 82") || strings.Contains(r.Text(), "new kernel") {
		t.Fatalf("the state did not last: %v\n%s", r.Outcome, r.Text())
	}
	r = cell(t, s, map[string]any{"code": "1/0"})
	if !r.Failed() || !strings.Contains(r.Text(), "ZeroDivisionError") || !strings.Contains(r.Text(), "[cell 3 raised ZeroDivisionError]") {
		t.Fatalf("an exception: %v\n%s", r.Outcome, r.Text())
	}
	r = cell(t, s, map[string]any{"code": "x", "restart": true})
	if !r.Failed() || !strings.Contains(r.Text(), "restarted") || !strings.Contains(r.Text(), "NameError") {
		t.Fatalf("a restart kept the state: %v\n%s", r.Outcome, r.Text())
	}
}

// The kernel functions are the tools: read() marks rows seen, edit() of
// three files lands whole or not at all, and what needs a question raises.
func TestIPythonKernelFunctionsKeepTheToolsLaws(t *testing.T) {
	s, dir, home := ipythonSession(t, map[string]string{"a.txt": "one\ntwo\n", "b.txt": "three\n", "c.txt": "four\n", "~/.ssh/id_rsa": "KEY\n"}, nil, nil)
	r := cell(t, s, map[string]any{"code": `docs = {p: read(p) for p in ["a.txt", "b.txt", "c.txt"]}
print(docs["a.txt"].tag is not None, docs["a.txt"].lines)
patch = "".join(f"[{p}#{d.tag}]\n@@ 1\n+{p} changed\n" for p, d in docs.items())
print(edit(patch))`})
	if r.Failed() || !strings.Contains(r.Text(), "True ['one', 'two']") || !strings.Contains(r.Text(), "Applied to") {
		t.Fatalf("a three-file edit: %v\n%s", r.Outcome, r.Text())
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "c.txt")); string(b) != "c.txt changed\n" {
		t.Fatalf("c.txt is %q", b)
	}
	// one file changed under the cell: nothing lands
	r = cell(t, s, map[string]any{"code": `docs = {p: read(p) for p in ["a.txt", "b.txt", "c.txt"]}
open("b.txt", "w").write("changed under it\n")
patch = "".join(f"[{p}#{d.tag}]\n@@ 1\n+again\n" for p, d in docs.items())
try:
    edit(patch)
except EukheError as e:
    print("refused:", e.kind)`})
	if !strings.Contains(r.Text(), "refused: not_applied") {
		t.Fatalf("an edit over a changed file: %v\n%s", r.Outcome, r.Text())
	}
	for _, f := range []string{"a.txt", "c.txt"} {
		if b, _ := os.ReadFile(filepath.Join(dir, f)); strings.Contains(string(b), "again") {
			t.Fatalf("%s took part of an edit that did not land: %q", f, b)
		}
	}
	// an edit on lines no read showed
	r = cell(t, s, map[string]any{"code": `try:
    edit("[c.txt#00000000]\n@@ 1\n+x\n")
except EukheError as e:
    print("refused:", e.kind)`})
	if !strings.Contains(r.Text(), "refused:") {
		t.Fatalf("an edit with a made-up tag: %v\n%s", r.Outcome, r.Text())
	}
	// a secret: read() asks no one, so it raises; bash() the same
	key := filepath.Join(home, ".ssh", "id_rsa")
	r = cell(t, s, map[string]any{"code": "try:\n    read(" + pyQuote(key) + ")\nexcept EukheError as e:\n    print('read refused:', e.kind, e.text)\n" +
		"try:\n    bash('cat " + key + "')\nexcept EukheError as e:\n    print('bash refused:', e.kind, e.text)"})
	text := r.Text()
	if strings.Contains(text, "KEY") || !strings.Contains(text, "read refused: refused") || !strings.Contains(text, "bash refused: refused") ||
		!strings.Contains(text, "never asks") {
		t.Fatalf("a secret through a cell's functions: %v\n%s", r.Outcome, text)
	}
	// bash() runs what the auto set and the cell's exec allow
	r = cell(t, s, map[string]any{"code": "r = bash('echo hi > made.txt; cat made.txt'); print(r.status, r.ending, 'hi' in r)"})
	if !strings.Contains(r.Text(), "0 finished True") {
		t.Fatalf("bash(): %v\n%s", r.Outcome, r.Text())
	}
}

func pyQuote(s string) string { b, _ := json.Marshal(s); return string(b) }

// Nothing of the kernel runs between cells: a thread the cell left (and
// so its kernel calls) waits until the next cell runs.
func TestIPythonNothingRunsBetweenCells(t *testing.T) {
	s, dir, _ := ipythonSession(t, map[string]string{"a.txt": "x\n"}, nil, nil)
	cell(t, s, map[string]any{"code": `import threading, time
out = []
def late():
    time.sleep(0.5)
    open("late.txt", "w").write("x")
    try:
        read("a.txt")
        out.append("read ran")
    except EukheError as e:
        out.append(e.kind)
threading.Thread(target=late).start()`})
	time.Sleep(1500 * time.Millisecond)
	if _, err := os.Stat(filepath.Join(dir, "late.txt")); err == nil {
		t.Fatal("a thread the cell left ran while no cell did")
	}
	r := cell(t, s, map[string]any{"code": "import time\ntime.sleep(1)\nout"})
	if !strings.Contains(r.Text(), "read ran") {
		t.Fatalf("the thread did not go on with the next cell: %s", r.Text())
	}
}

// A long cell becomes a job; kill interrupts it and the kernel stays; a
// crash ends the kernel and the next cell says so.
func TestIPythonJobsInterruptsAndCrashes(t *testing.T) {
	s, _, _ := ipythonSession(t, nil, nil, nil)
	s.Shell().Budget = 500 * time.Millisecond
	cell(t, s, map[string]any{"code": "kept = 7"})
	r := cell(t, s, map[string]any{"code": "import time\nprint('start', flush=True)\ntime.sleep(60)"})
	if r.Outcome != Job || r.Job != "k1" || !strings.Contains(r.Text(), "start") {
		t.Fatalf("a long cell: %v %q\n%s", r.Outcome, r.Job, r.Text())
	}
	r = cell(t, s, map[string]any{"code": "1"})
	if !r.Failed() || !strings.Contains(r.Text(), "k1 still runs") {
		t.Fatalf("a cell while a job runs: %v\n%s", r.Outcome, r.Text())
	}
	r = cell(t, s, map[string]any{"kill": "k1"})
	if r.Failed() || !strings.Contains(r.Text(), "KeyboardInterrupt") || !strings.Contains(r.Text(), "[killed: the cell was interrupted") {
		t.Fatalf("kill: %v\n%s", r.Outcome, r.Text())
	}
	r = cell(t, s, map[string]any{"code": "kept"})
	if !strings.Contains(r.Text(), "Out[") || !strings.Contains(r.Text(), ": 7") {
		t.Fatalf("the kernel did not stay: %s", r.Text())
	}
	r = cell(t, s, map[string]any{"code": "import os; os._exit(3)"})
	if !r.Failed() || !strings.Contains(r.Text(), "the kernel died during the cell") {
		t.Fatalf("a crash: %v\n%s", r.Outcome, r.Text())
	}
	r = cell(t, s, map[string]any{"code": "'kept' in dir()"})
	if !strings.Contains(r.Text(), "[a new kernel: the last one ended") || !strings.Contains(r.Text(), "False") {
		t.Fatalf("after a crash: %s", r.Text())
	}
	r = cell(t, s, map[string]any{"code": "import time; time.sleep(30)", "timeout": 0.3})
	for r.Outcome == Job {
		r = cell(t, s, map[string]any{"job": r.Job})
	}
	if r.Outcome != TimedOut || !strings.Contains(r.Text(), "timed out after 300ms") {
		t.Fatalf("a timeout: %v\n%s", r.Outcome, r.Text())
	}
}

// An image the cell displays reaches an MCP client as image content.
func TestIPythonImageReachesTheClient(t *testing.T) {
	s, _, _ := ipythonSession(t, nil, nil, nil)
	cs := connect(t, s)
	png := "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "ipython", Arguments: map[string]any{
		"code": "import base64\nfrom IPython.display import Image, display\ndisplay(Image(data=base64.b64decode('" + png + "')))\nprint('shown')"}})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := base64.StdEncoding.DecodeString(png)
	var found bool
	for _, c := range res.Content {
		if im, ok := c.(*mcp.ImageContent); ok && im.MIMEType == "image/png" && string(im.Data) == string(want) {
			found = true
		}
	}
	if !found || res.IsError {
		t.Fatalf("no image content: %#v", res.Content)
	}
}

// Without exec in the auto set a cell asks, and shows its code escaped;
// no answer: it does not run.
func TestIPythonCellAsksWithoutExec(t *testing.T) {
	auto := gate.AutoOf(gate.Of(gate.Read, gate.Write))
	var asked []gate.Question
	answer := gate.Deny
	s, dir, _ := ipythonSession(t, nil, &auto, func(_ context.Context, q gate.Question) gate.Answer {
		asked = append(asked, q)
		return answer
	})
	code := "open('ran.txt', 'w').write('x')  # \u202e"
	r := cell(t, s, map[string]any{"code": code})
	if r.Outcome != Refused || !strings.HasPrefix(r.Text(), "ipython did not run (exec): the user denied it") {
		t.Fatalf("a denied cell: %v\n%s", r.Outcome, r.Text())
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Fatal("a denied cell ran")
	}
	if len(asked) != 1 || asked[0].Effects != gate.Of(gate.Exec) || !strings.Contains(asked[0].What, `$'\u202e'`) || !strings.HasSuffix(asked[0].ID, ":cell") || !asked[0].Cell {
		t.Fatalf("the question: %+v", asked)
	}
	answer = gate.Approve
	r = cell(t, s, map[string]any{"code": code})
	if r.Failed() {
		t.Fatalf("an approved cell: %v\n%s", r.Outcome, r.Text())
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err != nil {
		t.Fatal("an approved cell did not run")
	}
}

// A cell reports its progress to a client that asked: its lines of
// output so far.
func TestIPythonProgressReachesTheClient(t *testing.T) {
	s, _, _ := ipythonSession(t, nil, nil, nil)
	s.reportEvery = 20 * time.Millisecond
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Server().Connect(context.Background(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, req.Params)
			mu.Unlock()
		}}).Connect(context.Background(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { cs.Close(); ss.Close() }()
	p := &mcp.CallToolParams{Name: "ipython", Arguments: map[string]any{"code": "import time\nfor i in range(3):\n    print(i, flush=True)\n    time.sleep(0.3)"}}
	p.SetProgressToken("tok")
	if _, err := cs.CallTool(context.Background(), p); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		var msgs []string
		for _, n := range got {
			msgs = append(msgs, n.Message)
		}
		mu.Unlock()
		if strings.Contains(strings.Join(msgs, "\n"), "lines of output so far") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no progress with the cell's lines: %q", msgs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Without IPython the tool says how to install it, and runs nothing.
func TestIPythonWithoutIPythonSaysHowToInstallIt(t *testing.T) {
	py := testkit.IPython(t)
	s, dir, _ := ipythonSession(t, nil, nil, nil)
	// the same Python without its site directories: no IPython there
	bare := filepath.Join(t.TempDir(), "python-bare")
	testkit.WriteProgram(t, bare, []byte("#!/bin/sh\nexec "+py+" -S \"$@\"\n"))
	for _, python := range []string{bare, "no-such-python-here"} {
		host := s.host.(*Headless)
		host.Current = func() settings.Settings {
			st := settings.Defaults()
			st.IPythonPython = python
			return st
		}
		r := cell(t, s, map[string]any{"code": "open('ran.txt', 'w').write('x')"})
		if !r.Failed() || !strings.Contains(r.Text(), "apt install python3-ipython") || !strings.Contains(r.Text(), "nothing ran") {
			t.Fatalf("%s: %v\n%s", python, r.Outcome, r.Text())
		}
		if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
			t.Fatalf("%s: the cell ran", python)
		}
	}
}
