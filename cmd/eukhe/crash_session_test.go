package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent"
)

// A real session killed mid-commit, then a directory swapped before the
// next start (issue 20, class 3): eukhe mcp publishes an edit that
// creates many files and, last, moves the agent's script into h/; the test
// kills it (SIGKILL) while it publishes, its journal "forward": stopped
// (agent.CrashPauseEnv) just before it links the moved file into h/.
// Before the next start the directory h is swapped for a link to
// .git/hooks: finishing the move as the journal names it would link the
// script into .git/hooks/pre-commit. The next eukhe mcp must plant
// nothing, turn the edit back (none of its files stays), and say so in
// its first reply.
func TestCrash_a_killed_session_and_a_swapped_directory_plant_no_hook(t *testing.T) {
	if testing.Short() {
		t.Skip("kills eukhe mcp mid-commit: not in -short")
	}
	const files = 300
	for trial := range 25 {
		w := newAttackWorld(t)
		writeAt(t, w.root, "s/pre-commit", string(plantedHook))
		writeAt(t, w.root, "h/keep", "k\n")
		p, kill := startKillable(t, w)
		text, _ := p.call("read", map[string]any{"path": "s/pre-commit"})
		tag := regexp.MustCompile(`\[s/pre-commit#([0-9A-Za-z]+)\]`).FindStringSubmatch(text)
		if tag == nil {
			t.Fatalf("no tag in %q", text)
		}
		var patch strings.Builder
		for i := range files {
			fmt.Fprintf(&patch, "[big/f%03d.txt]\n+file %d\n", i, i)
		}
		fmt.Fprintf(&patch, "[s/pre-commit#%s]\nMV h/pre-commit\n", tag[1])
		p.id++
		p.send(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": "tools/call",
			"params": map[string]any{"name": "edit", "arguments": map[string]any{"patch": patch.String()}}})
		// eukhe stops before it links the moved file into h (the creates
		// landed, the journal forward): killed exactly there
		p.waitStderr("paused before link")
		forward := waitForward(w.jdir(), 20*time.Second)
		kill()
		if !forward {
			t.Logf("trial %d: the edit ended before a kill found it publishing", trial)
			continue
		}
		if _, err := os.Lstat(w.at("h/pre-commit")); err == nil {
			t.Logf("trial %d: killed after the move landed", trial)
			continue
		}
		js, _ := filepath.Glob(filepath.Join(w.jdir(), "*.journal"))
		if len(js) != 1 {
			t.Logf("trial %d: no journal left (%v)", trial, js)
			continue
		}
		landed, _ := filepath.Glob(w.at("big/*.txt"))
		before := w.snapshot(t)
		swapDir(t, w.at("h"), ".git/hooks")
		q := w.startMCP(t, "headless")
		text, _ = q.call("read", map[string]any{"path": "a.txt"})
		_, notice, ok := strings.Cut(text, "[notice] ")
		if !ok {
			t.Fatalf("the first reply after the crash has no notice:\n%s", text)
		}
		if b, err := os.ReadFile(w.at(".git/hooks/pre-commit")); err == nil {
			t.Fatalf("recovery planted .git/hooks/pre-commit: %q\nnotice: %s", b, notice)
		}
		after := w.snapshot(t)
		for k, v := range after {
			if before[k] != v {
				t.Errorf("recovery changed %s\nnotice: %s", k, notice)
			}
		}
		if !strings.Contains(notice, "turned it back") || !strings.Contains(notice, "h/pre-commit") {
			t.Errorf("the notice does not say the edit was turned back for h/pre-commit: %s", notice)
		}
		if left, _ := filepath.Glob(w.at("big/*.txt")); len(left) != 0 {
			t.Errorf("%d of the edit's created files stay (%d had landed at the kill): it was not turned back whole", len(left), len(landed))
		}
		if _, err := os.Stat(w.at("s/pre-commit")); err != nil {
			t.Errorf("the moved file's source is gone: %v", err)
		}
		t.Logf("trial %d: killed with %d of %d created files landed; notice: %.300s", trial, len(landed), files, notice)
		return
	}
	t.Fatal("no trial killed eukhe mcp while it published")
}

// startKillable starts eukhe mcp in the world and gives a way to kill it
// with SIGKILL.
func startKillable(t *testing.T, w *attackWorld) (*mcpProc, func()) {
	t.Helper()
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Env = w.root, append(append([]string(nil), w.env...), agent.CrashPauseEnv+"=link:/h/pre-commit")
	in, _ := cmd.StdinPipe()
	out, _ := cmd.StdoutPipe()
	p := &mcpProc{t: t, in: in, out: bufio.NewReader(out), stderr: &strings.Builder{}}
	p.stderrW = &lockedWriter{w: p.stderr}
	cmd.Stderr = p.stderrW
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	killed := false
	kill := func() {
		if !killed {
			killed = true
			cmd.Process.Signal(syscall.SIGKILL)
			cmd.Wait()
		}
	}
	t.Cleanup(kill)
	p.initialize(nil)
	p.waitStderr("headless")
	return p, kill
}

// waitForward waits until a journal in dir is in the phase "forward" (the
// commit publishes), and tells whether one was.
func waitForward(dir string, limit time.Duration) bool {
	deadline := time.Now().Add(limit)
	for time.Now().Before(deadline) {
		js, _ := filepath.Glob(filepath.Join(dir, "*.journal"))
		for _, j := range js {
			b, err := os.ReadFile(j)
			if err != nil {
				continue
			}
			_, rec, _ := strings.Cut(string(b), "\n")
			var r struct{ Phase string }
			if json.Unmarshal([]byte(rec), &r) == nil && r.Phase == "forward" {
				return true
			}
		}
	}
	return false
}
