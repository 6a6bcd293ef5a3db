package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// eukhe approvals started before any session waits for one and attaches
// when it starts; a question no one answers in time is said to have timed
// out, to the terminal and to the agent (not "answered elsewhere", and
// not "run eukhe approvals", which was running); when the session ends,
// the terminal waits for the next one.
func TestEukheApprovalsWaitsAndSaysWhenAQuestionTimedOut(t *testing.T) {
	env := attachEnv(t)
	cfg := envMap(env)["XDG_CONFIG_HOME"]
	if err := os.WriteFile(filepath.Join(cfg, "eukhe", "settings.json"), []byte(`{"shell.autoEffects": ["read"], "approval.timeoutSeconds": 1}`), 0o600); err != nil {
		t.Fatal(err)
	}
	root := headlessRoot(t)
	ap := startApprovals(t, env, root)
	ap.wait("waiting for one")
	one := startMCP(t, env, root)
	ap.wait("Attached to headless eukhe mcp session " + sessionOf(t, one))
	text, failed := one.call("bash", map[string]any{"script": "echo late > late.txt"})
	ap.wait("Allow? [y/N]")
	if !failed || !strings.Contains(text, "timed out after 1 s") || !strings.Contains(text, "shown in `eukhe approvals`") ||
		strings.Contains(text, "Ask the user to run `eukhe approvals`") {
		t.Fatalf("the agent was told: %s", text)
	}
	ap.wait("timed out after 1 s: it was denied")
	if _, err := os.Stat(filepath.Join(root, "late.txt")); err == nil {
		t.Fatal("the step that timed out ran")
	}
	one.in.Close() // the agent ends its session
	ap.wait("waiting for one")
	two := startMCP(t, env, root)
	ap.wait("Attached to headless eukhe mcp session " + sessionOf(t, two))
}
