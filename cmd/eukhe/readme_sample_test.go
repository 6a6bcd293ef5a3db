package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/shell"
)

// sampleApp is the src/app.go of README's sample, as its first read shows
// it in part.
const sampleApp = "package app\n\nimport \"fmt\"\n\nfunc Hello(name string) {\n\tfmt.Println(\"hello\", name)\n}\n"

// The sample of "What the agent sees" is what eukhe tool prints: each
// `$ eukhe tool …` line runs in turn, as written, in a project that holds
// sampleApp under a home with a key, and prints exactly the lines under
// it (the scratch home shown as /home/me, as README writes it).
func TestREADME_sample_is_what_eukhe_tool_prints(t *testing.T) {
	w := newCheckWorld(t)
	if err := os.WriteFile(filepath.Join(w.root, "src", "app.go"), []byte(sampleApp), 0o644); err != nil {
		t.Fatal(err)
	}
	samples := blocks(section(t, readme(t), "What the agent sees"), "console")
	if len(samples) != 1 {
		t.Fatalf("README's \"What the agent sees\" has %d console blocks, want 1", len(samples))
	}
	type call struct {
		line string
		want []string
	}
	var calls []call
	for _, l := range strings.Split(strings.TrimSuffix(samples[0], "\n"), "\n") {
		if cmd, ok := strings.CutPrefix(l, "$ "); ok {
			calls = append(calls, call{line: cmd})
			continue
		}
		if len(calls) == 0 {
			t.Fatalf("README's sample starts with output, not a command: %q", l)
		}
		calls[len(calls)-1].want = append(calls[len(calls)-1].want, l)
	}
	if len(calls) < 3 {
		t.Fatalf("README's sample has %d calls; want a read, an edit and a refusal", len(calls))
	}
	for _, c := range calls {
		words, err := shell.Fields(c.line, func(string) string { return "" })
		if err != nil || len(words) < 3 || words[0] != "eukhe" || words[1] != "tool" {
			t.Fatalf("README's sample line %q is not an `eukhe tool NAME …` call (%v)", c.line, err)
		}
		cmd := exec.Command(binary, words[1:]...)
		cmd.Dir = w.root
		cmd.Env = []string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}
		out, _ := cmd.CombinedOutput() // a refusal exits 1: its text is what counts
		got := strings.ReplaceAll(strings.TrimSuffix(string(out), "\n"), w.home, "/home/me")
		if want := strings.Join(c.want, "\n"); got != want {
			t.Errorf("README's sample: $ %s\nREADME shows:\n%s\neukhe tool prints:\n%s", c.line, want, got)
		}
	}
}
