package docs

import (
	"fmt"
	"strconv"
	"strings"
)

// OpKind is what an @@ line asks for.
type OpKind uint8

const (
	OpReplace      OpKind = iota // @@ A-B (or @@ A): replace lines A..B; no + lines deletes them
	OpInsertAfter                // @@ A>
	OpInsertBefore               // @@ A<
	OpStart                      // @@ ^
	OpEnd                        // @@ $
)

// Op is one @@ of a section, with the + lines that follow it.
type Op struct {
	Kind  OpKind
	A, B  int // lines, in the version the section's tag names
	Lines []string
	At    int // the patch line of the @@
}

// Section is one [path#TAG] (or tagless [path]) part of a patch.
type Section struct {
	Path   string
	Tag    Tag
	Tagged bool
	Ops    []Op
	Move   string   // MV destination, "" for none
	Create []string // a tagless section: the new file's lines
	At     int      // the patch line of the header
}

// PatchError is a patch that does not parse: the patch line and what was
// expected there. Nothing is written.
type PatchError struct {
	Line int
	Msg  string
}

func (e *PatchError) Error() string {
	return fmt.Sprintf("patch line %d: %s. Nothing was written.", e.Line, e.Msg)
}

// ParsePatch reads the patch language of DESIGN.md §3.2.
func ParsePatch(patch string) ([]Section, error) {
	var secs []Section
	var cur *Section
	var op *Op
	moved := false
	lines := strings.Split(patch, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, raw := range lines {
		n := i + 1
		line := strings.TrimSuffix(raw, "\r")
		fail := func(format string, a ...any) error {
			return &PatchError{Line: n, Msg: fmt.Sprintf(format, a...)}
		}
		switch {
		case strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") && len(line) > 2:
			s, err := parseHeader(line[1:len(line)-1], n)
			if err != nil {
				return nil, err
			}
			secs = append(secs, s)
			cur, op, moved = &secs[len(secs)-1], nil, false
		case cur == nil:
			if strings.TrimSpace(line) == "" {
				continue
			}
			return nil, fail("expected a section header like [path#TAG] (the tag a read showed) or [path] to create a file; got %q", cut(line))
		case strings.HasPrefix(line, "+"):
			switch {
			case moved:
				return nil, fail("+ lines must come before MV; put MV last in its section")
			case !cur.Tagged:
				cur.Create = append(cur.Create, line[1:])
			case op == nil:
				return nil, fail("a + line must follow an @@ line (@@ A-B, @@ A>, @@ A<, @@ ^ or @@ $)")
			default:
				op.Lines = append(op.Lines, line[1:])
			}
		case strings.HasPrefix(line, "@@"):
			if !cur.Tagged {
				return nil, fail("a section without a tag creates a file from its + lines and has no @@; to edit %s, read it and use its [path#TAG] header", cur.Path)
			}
			if moved {
				return nil, fail("@@ after MV; put MV last in its section")
			}
			o, err := parseOp(strings.TrimSpace(line[2:]), n)
			if err != nil {
				return nil, err
			}
			cur.Ops = append(cur.Ops, o)
			op = &cur.Ops[len(cur.Ops)-1]
		case strings.HasPrefix(line, "MV ") || line == "MV":
			dest := strings.TrimSpace(strings.TrimPrefix(line, "MV"))
			switch {
			case !cur.Tagged:
				return nil, fail("MV needs a file that exists: give the section the tag a read showed, [%s#TAG]", cur.Path)
			case moved:
				return nil, fail("a section has one MV")
			case dest == "":
				return nil, fail("MV needs a destination path: MV new/path")
			}
			cur.Move, moved, op = dest, true, nil
		case strings.TrimSpace(line) == "":
			continue
		case strings.HasPrefix(line, "-") || strings.HasPrefix(line, " "):
			return nil, fail("expected + line, @@, MV or a [path#TAG] header; got %q. Lines are replaced by number (@@ 5-7 then the new + lines), not by - or context lines", cut(line))
		default:
			return nil, fail("expected + line, @@, MV or a [path#TAG] header; got %q", cut(line))
		}
	}
	if len(secs) == 0 {
		return nil, &PatchError{Line: 1, Msg: "empty patch: expected a section header like [path#TAG]"}
	}
	for _, s := range secs {
		if s.Tagged && len(s.Ops) == 0 && s.Move == "" {
			return nil, &PatchError{Line: s.At, Msg: fmt.Sprintf("section [%s#%s] has no @@ and no MV: nothing to do", s.Path, s.Tag)}
		}
	}
	return secs, nil
}

func parseHeader(in string, n int) (Section, error) {
	s := Section{Path: in, At: n}
	if i := strings.LastIndexByte(in, '#'); i >= 0 {
		t := in[i+1:]
		if isHex(t) || t == "" || t == "TAG" {
			tag, err := ParseTag(t)
			if err != nil {
				return s, &PatchError{Line: n, Msg: err.Error()}
			}
			s.Path, s.Tag, s.Tagged = in[:i], tag, true
		}
	}
	if strings.TrimSpace(s.Path) == "" {
		return s, &PatchError{Line: n, Msg: "section header names no path: expected [path#TAG]"}
	}
	return s, nil
}

func parseOp(spec string, n int) (Op, error) {
	o := Op{At: n}
	bad := func() (Op, error) {
		return o, &PatchError{Line: n, Msg: fmt.Sprintf("expected @@ A-B, @@ A, @@ A>, @@ A<, @@ ^ or @@ $; got %q", cut("@@ "+spec))}
	}
	switch {
	case spec == "^":
		o.Kind = OpStart
		return o, nil
	case spec == "$":
		o.Kind = OpEnd
		return o, nil
	case strings.HasSuffix(spec, ">") || strings.HasSuffix(spec, "<"):
		a, err := lineNumber(strings.TrimSpace(spec[:len(spec)-1]))
		if err != nil {
			return bad()
		}
		o.Kind, o.A, o.B = OpInsertAfter, a, a
		if spec[len(spec)-1] == '<' {
			o.Kind = OpInsertBefore
		}
		return o, nil
	}
	as, bs, dash := strings.Cut(spec, "-")
	a, err := lineNumber(strings.TrimSpace(as))
	if err != nil {
		return bad()
	}
	b := a
	if dash {
		if b, err = lineNumber(strings.TrimSpace(bs)); err != nil {
			return bad()
		}
		if b < a {
			return o, &PatchError{Line: n, Msg: fmt.Sprintf("range %d-%d runs backwards: write @@ %d-%d", a, b, b, a)}
		}
	}
	o.Kind, o.A, o.B = OpReplace, a, b
	return o, nil
}

func lineNumber(s string) (int, error) {
	v, err := strconv.Atoi(s)
	if err != nil || v < 1 {
		return 0, fmt.Errorf("not a line number")
	}
	return v, nil
}

func isHex(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// cut shortens a patch line for an error message, on a character boundary.
func cut(s string) string {
	if len(s) > 80 {
		return strings.ToValidUTF8(s[:77], "") + "..."
	}
	return s
}
