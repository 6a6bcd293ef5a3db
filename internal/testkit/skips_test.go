package testkit

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// missingTool is a skip's message that says a tool is missing.
var missingTool = regexp.MustCompile(`not installed|does not work here|not on PATH|no \S+ on PATH|needs [a-z]`)

// skipCall is a call that skips a test or a benchmark.
var skipCall = regexp.MustCompile(`\b[a-z]+\.Skip(f|Now)?\(`)

// Every test that needs a tool the machine lacks goes through Missing (or
// MissingPart): a skip here, a failure where the tools are required
// (EUKHE_REQUIRE_TOOLS or CI). A t.Skip that says a tool is missing never
// fails, and a test reading CI itself ignores EUKHE_REQUIRE_TOOLS; both
// are found here in every Go test file of the module. (A skip for a
// privilege, "needs root", is not a tool's.)
func TestEveryMissingToolGoesThroughMissing(t *testing.T) {
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n == "node_modules" || n == ".git" || strings.HasPrefix(n, ".nvim-") {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, path)
		if !strings.HasSuffix(path, "_test.go") || filepath.ToSlash(filepath.Dir(rel)) == "internal/testkit" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if strings.Contains(line, `os.Getenv("CI")`) {
				t.Errorf("%s:%d reads CI itself (EUKHE_REQUIRE_TOOLS is not honoured): use testkit.Missing", rel, i+1)
			}
			if skipCall.MatchString(line) && missingTool.MatchString(line) && !strings.Contains(line, "needs root") {
				t.Errorf("%s:%d skips for a missing tool, which never fails in CI: use testkit.Missing\n\t%s", rel, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
