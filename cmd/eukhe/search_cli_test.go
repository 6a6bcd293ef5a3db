package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// grep finds lines as read rows with the tag of the bytes it searched; an
// edit straight from a grep applies; the rest of the walk is accounted for.
func TestCLI_grep_then_edit(t *testing.T) {
	w := newWS(t)
	w.put("src/a.go", []byte("package a\r\n\r\nfunc Alpha() error { return nil }\r\n"), 0o644)
	w.put("src/b.go", []byte("package b\n\nfunc beta() {}\n"), 0o644)
	w.put("bin.dat", []byte("func\x00binary"), 0o644)
	w.put(".gitignore", []byte("gen/\n"), 0o644)
	w.put("gen/c.go", []byte("func Gamma() error\n"), 0o644)
	r := w.tool("grep", map[string]any{"pattern": `func \w+\(\) error`})
	if r.code != 0 {
		t.Fatalf("grep: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	m := headerTag.FindStringSubmatch(r.stdout)
	if m == nil || m[1] != "src/a.go" || !strings.Contains(r.stdout, "\n3:func Alpha() error { return nil }\n") {
		t.Fatalf("grep did not show src/a.go line 3 as a read row:\n%s", r.stdout)
	}
	for _, want := range []string{"1 binary file not searched", "1 entry ignored by .gitignore", "1 match in 1 file;"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("grep output lacks %q:\n%s", want, r.stdout)
		}
	}
	patch := fmt.Sprintf("[src/a.go#%s]\n@@ 3\n+func Alpha() error { return errNope }\n", m[2])
	e := w.tool("edit", map[string]any{"patch": patch})
	if e.code != 0 {
		t.Fatalf("edit from a grep: exit %d\n%s", e.code, e.stdout)
	}
	if got := string(w.get("src/a.go")); got != "package a\r\n\r\nfunc Alpha() error { return errNope }\r\n" {
		t.Fatalf("src/a.go is %q", got)
	}
	all := w.tool("grep", map[string]any{"pattern": "Gamma", "noIgnore": true})
	if !strings.Contains(all.stdout, "gen/c.go") {
		t.Fatalf("noIgnore did not search the ignored directory:\n%s", all.stdout)
	}
}

func TestCLI_grep_bad_pattern_says_where(t *testing.T) {
	w := newWS(t)
	w.put("a.txt", []byte("x\n"), 0o644)
	r := w.tool("grep", map[string]any{"pattern": "a(b"})
	if r.code != 1 || !strings.Contains(r.stdout, "missing closing )") || !strings.Contains(r.stdout, "literal") {
		t.Fatalf("bad pattern: exit %d\n%s", r.code, r.stdout)
	}
}

// One file: 200 matches, then a line range continues it.
func TestCLI_grep_one_file_continues_by_range(t *testing.T) {
	w := newWS(t)
	w.put("many.txt", []byte(strings.Repeat("hit\n", 450)), 0o644)
	r := w.tool("grep", map[string]any{"pattern": "hit", "path": "many.txt"})
	if !strings.Contains(r.stdout, "[200 of 450 matches shown; grep many.txt:201- for the next]") {
		t.Fatalf("first page:\n%s", r.stdout[len(r.stdout)-200:])
	}
	r = w.tool("grep", map[string]any{"pattern": "hit", "path": "many.txt:201-"})
	if !strings.HasPrefix(strings.SplitN(r.stdout, "\n", 3)[1], "201:hit") || !strings.Contains(r.stdout, "grep many.txt:401- for the next") {
		t.Fatalf("second page:\n%s", r.stdout)
	}
}

func TestCLI_glob_newest_first(t *testing.T) {
	w := newWS(t)
	for i, name := range []string{"old_test.go", "sub/mid_test.go", "sub/deeper/new_test.go", "main.go"} {
		w.put(name, []byte("package x\n"), 0o644)
		when := time.Now().Add(time.Duration(i-10) * time.Minute)
		os.Chtimes(filepath.Join(w.root, name), when, when)
	}
	r := w.tool("glob", map[string]any{"pattern": "**/*_test.go"})
	want := "sub/deeper/new_test.go\nsub/mid_test.go\nold_test.go\n[3 files match"
	if r.code != 0 || !strings.HasPrefix(r.stdout, want) {
		t.Fatalf("glob: exit %d\n%s", r.code, r.stdout)
	}
	r = w.tool("glob", map[string]any{"pattern": "**/*_test.go", "limit": 2})
	if !strings.Contains(r.stdout, "glob with skip=2 for the next") {
		t.Fatalf("glob limit 2 does not say how to go on:\n%s", r.stdout)
	}
	r = w.tool("glob", map[string]any{"pattern": "**/*_test.go", "skip": 9})
	if !strings.Contains(r.stdout, "[skip=9 is past the end: there are 3 paths]") {
		t.Fatalf("glob past the end:\n%s", r.stdout)
	}
}
