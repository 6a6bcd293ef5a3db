package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// eukhe tool bash runs a script headless behind the gate: steps within the
// user's auto set run; a step that must ask is unanswered and stops it.
func TestCLI_bash_headless_behind_the_gate(t *testing.T) {
	w := newWS(t)
	cfg := t.TempDir()
	run := func(script string) ran {
		t.Helper()
		cmd := exec.Command(binary, "tool", "bash", "--root", w.root, `{"script": `+quoteJSON(script)+`}`)
		cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+cfg, "HOME="+t.TempDir())
		out, err := cmd.CombinedOutput()
		r := ran{stdout: string(out)}
		if ee, ok := err.(*exec.ExitError); ok {
			r.code = ee.ExitCode()
		}
		return r
	}
	r := run("echo hi | tr a-z A-Z; touch made.txt")
	if r.code != 0 || !strings.Contains(r.stdout, "HI") {
		t.Fatalf("a script within the default auto set: exit %d\n%s", r.code, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(w.root, "made.txt")); err != nil {
		t.Fatal("touch did not run")
	}
	// Narrow the auto set to read: a write now asks, and headless no one answers.
	if err := os.MkdirAll(filepath.Join(cfg, "eukhe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cfg, "eukhe", "settings.json"), []byte(`{"shell.autoEffects": ["read"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r = run("echo first; touch second.txt; echo never")
	if r.code != 1 || !strings.Contains(r.stdout, "first") || !strings.Contains(r.stdout, "refused at step 2: unanswered") || strings.Contains(r.stdout, "never") {
		t.Fatalf("a write outside the auto set: exit %d\n%s", r.code, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(w.root, "second.txt")); err == nil {
		t.Fatal("the refused step ran")
	}
}

func quoteJSON(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	b.WriteByte('"')
	return b.String()
}
