package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/protocol"
)

// eukhe lsp killed in the middle of an edit of an open document and two
// closed files (issue: nothing lost): the editor's part landed in its
// buffer, one closed file was written, the other not. The intent journal
// lists the disk's part, so the next eukhe lsp of that root finishes it
// before anything else, and the first agent reply says so: the disk then
// holds what the editor was given, never half of it.
func TestCrash_eukhe_lsp_killed_mid_edit_is_finished_by_the_next_start(t *testing.T) {
	root, _ := filepath.EvalSymlinks(t.TempDir())
	home := t.TempDir()
	mustDo(t, os.MkdirAll(filepath.Join(home, "config", "eukhe"), 0o700))
	mustDo(t, os.WriteFile(filepath.Join(home, "config", "eukhe", "settings.json"), []byte("{}"), 0o600))
	for _, f := range []string{"f0.txt", "f1.txt", "f2.txt"} {
		mustDo(t, os.WriteFile(filepath.Join(root, f), []byte(f+" one\n"+f+" two\n"), 0o644))
	}
	errR, errW := io.Pipe()
	e, cmd := startLSPEditorOn(t, root, home, []string{agent.CrashPauseEnv + "=rename:/f2.txt"}, errW, nil)
	paused := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(errR)
		for sc.Scan() {
			if strings.Contains(sc.Text(), "paused before") {
				paused <- sc.Text()
			}
		}
	}()
	e.open("f0.txt", "f0.txt one\nf0.txt two\n")
	tags := map[string]string{}
	for _, f := range []string{"f0.txt", "f1.txt", "f2.txt"} {
		text, failed := e.tool("read", map[string]any{"path": f})
		m := regexp.MustCompile(`^\[[^#\]]+#([0-9a-f]+)\]`).FindStringSubmatch(text)
		if failed || m == nil {
			t.Fatalf("read %s: %s", f, text)
		}
		tags[f] = m[1]
	}
	patch := ""
	for _, f := range []string{"f0.txt", "f1.txt", "f2.txt"} {
		patch += "[" + f + "#" + tags[f] + "]\n@@ 2\n+" + f + " TWO\n"
	}
	go func() { // never answered: the server is killed
		a, _ := json.Marshal(map[string]any{"patch": patch})
		var r protocol.ToolResult
		e.conn.Call(e.ctx, protocol.MethodTool, protocol.ToolParams{Name: "edit", Arguments: a}, &r)
	}()
	select {
	case <-paused:
	case <-time.After(60 * time.Second): // a hang guard
		t.Fatal("the edit never reached the rename of f2.txt")
	}
	mustDo(t, cmd.Process.Kill())
	cmd.Wait()
	errW.Close()
	disk := func(f string) string { b, _ := os.ReadFile(filepath.Join(root, f)); return string(b) }
	if !strings.Contains(disk("f1.txt"), "TWO") || strings.Contains(disk("f2.txt"), "TWO") || !e.buffersHold("f0.txt TWO") {
		t.Fatalf("the crash was not mid edit: f1 %q, f2 %q", disk("f1.txt"), disk("f2.txt"))
	}

	again, _ := startLSPEditorOn(t, root, home, nil, nil, nil)
	for _, f := range []string{"f1.txt", "f2.txt"} {
		if !strings.Contains(disk(f), f+" TWO") {
			t.Errorf("after the next start %s holds %q: the disk's part was not finished", f, disk(f))
		}
	}
	text, _ := again.tool("read", map[string]any{"path": "f2.txt"})
	if !strings.Contains(text, "found an edit interrupted") || !strings.Contains(text, "finished it") {
		t.Errorf("the first reply does not tell of the recovery:\n%s", text)
	}
	if left, _ := filepath.Glob(filepath.Join(root, ".eukhe-tmp-*")); len(left) > 0 {
		t.Errorf("temp files stay: %v", left)
	}
}
