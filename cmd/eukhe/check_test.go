package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// checkWorld is a home with ssh keys and a project with a .git, for
// eukhe check.
type checkWorld struct {
	t          *testing.T
	home, root string
}

func newCheckWorld(t *testing.T) *checkWorld {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := &checkWorld{t: t, home: filepath.Join(base, "home")}
	w.root = filepath.Join(w.home, "proj")
	for _, d := range []string{".ssh", "proj/.git/hooks", "proj/src"} {
		if err := os.MkdirAll(filepath.Join(w.home, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".ssh/id_ed25519", "proj/a.txt"} {
		if err := os.WriteFile(filepath.Join(w.home, f), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func (w *checkWorld) settings(data string) {
	w.t.Helper()
	dir := filepath.Join(w.home, ".config", "eukhe")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(data), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// check runs the built binary in the project's src directory with the
// world's home.
func (w *checkWorld) check(stdin string, args ...string) ran {
	w.t.Helper()
	return w.checkStdin(nil, stdin, args...)
}

// checkEnv is check with more environment and no standard input.
func (w *checkWorld) checkEnv(env []string, args ...string) ran {
	w.t.Helper()
	return w.checkStdin(env, "", args...)
}

func (w *checkWorld) checkStdin(env []string, stdin string, args ...string) ran {
	w.t.Helper()
	cmd := exec.Command(binary, append([]string{"check"}, args...)...)
	cmd.Dir = filepath.Join(w.root, "src")
	cmd.Env = append([]string{"HOME=" + w.home, "PATH=/usr/bin:/bin"}, env...)
	cmd.Stdin = strings.NewReader(stdin)
	return ranOf(w.t, cmd)
}

func TestCLI_check_json(t *testing.T) {
	w := newCheckWorld(t)
	r := w.check("", "--json", "cat ../a.txt | sort -o out; rm -rf ../.git && cat ~/.ssh/id_ed25519; c\u00a0at x")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got checkJSON
	if err := json.Unmarshal([]byte(r.stdout), &got); err != nil {
		t.Fatalf("%v: %s", err, r.stdout)
	}
	want := checkJSON{Grammar: true, Steps: []checkStepJSON{
		{Text: "cat ../a.txt", Effects: []string{"read"}},
		{Text: "sort -o out", Effects: []string{"read", "write"}},
		{Text: "rm -rf ../.git", Effects: []string{"write", "protected"}},
		{Text: "cat " + w.home + "/.ssh/id_ed25519", Effects: []string{"read", "secret"}, Asks: true},
		{Text: `$'c\u00a0at' x`, Effects: []string{"exec"}},
	}}
	if !strings.HasPrefix(got.Confinement, "bubblewrap") && !strings.HasPrefix(got.Confinement, "landlock") &&
		!strings.HasPrefix(got.Confinement, "none (") {
		t.Fatalf("confinement %q: want bubblewrap, landlock (why) or none (why)", got.Confinement)
	}
	want.Confinement = got.Confinement
	if g, _ := json.Marshal(got); string(g) != mustJSON(t, want) {
		t.Fatalf("got  %s\nwant %s", g, mustJSON(t, want))
	}
	if !strings.HasPrefix(r.stdout, `{"grammar":true,"steps":[{"text":"cat ../a.txt","effects":["read"],"asks":false}`) {
		t.Fatalf("JSON form: %s", r.stdout)
	}
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The user's shell.autoEffects decides what asks; a project file cannot
// widen it.
func TestCLI_check_follows_the_user_settings(t *testing.T) {
	w := newCheckWorld(t)
	w.settings(`{"shell.autoEffects": ["read"]}`)
	if err := os.MkdirAll(filepath.Join(w.root, ".eukhe"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(w.root, ".eukhe", "settings.json"),
		[]byte(`{"shell.autoEffects": ["read", "write", "exec"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r := w.check("cat ../a.txt\necho hi > out\nmake\n", "-")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"step 1: cat ../a.txt\n  effects: read\n  runs unasked\n",
		"step 2: echo hi > out\n  effects: read, write\n  asks: write not in shell.autoEffects\n",
		"step 3: make\n  effects: exec\n  asks: exec not in shell.autoEffects\n",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if !strings.Contains(r.stderr, "warning: "+filepath.Join(w.root, ".eukhe", "settings.json")+":1:2: shell.autoEffects is an execution gate") {
		t.Errorf("no warning about the project file: %s", r.stderr)
	}
}

func TestCLI_check_outside_the_grammar_and_errors(t *testing.T) {
	w := newCheckWorld(t)
	r := w.check("", "--cwd", w.root, "for f in *; do cat \"$f\"; done > ~/all.txt")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "outside the step grammar") ||
		!strings.Contains(r.stdout, "effects: read, write, exec, outside\n") {
		t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
	}
	w.settings("{\n  \"shell.autoEffects\": [\"read\",\n}")
	r = w.check("", "echo ok")
	if r.code != 0 || !strings.Contains(r.stderr, "settings.json:3:1: not valid JSON") {
		t.Fatalf("a broken settings file: exit %d: %s", r.code, r.stderr)
	}
	if r = w.check("", "echo 'unclosed"); r.code != 1 || !strings.Contains(r.stderr, "script line 1, column 6") {
		t.Fatalf("bad syntax: exit %d: %s", r.code, r.stderr)
	}
	if r = w.check("echo a\x00b", "-"); r.code != 1 || !strings.Contains(r.stderr, "NUL") {
		t.Fatalf("NUL: exit %d: %s", r.code, r.stderr)
	}
	if r = w.check(""); r.code != 2 || !strings.Contains(r.stderr, "no SCRIPT") {
		t.Fatalf("no script: exit %d: %s", r.code, r.stderr)
	}
	if r = w.check("", "--cwd", filepath.Join(w.root, "nope"), "ls"); r.code != 2 {
		t.Fatalf("missing --cwd: exit %d: %s", r.code, r.stderr)
	}
}

// eukhe check says what it does with each PATH entry that is not used as
// it is, and judges a command found in the workspace's bin exec.
func TestCLI_check_says_what_it_does_with_PATH(t *testing.T) {
	w := newCheckWorld(t)
	bin := filepath.Join(w.root, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "sort"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(w.home, ".local", "bin")
	r := w.checkEnv([]string{"PATH=.:bin::" + bin + ":" + missing + ":/usr/bin:/bin"}, "sort a; cat a")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"step 1: sort a\n  effects: read, exec\n",
		"step 2: cat a\n  effects: read\n",
		"PATH entry .: relative, dropped",
		"PATH entry bin: relative, dropped",
		`PATH entry "" (the working directory): relative, dropped`,
		"PATH entry " + bin + ": inside the workspace, kept; a command found there is exec",
		"PATH entry " + missing + ": missing, dropped",
	} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "PATH entry /usr/bin") {
		t.Errorf("an entry used as it is was named:\n%s", r.stdout)
	}
	r = w.checkEnv([]string{"PATH=bin:/usr/bin"}, "--json", "ls")
	if !strings.Contains(r.stdout, `"path":[{"entry":"bin","kind":"relative","kept":false,"exec":false}]`) {
		t.Errorf("JSON form: %s", r.stdout)
	}
}
