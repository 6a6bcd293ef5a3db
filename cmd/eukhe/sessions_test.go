package main

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// eukhe sessions and eukhe log over a real session with a read, an edit,
// an approved step, a denied one and an unseen write: each call with its
// time, the questions and answers, and what landed; never a secret's
// bytes.
func TestCLI_sessions_and_log_show_what_the_agent_did(t *testing.T) {
	w := newAttackWorld(t)
	g := startGoClient(t, w.env, w.root)
	call := func(tool string, args map[string]any) string {
		t.Helper()
		res, err := g.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatal(err)
		}
		return res.Content[0].(*mcp.TextContent).Text
	}
	read := call("read", map[string]any{"path": "a.txt"})
	tag := read[strings.Index(read, "#")+1 : strings.Index(read, "]")]
	call("edit", map[string]any{"patch": "[a.txt#" + tag + "]\n@@ 2\n+line 2 changed\n"})
	g.reply(answerWith("allow"))
	g.bash(t, "make -v >/dev/null 2>&1; true")
	g.reply(answerWith("deny"))
	g.bash(t, "cp a.txt ../outside.txt")
	g.reply(answerWith("allow"))
	g.bash(t, "cat ../.ssh/id_rsa")
	id := g.session(t)

	r := runIn(t, w.root, w.env, "sessions")
	if r.code != 0 || !strings.Contains(r.stdout, id) || !strings.Contains(r.stdout, "running") ||
		!strings.Contains(r.stdout, w.root) || !strings.Contains(r.stdout, "go-elicit 1") {
		t.Fatalf("eukhe sessions: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	// The transcript is written off the reply's path (its writer wakes
	// 10 ms after a call is kept): the last call may reach the disk a
	// moment after its reply (a CI rehearsal under load).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		r = runIn(t, w.root, w.env, "log", id)
		if strings.Contains(r.stdout, "c5 ") || time.Now().After(deadline) {
			break
		}
	}
	for _, want := range []string{
		"session " + id + " (running): root " + w.root + ", client go-elicit 1",
		"c1 ", " read a.txt",
		"c2 ", " edit [a.txt#" + tag + "]", "→ Applied to a.txt#",
		"asked: step 1 make -v > /dev/null 2>&1 (exec): approve",
		"asked: step 1 cp a.txt ../outside.txt (write+outside): deny",
		"[you allowed a secret: no copy kept]",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("eukhe log lacks %q:\n%s%s", want, r.stdout, r.stderr)
		}
	}
	if strings.Contains(r.stdout, canaryKey) {
		t.Errorf("eukhe log shows the secret's bytes:\n%s", r.stdout)
	}
	if r := runIn(t, w.root, w.env, "log", "nosuch"); r.code != 1 || !strings.Contains(r.stderr, "no session nosuch") {
		t.Errorf("eukhe log nosuch: exit %d %s", r.code, r.stderr)
	}
	if r := runIn(t, w.root, w.env, "log"); r.code != 2 {
		t.Errorf("eukhe log with no id: exit %d", r.code)
	}
}
