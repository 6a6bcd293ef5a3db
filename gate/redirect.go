package gate

import (
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// devNull are the redirection targets that add nothing.
var devNull = setOf("/dev/null", "/dev/stdin", "/dev/stdout", "/dev/stderr")

// redirect gives the parts of one redirection (S7.8) and its text: a
// write inside is write; outside, write and outside; protected, write and
// protected; a secret, write and secret. A read is read, and secret when
// its target is or holds one.
func (r *classifying) redirect(rd *syntax.Redirect, dirs []string) ([]Part, string) {
	n := ""
	if rd.N != nil {
		n = rd.N.Value
	}
	op := rd.Op.String()
	var parts []Part
	switch rd.Op {
	case syntax.Hdoc, syntax.DashHdoc, syntax.WordHdoc:
		// The body is data, not a path.
		return nil, n + op + " " + strings.Join(printedWords([]*syntax.Word{rd.Word}), "")
	}
	fs, ok := r.fields(rd.Word)
	target := strings.Join(fs, " ")
	if !ok || len(fs) != 1 {
		parts = append(parts, NewPart(Of(Exec), false, "a redirection whose target is not one word"))
	}
	text := n + op + " " + shownWord(target, ok)
	read, write := false, false
	switch rd.Op {
	case syntax.DplIn, syntax.DplOut:
		text = n + op + shownWord(target, ok)
		if target == "-" || isDigits(target) {
			return parts, text
		}
		read, write = rd.Op == syntax.DplIn, rd.Op == syntax.DplOut
	case syntax.RdrIn:
		read = true
	case syntax.RdrInOut:
		read, write = true, true
	default:
		write = true
	}
	if devNull[target] {
		return parts, text
	}
	for _, d := range dirs {
		rp := r.resolve(d, target)
		if _, ok := StreamFD(rp.Path); ok {
			// The step's own stream, under another name (proc.go).
			continue
		}
		cl := r.sh.Policy.ClassRead(rp)
		if write {
			cl = r.sh.Policy.ClassWrite(rp)
		}
		why := "redirection " + op + " " + Visible(rp.Path)
		first := len(parts)
		// A target that is or holds a secret gives secret (G2), whether
		// read or written.
		secret := cl == ClassSecret || r.sh.Policy.HoldsSecret(rp)
		if write {
			switch cl {
			case ClassInside:
				parts = append(parts, NewPart(Of(Write), secret, why))
			case ClassOutside:
				parts = append(parts, NewPart(Of(Write, Outside), secret, why))
			case ClassProtected:
				parts = append(parts, NewPart(Of(Write, Protected), secret, why))
			case ClassSecret:
				parts = append(parts, NewPart(Of(Write), true, why))
			}
		}
		if read {
			parts = append(parts, NewPart(Of(Read), secret, why))
		}
		for i := first; i < len(parts); i++ {
			parts[i].Redirected = rp.Path
		}
	}
	return parts, text
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
