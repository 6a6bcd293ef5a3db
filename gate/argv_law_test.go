package gate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
	"pgregory.net/rapid"
)

// An argv judged as it runs (ClassifyArgv) is judged as the same words
// written one by one in quotes: its words are data, so no glob, tilde,
// variable, quote or operator in a word changes what the step does or
// what it is judged to do. Where a word cannot be quoted (a NUL byte) the
// line is not judged at all, and the caller takes it as every effect.
func TestLaw_an_argv_is_judged_as_its_words_quoted(t *testing.T) {
	_, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("k"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	p := r14policy(home, root)
	sh := &Shell{Policy: p, Dir: root, Env: map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}, ReadDir: os.ReadDir}
	words := []string{"cat", "cp", "rm", "ls", "sed", "-i", "-n", "--pre=sh", "a.txt", "*", "~/.ssh/id_ed25519",
		"$HOME", "`id`", "$(id)", ".git/hooks/pre-commit", "/etc/passwd", "a b", "'", "\"", ";", "|", "&&",
		">x", "\\", "\n", "é", "\x00", "", "{a,b}", "!", "#c", "git", "config", "core.hooksPath", "x"}
	rapid.Check(t, func(rt *rapid.T) {
		argv := rapid.SliceOfN(rapid.SampledFrom(words), 1, 5).Draw(rt, "argv")
		got, ok := sh.ClassifyArgv(argv)
		quoted := make([]string, len(argv))
		quotable := true
		for i, a := range argv {
			q, err := syntax.Quote(a, syntax.LangBash)
			if err != nil {
				quotable = false
				break
			}
			quoted[i] = q
		}
		if !quotable {
			if ok {
				rt.Fatalf("%q holds a word no quote can hold, yet it was judged: %v", argv, got.Effects)
			}
			return
		}
		if !ok {
			rt.Fatalf("%q was not judged", argv)
		}
		sc, err := sh.Classify(strings.Join(quoted, " "))
		if err != nil || len(sc.Steps) != 1 {
			rt.Fatalf("the quoted text %q: %v, %d steps", strings.Join(quoted, " "), err, len(sc.Steps))
		}
		want := sc.Steps[0]
		if got.Effects != want.Effects || !slices.Equal(got.Argv, want.Argv) || !slices.Equal(got.Reals, want.Reals) {
			rt.Fatalf("%q judged as data: %v %q %q; as quoted text: %v %q %q",
				argv, got.Effects, got.Argv, got.Reals, want.Effects, want.Argv, want.Reals)
		}
		if !slices.Equal(got.Argv, argv) {
			rt.Fatalf("%q became the argv %q", argv, got.Argv)
		}
	})
}

// Each step names where it sits in the tree it was classified from, and
// each pipeline the statement it is: a runner looks a running command up
// by position (Step.At) and a statement by pointer (Script.Pipelines),
// never by its text. Steps of one pipeline share its statement; the step's
// command word is at At.
func TestLaw_steps_name_their_place_in_the_tree(t *testing.T) {
	_, home, root := redHome(t)
	sh := &Shell{Policy: r14policy(home, root), Dir: root, Env: map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}}
	cmds := []string{"ls", "echo hi", "cat a.txt", "wc -l", "true", "x=1", "grep -n a", "export A=b"}
	joins := []string{" | ", " && ", " || ", "; ", "\n"}
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, 6).Draw(rt, "n")
		src := rapid.SampledFrom(cmds).Draw(rt, "cmd0")
		for i := 1; i < n; i++ {
			src += rapid.SampledFrom(joins).Draw(rt, "join") + rapid.SampledFrom(cmds).Draw(rt, "cmd")
		}
		f, err := Parse(src)
		if err != nil {
			rt.Fatalf("%q: %v", src, err)
		}
		sc := sh.ClassifyFile(f)
		if !sc.Grammar {
			rt.Fatalf("%q is outside the grammar", src)
		}
		// the command words in the order the tree holds them
		var at []syntax.Pos
		stmtOf := map[syntax.Pos]*syntax.Stmt{}
		var walk func(s *syntax.Stmt, top *syntax.Stmt)
		walk = func(s *syntax.Stmt, top *syntax.Stmt) {
			if b, ok := s.Cmd.(*syntax.BinaryCmd); ok {
				if b.Op == syntax.Pipe {
					if top == nil {
						top = s
					}
					walk(b.X, top)
					walk(b.Y, top)
					return
				}
				walk(b.X, nil)
				walk(b.Y, nil)
				return
			}
			if top == nil {
				top = s
			}
			pos := s.Pos()
			if c, ok := s.Cmd.(*syntax.CallExpr); ok && len(c.Args) > 0 {
				pos = c.Args[0].Pos()
			}
			at = append(at, pos)
			stmtOf[pos] = top
		}
		for _, s := range f.Stmts {
			walk(s, nil)
		}
		if len(at) != len(sc.Steps) {
			rt.Fatalf("%q: %d steps, %d commands in the tree", src, len(sc.Steps), len(at))
		}
		for i, st := range sc.Steps {
			if st.At.IsValid() && st.At != at[i] {
				rt.Fatalf("%q: step %d (%s) says it is at %s, the tree's command %d is at %s", src, i, st.Text, st.At, i, at[i])
			}
			if sc.Pipelines[st.Pipeline] != stmtOf[at[i]] {
				rt.Fatalf("%q: step %d (%s) is in pipeline %d, not the statement that holds it", src, i, st.Text, st.Pipeline)
			}
		}
	})
}
