package docs

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"

	"pgregory.net/rapid"
)

// ignorePatterns are the .gitignore lines the oracle test draws from:
// names, extensions, anchored paths, directory-only patterns, negations,
// ** in every position, classes and ?.
var ignorePatterns = []string{
	"*.log", "!keep.log", "build/", "/top.txt", "cache", "**/cache", "docs/**/*.tmp",
	"a?c.txt", "[ab]*.md", "sub/*.txt", "*.o", "!*.o", "deep/**", "x/y/", "**/z.txt",
	"# a comment", "", "!important/", "*.md", "!b*.md", "out", "/sub", "tmp*",
	"sub/**/*.txt", "/deep/", "!/top.txt", "*/*.md", "x/**/y", "!cache", "*.txt ", "**/sub/", "[!a]*.log",
}

var ignoreNames = []string{
	"keep.log", "x.log", "top.txt", "abc.txt", "a.md", "b.md", "c.md", "z.txt",
	"f.o", "tmpfile", "plain.go", "out",
}

var ignoreDirs = []string{"build", "cache", "docs", "sub", "deep", "x", "y", "important", "out", "tmpd"}

// TestIgnoreMatchesGit: the walk leaves out exactly what git leaves out — its
// set of files equals `git ls-files --others --exclude-standard` on random
// trees with nested .gitignore files and .git/info/exclude.
func TestIgnoreMatchesGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testkit.Missing(t, "git is not installed: the oracle cannot run (CI installs it)")
	}
	root := t.TempDir()
	rapid.Check(t, func(rt *rapid.T) {
		clearTree(rt, root)
		git := func(args ...string) string {
			cmd := exec.Command("git", args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
			out, err := cmd.CombinedOutput()
			if err != nil {
				rt.Fatalf("git %v: %v\n%s", args, err, out)
			}
			return string(out)
		}
		if !fileExists(filepath.Join(root, ".git")) {
			git("init", "-q")
		}
		os.Remove(filepath.Join(root, ".git", "info", "exclude"))
		dirs := []string{"."}
		for range rapid.IntRange(0, 8).Draw(rt, "ndirs") {
			parent := rapid.SampledFrom(dirs).Draw(rt, "parent")
			d := filepath.Join(parent, rapid.SampledFrom(ignoreDirs).Draw(rt, "dir"))
			if strings.Count(d, "/") < 4 && !slices.Contains(dirs, d) {
				dirs = append(dirs, d)
			}
		}
		for _, d := range dirs {
			mustMkdir(rt, filepath.Join(root, d))
			for range rapid.IntRange(0, 4).Draw(rt, "nfiles") {
				name := rapid.SampledFrom(ignoreNames).Draw(rt, "file")
				if !slices.Contains(dirs, filepath.Join(d, name)) {
					mustWrite(rt, filepath.Join(root, d, name), "x\n")
				}
			}
			if rapid.Bool().Draw(rt, "hasIgnore") {
				lines := rapid.SliceOfN(rapid.SampledFrom(ignorePatterns), 1, 5).Draw(rt, "patterns")
				mustWrite(rt, filepath.Join(root, d, ".gitignore"), strings.Join(lines, "\n")+"\n")
			}
		}
		if rapid.Bool().Draw(rt, "exclude") {
			lines := rapid.SliceOfN(rapid.SampledFrom(ignorePatterns), 1, 3).Draw(rt, "exclude patterns")
			mustWrite(rt, filepath.Join(root, ".git", "info", "exclude"), strings.Join(lines, "\n")+"\n")
		}
		var want []string
		for l := range strings.SplitSeq(git("ls-files", "--others", "--exclude-standard", "-z"), "\x00") {
			if l != "" {
				want = append(want, l)
			}
		}
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		var mu sync.Mutex
		var got []string
		tools.walkTree(context.Background(), root, false, func(abs, rel, shown string) WalkClass {
			mu.Lock()
			got = append(got, shown)
			mu.Unlock()
			return Searched
		})
		slices.Sort(want)
		slices.Sort(got)
		if !slices.Equal(got, want) {
			rt.Fatalf("walk and git disagree\nwalk: %q\ngit:  %q\n.gitignore files:\n%s", got, want, dumpIgnores(root))
		}
	})
}

// clearTree removes everything in root but .git.
func clearTree(t interface{ Fatalf(string, ...any) }, root string) {
	es, _ := os.ReadDir(root)
	for _, e := range es {
		if e.Name() != ".git" {
			if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
				t.Fatalf("%v", err)
			}
		}
	}
}

func dumpIgnores(root string) string {
	var b strings.Builder
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && (d.Name() == ".gitignore" || strings.HasSuffix(p, "info/exclude")) {
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			b.WriteString("== " + rel + "\n" + string(data))
		}
		return nil
	})
	return b.String()
}

func mustMkdir(t interface{ Fatalf(string, ...any) }, dir string) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatalf("%v", err)
	}
}

func mustWrite(t interface{ Fatalf(string, ...any) }, path, content string) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatalf("%v", err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatalf("%v", err)
	}
}
