package gate

import (
	"path"
	"strings"
)

// sedLong are every long option of GNU sed; sedAllowed those the gate
// lets through (S7.8: -n -E -r -s -u -z -e -i and their long forms).
var (
	sedLong = []string{"quiet", "silent", "debug", "expression", "file", "follow-symlinks",
		"in-place", "line-length", "null-data", "zero-terminated", "posix", "regexp-extended",
		"separate", "sandbox", "unbuffered", "binary", "help", "version"}
	sedAllowed = setOf("quiet", "silent", "expression", "in-place", "null-data", "zero-terminated",
		"regexp-extended", "separate", "unbuffered")
)

// sedFacts: sed reads; with -i it writes. Each script must be a known-safe
// form, and every option one of the allowed; else sed is exec (its w, W,
// e, r and R commands, the w and e flags of s, -f, …).
func sedFacts(args []string) facts {
	var scripts, operands []string
	inPlace, other := false, false
	var suffixes []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "--":
			operands = append(operands, args[i+1:]...)
			i = len(args)
		case strings.HasPrefix(w, "--"):
			name, v, has := strings.Cut(w[2:], "=")
			ms := (optSpec{known: sedLong}).longMatches(name)
			if len(ms) != 1 || !sedAllowed[ms[0]] {
				other = true
				continue
			}
			switch ms[0] {
			case "in-place":
				inPlace = true
				if has && v != "" {
					suffixes = append(suffixes, v)
				}
			case "expression":
				if !has && i+1 < len(args) {
					i++
					v = args[i]
				}
				scripts = append(scripts, v)
			}
		case len(w) > 1 && w[0] == '-':
		group:
			for j := 1; j < len(w); j++ {
				switch w[j] {
				case 'n', 'E', 'r', 's', 'u', 'z':
				case 'i':
					inPlace = true
					if j+1 < len(w) {
						suffixes = append(suffixes, w[j+1:])
					}
					break group
				case 'e':
					if j+1 < len(w) {
						scripts = append(scripts, w[j+1:])
					} else if i+1 < len(args) {
						i++
						scripts = append(scripts, args[i])
					}
					break group
				default:
					other = true
					break group
				}
			}
		default:
			operands = append(operands, w)
		}
	}
	files := operands
	if len(scripts) == 0 && len(operands) > 0 {
		scripts = operands[:1]
		files = operands[1:]
	}
	f := facts{own: Of(Read), derived: sedBackups(suffixes, files)}
	if inPlace {
		f.own = f.own.With(Write)
	}
	if other || !SafeSed(strings.Join(scripts, "\n")) {
		f.own = f.own.With(Exec)
	}
	return f
}

// sedBackups are the names sed -i SUFFIX gives the files' backups (red
// team): FILE+SUFFIX, or, when SUFFIX holds "*", SUFFIX with each "*"
// replaced by the file's base name, taken both from the working
// directory and from the file's own (sed -it on a/b/.gi makes a/b/.git).
func sedBackups(suffixes, files []string) []string {
	var out []string
	for _, suf := range suffixes {
		for _, f := range files {
			if !strings.Contains(suf, "*") {
				out = append(out, f+suf)
				continue
			}
			base := path.Base(f)
			name := strings.ReplaceAll(suf, "*", base)
			out = append(out, name, path.Join(path.Dir(f), name))
		}
	}
	return out
}

// SafeSed reports whether a sed script uses only the safe forms (S7.8):
// the commands p P d D q Q = n N g G h H x { }, s with the flags g i I m M
// p and a number, and y; addresses N, $ and /regex/, a range of two, and
// !. It reads the script as GNU sed does, and says no to anything else.
func SafeSed(script string) bool {
	p := &sedReader{s: script}
	depth := 0
	for {
		p.skip(" \t\n;")
		if p.end() {
			return depth == 0
		}
		if !p.address() {
			return false
		}
		p.skip(" \t")
		if p.peek() == ',' {
			p.i++
			p.skip(" \t")
			if !p.address() || p.i == p.last {
				return false
			}
			p.skip(" \t")
		}
		if p.peek() == '!' {
			p.i++
			p.skip(" \t")
		}
		if p.end() {
			return false
		}
		c := p.s[p.i]
		p.i++
		switch c {
		case 'p', 'P', 'd', 'D', '=', 'n', 'N', 'g', 'G', 'h', 'H', 'x':
		case 'q', 'Q':
			p.skip(" \t")
			p.skip("0123456789")
		case '{':
			depth++
			continue
		case '}':
			if depth--; depth < 0 {
				return false
			}
		case 's':
			if !p.substitute() {
				return false
			}
		case 'y':
			d, ok := p.delimiter()
			if !ok || !p.delimited(d) || !p.delimited(d) {
				return false
			}
		default:
			return false
		}
		p.skip(" \t")
		if !p.end() && !strings.ContainsRune(";\n}", rune(p.peek())) {
			return false
		}
	}
}

type sedReader struct {
	s    string
	i    int
	last int // where the last address started
}

func (p *sedReader) end() bool { return p.i >= len(p.s) }

func (p *sedReader) peek() byte {
	if p.end() {
		return 0
	}
	return p.s[p.i]
}

func (p *sedReader) skip(set string) {
	for !p.end() && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

// address reads an optional address: a number, $, or /regex/.
func (p *sedReader) address() bool {
	p.last = p.i
	switch c := p.peek(); {
	case c >= '0' && c <= '9':
		p.skip("0123456789")
	case c == '$':
		p.i++
	case c == '/':
		p.i++
		return p.delimited('/')
	}
	return true
}

// delimiter reads the delimiter of s or y: punctuation, not a backslash
// or newline (GNU takes any character; the gate says no to the rest).
func (p *sedReader) delimiter() (byte, bool) {
	if p.end() {
		return 0, false
	}
	d := p.s[p.i]
	p.i++
	if d == '\\' || d == '\n' || !strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[]^_`{|}~", rune(d)) {
		return 0, false
	}
	return d, true
}

// delimited reads up to and past the next unescaped delimiter, as GNU's
// match_slash does; a raw newline is not allowed.
func (p *sedReader) delimited(d byte) bool {
	for !p.end() {
		c := p.s[p.i]
		p.i++
		switch c {
		case '\\':
			if p.end() || p.s[p.i] == '\n' {
				return false
			}
			p.i++
		case '\n':
			return false
		case d:
			return true
		}
	}
	return false
}

// substitute reads s's pattern, replacement and flags.
func (p *sedReader) substitute() bool {
	d, ok := p.delimiter()
	if !ok || !p.delimited(d) || !p.delimited(d) {
		return false
	}
	for !p.end() {
		switch c := p.s[p.i]; {
		case strings.IndexByte("giImMp0123456789", c) >= 0:
			p.i++
		case strings.IndexByte(" \t\n;}", c) >= 0:
			return true
		default:
			return false
		}
	}
	return true
}
