package gate

import (
	"bytes"
	"io"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
)

// cfg is the expansion config: the run's environment, globbing when the
// shell has ReadDir. Command and process substitutions occur only outside
// the grammar, where each command inside is a part of its own; their
// output is not known here and counts as empty. A process substitution
// is a pipe the shell makes for the step (a FIFO of the run's own): it
// names no place, and stands here as a stream's alias, which adds nothing
// (StreamFD). As /dev/fd/63 it was a secret, /dev/fd being /proc/self/fd,
// so every `diff <(…) <(…)` asked about secret, and an approval given so
// routinely covered every secret the script touched (the twenty-ninth red
// team's).
func (r *classifying) cfg() *expand.Config {
	return &expand.Config{
		Env:       r.env,
		ReadDir2:  r.sh.ReadDir,
		CmdSubst:  func(io.Writer, *syntax.CmdSubst) error { return nil },
		ProcSubst: func(*syntax.ProcSubst) (string, error) { return "/dev/stdin", nil },
	}
}

// fields expands words to the fields a command gets (expand.Fields, never
// Word.Lit: `sed -\i` is `sed -i`). ok is false when they cannot be
// expanded; then the words are given as written.
func (r *classifying) fields(words ...*syntax.Word) (out []string, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = printedWords(words), false
		}
	}()
	for f, err := range expand.FieldsSeq(r.cfg(), words...) {
		if err != nil {
			return printedWords(words), false
		}
		if len(out) == maxFields {
			// More words than anyone reads: the step is exec, shown as
			// written.
			return printedWords(words), false
		}
		if brokenMarker(f) {
			// An expansion cut a runtime-only parameter apart
			// (${RANDOM:0:1}): the gate cannot tell the word.
			return printedWords(words), false
		}
		out = append(out, f)
	}
	return out, true
}

// maxFields bounds the words one step expands to ({1..99999999}).
const maxFields = 4096

// literal expands an assignment's value (no field splitting, no globbing).
func (r *classifying) literal(w *syntax.Word) (out string, ok bool) {
	defer func() {
		if recover() != nil {
			out, ok = printedWords([]*syntax.Word{w})[0], false
		}
	}()
	s, err := expand.Literal(r.cfg(), w)
	if err != nil || brokenMarker(s) {
		return printedWords([]*syntax.Word{w})[0], false
	}
	return s, true
}

func printedWords(words []*syntax.Word) []string {
	var out []string
	for _, w := range words {
		var b bytes.Buffer
		if w != nil {
			syntax.NewPrinter().Print(&b, w)
		}
		out = append(out, b.String())
	}
	return out
}
