package docs

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// oracleTree writes a workspace with the text grep must get right:
// multi-byte text, CRLF and LF files, BOMs, no final ending, hidden files,
// nested and ignored directories, and a binary file.
func oracleTree(t *testing.T) string {
	root := t.TempDir()
	lines := []string{
		"package main", "", "import \"fmt\"", "func main() {", "\tfmt.Println(\"Hello, World\")", "}",
		"func parseError(s string) error { return nil }", "var ErrUnexpectedEOF = errors.New(\"unexpected EOF\")",
		"// TODO: fix the FOO_RESUME and BAR_RESUME paths", "const MAX_SIZE = 4096", "x := a.b(c)",
		"héllo wörld", "日本語のテキスト", "Straße STRASSE strasse", "emoji 🙂 here", "naïve café résumé",
		"tab\there", "trailing space ", "a.b*c+d?e", "[brackets] (parens) {braces}", "dollar $HOME and ^caret",
		"ERROR: disk full", "error: lower case", "Error: Mixed", "foo_bar_baz", "fooBar", "0x1F 0755 1e10",
		"word boundary: cat catalog concat", "path/to/file.go:12:3", "email@example.com", "",
		"ΑΒΓ αβγ Ωmega", "Ünïcödé ÜNÏCÖDÉ", "line with \\backslash\\", "quote's and \"quotes\"",
	}
	write := func(rel string, content string) {
		t.Helper()
		mustWrite(t, filepath.Join(root, rel), content)
	}
	for i := range 30 {
		dir := []string{"", "src", "src/pkg", "docs", ".hidden", "deep/a/b/c"}[i%6]
		var b strings.Builder
		if i%7 == 3 {
			b.WriteString("\uFEFF")
		}
		ending := "\n"
		if i%5 == 2 {
			ending = "\r\n"
		}
		for j := range 20 + i {
			l := lines[(i*7+j*3)%len(lines)]
			if j%11 == 5 {
				l = fmt.Sprintf("%s %d", l, i*j)
			}
			b.WriteString(l)
			if j < 19+i || i%4 != 1 {
				b.WriteString(ending)
			}
		}
		write(filepath.Join(dir, fmt.Sprintf("f%02d.txt", i)), b.String())
	}
	write(".gitignore", "ignored/\n*.skip\n")
	write("ignored/x.txt", "ErrUnexpectedEOF in an ignored file\n")
	write("a.skip", "ErrUnexpectedEOF in a skipped file\n")
	write("bin.dat", "ErrUnexpectedEOF\x00\x01\x02 binary\n")
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root
}

type oracleCase struct {
	pattern    string
	rg         string // the same pattern in rg's syntax, when it differs
	literal    bool
	ignoreCase bool
}

// Go's \w, \d, \s and \b are ASCII; rg's are Unicode unless (?-u).
var oracleCases = []oracleCase{
	{pattern: "ErrUnexpectedEOF"},
	{pattern: "ErrUnexpectedEOF", literal: true},
	{pattern: "errunexpectedeof", ignoreCase: true},
	{pattern: "[A-Z]+_RESUME"},
	{pattern: `\w+Error\(`, rg: `(?-u:\w)+Error\(`},
	{pattern: `^func `},
	{pattern: `\)$`},
	{pattern: `^$`},
	{pattern: `^}$`},
	{pattern: "World|wörld"},
	{pattern: "héllo"},
	{pattern: "日本語"},
	{pattern: `\p{Han}+`},
	{pattern: `\p{Greek}`},
	{pattern: "straße", ignoreCase: true},
	{pattern: "ünïcödé", ignoreCase: true},
	{pattern: "🙂"},
	{pattern: "a.b*c+d?e", literal: true},
	{pattern: "a.b*c+d?e"},
	{pattern: `\[brackets\]`},
	{pattern: "[brackets]", literal: true},
	{pattern: `\$HOME`},
	{pattern: `\^caret`},
	{pattern: `(?i)error:`},
	{pattern: "ERROR|Error"},
	{pattern: `\bcat\b`, rg: `(?-u:\b)cat(?-u:\b)`},
	{pattern: `0x[0-9A-F]+`},
	{pattern: `\d{4}`, rg: `(?-u:\d){4}`},
	{pattern: `[[:upper:]]{3,}_`},
	{pattern: `foo(Bar|_bar)`},
	{pattern: `\t`},
	{pattern: `space $`},
	{pattern: `\\backslash\\`},
	{pattern: `'s and "`},
	{pattern: `[^\x00-\x7F]`},
	{pattern: `.`},
	{pattern: "e", ignoreCase: true},
	{pattern: "naïve café", literal: true},
	{pattern: "Ω", ignoreCase: true},
	{pattern: "x := a.b(c)", literal: true},
	{pattern: `(fmt|errors)\.[A-Z]\w*`, rg: `(fmt|errors)\.[A-Z](?-u:\w)*`},
	{pattern: "nomatchanywhere"},
}

// TestGrepMatchesRipgrep: over the same tree, grep's walk and matcher find
// exactly the lines rg finds (hidden files searched, .gitignore honoured,
// binary files skipped, CRLF lines matched as lines).
func TestGrepMatchesRipgrep(t *testing.T) {
	rg, err := exec.LookPath("rg")
	if err != nil {
		testkit.Missing(t, "rg (ripgrep) is not installed: the oracle cannot run here (CI installs it)")
	}
	if len(oracleCases) < 30 {
		t.Fatalf("the oracle needs at least 30 patterns, has %d", len(oracleCases))
	}
	root := oracleTree(t)
	tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
	for _, c := range oracleCases {
		name := fmt.Sprintf("%q literal=%v i=%v", c.pattern, c.literal, c.ignoreCase)
		args := []string{"-n", "--hidden", "--no-require-git", "--crlf", "--no-config", "--no-messages", "-g", "!.git"}
		if c.literal {
			args = append(args, "-F")
		}
		if c.ignoreCase {
			args = append(args, "-i")
		}
		rgPattern := c.pattern
		if c.rg != "" {
			rgPattern = c.rg
		}
		cmd := exec.Command(rg, append(args, "-e", rgPattern, ".")...)
		cmd.Dir = root
		out, err := cmd.Output()
		if err != nil && len(out) > 0 {
			t.Fatalf("%s: rg: %v", name, err)
		}
		var want []string
		for l := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
			if l == "" {
				continue
			}
			parts := strings.SplitN(l, ":", 3)
			want = append(want, strings.TrimPrefix(parts[0], "./")+":"+parts[1])
		}
		m, err := NewLineMatcher(c.pattern, c.literal, c.ignoreCase)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var mu sync.Mutex
		var got []string
		tools.walkTree(context.Background(), root, false, func(abs, rel, shown string) WalkClass {
			src, err := os.ReadFile(abs)
			if err != nil || strings.ContainsRune(string(src[:min(len(src), binaryBlock)]), 0) {
				return Binary
			}
			m.Each(src, func(line int, _ []byte) bool {
				mu.Lock()
				got = append(got, fmt.Sprintf("%s:%d", shown, line))
				mu.Unlock()
				return true
			})
			return Searched
		})
		slices.Sort(want)
		slices.Sort(got)
		t.Logf("%s: %d lines", name, len(want))
		if !slices.Equal(got, want) {
			t.Errorf("%s: grep and rg disagree\ngrep only: %v\nrg only:   %v", name, minus(got, want), minus(want, got))
		}
	}
}

func minus(a, b []string) []string {
	var out []string
	for _, x := range a {
		if !slices.Contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}
