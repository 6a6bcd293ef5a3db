package agent

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// A commit crashed half way (every step failing from the first publish
// on, as a killed process leaves it): the next start recovers it, and the
// first reply of the next session says so, once.
func TestSession_first_reply_tells_what_was_recovered(t *testing.T) {
	dir := t.TempDir()
	jdir := filepath.Join(t.TempDir(), "journal")
	a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte("old\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	crashed := docs.NewDisk()
	crashed.Journal, crashed.Root = jdir, dir
	dead := false
	crashed.Fault = func(step, _ string) error {
		if step == "rename" {
			dead = true
		}
		if dead {
			return errors.New("killed")
		}
		return nil
	}
	crashed.Commit([]docs.Change{{Path: a, Old: []byte("old\n"), New: []byte("new\n")}, {Path: b, Old: []byte("old\n"), New: []byte("new\n")}})

	disk := docs.NewDisk()
	disk.Journal, disk.Root = jdir, dir
	if rs := disk.Recover(); len(rs) != 1 {
		t.Fatalf("recovered %d journals, want 1", len(rs))
	}
	s, err := Open(Options{Host: &Headless{RootDir: dir, Disk: disk}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	cs := connect(t, s)
	call := func() string {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "a.txt"}})
		if err != nil {
			t.Fatal(err)
		}
		return contentText(res)
	}
	first := call()
	if !strings.Contains(first, "[notice] eukhe found an edit interrupted") || !strings.Contains(first, "a.txt, b.txt") || strings.Contains(first, dir) {
		t.Fatalf("the first reply:\n%s", first)
	}
	for _, p := range []string{a, b} {
		if got, _ := os.ReadFile(p); string(got) != "new\n" {
			t.Fatalf("%s holds %q after recovery", p, got)
		}
	}
	if second := call(); strings.Contains(second, "[notice]") {
		t.Fatalf("the second reply tells it again:\n%s", second)
	}
}
