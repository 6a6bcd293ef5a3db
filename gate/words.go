package gate

import (
	"net/url"
	"strings"
)

// judgeWord gives the parts of one word a step names (S7.8): secret when
// it is or holds a secret; for a command that writes, outside and
// protected by its class. A word counts as a path relative to each
// directory the step may run in, and so do the paths inside it: an
// option's value (--file=P, -fP, -uoP), a curl @P or <P, a file: URL. An
// option word of a command the table knows (option) is not itself a
// path: only the values in it are.
func (r *classifying) judgeWord(w string, option, writes bool, dirs []string) []Part {
	return r.judgeWordAs(w, option, writes, roleAsCommand, dirs)
}

// judgeWordAs is judgeWord for a word the command acts on as role says
// (roles.go): the word itself is resolved as the role says, a path
// inside it (a NAME=P value, a file: URL) as judgeWord resolves it.
func (r *classifying) judgeWordAs(w string, option, writes bool, role wordRole, dirs []string) []Part {
	var parts []Part
	writes = role.writesAs(writes)
	for _, c := range candidates(w, r.home(), option) {
		for _, d := range dirs {
			var rp RealPath
			if c == w && !option && role != roleAsCommand {
				rl, through, into := r.resolveAs(d, c, role)
				if into {
					// its entries are judged (facts.derived), and it as
					// a directory whose entries the command may replace:
					// secret when a secret entry is one of them
					if r.sh.Policy.HoldsSecretIn(rl, CwdEntries) {
						r.reals = appendNew(r.reals, rl.Path)
						parts = append(parts, NewPart(0, true, "makes entries in "+Visible(rl.Path)))
					}
					continue
				}
				if through != nil {
					parts = append(parts, r.throughParts(*through)...)
				}
				rp = rl
			} else {
				rp = r.resolve(d, c)
			}
			if _, ok := StreamFD(rp.Path); ok {
				continue
			}
			cl := r.sh.Policy.ClassRead(rp)
			if writes {
				cl = r.sh.Policy.ClassWrite(rp)
			}
			secret := cl == ClassSecret || r.sh.Policy.HoldsSecret(rp)
			var own Effects
			if writes {
				switch cl {
				case ClassOutside:
					own = Of(Outside)
				case ClassProtected:
					own = Of(Protected)
				}
			}
			if secret || !own.Empty() {
				parts = append(parts, NewPart(own, secret, "names "+Visible(rp.Path)))
			}
		}
	}
	return parts
}

// candidates are the paths a word may name: the word itself unless it is
// an option word; an option's value (--file=P; in a group of short
// options each tail after a letter: -uo/tmp/x gives o/tmp/x and /tmp/x)
// or a NAME=P value; and from each of those, a curl @P, NAME@P or <P, a
// file: URL in any letter case, with or without a host, percent-decoded,
// and the part before a ';' (curl's @P;type=…). A derived path's leading
// ~ is judged both as the program gets it (a relative path) and as the
// home, since some programs expand it themselves.
func candidates(w, home string, option bool) []string {
	var cs []string
	add := func(c string, derived bool) {
		if c == "" {
			return
		}
		if derived && home != "" && (c == "~" || strings.HasPrefix(c, "~/")) {
			cs = appendNew(cs, home+c[1:])
		}
		cs = appendNew(cs, c)
	}
	if !option {
		add(w, false)
	}
	switch {
	case strings.HasPrefix(w, "--"):
		if _, v, ok := strings.Cut(w, "="); ok {
			add(v, true)
		}
	case strings.HasPrefix(w, "-"):
		if _, v, ok := strings.Cut(w, "="); ok {
			add(v, true)
		}
		for i := 2; i <= len(w) && isOptLetter(w[i-1]); i++ {
			add(w[i:], true)
		}
	default:
		if _, v, ok := strings.Cut(w, "="); ok {
			add(v, true)
		}
	}
	for i := 0; i < len(cs); i++ {
		c := cs[i]
		if rest, ok := strings.CutPrefix(c, "@"); ok {
			add(rest, true)
		} else if _, rest, ok := strings.Cut(c, "@"); ok {
			add(rest, true)
		}
		if rest, ok := strings.CutPrefix(c, "<"); ok {
			add(rest, true)
		}
		for _, p := range fileURLPaths(c) {
			add(p, true)
		}
		if before, _, ok := strings.Cut(c, ";"); ok {
			add(before, true)
		}
	}
	return cs
}

func isOptLetter(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}

// fileURLPaths are the paths a file: URL names, as curl reads it: the
// scheme in any letter case, an optional //host, the path as written and
// percent-decoded, with and without a ?query or #fragment. Any other word
// gives none.
func fileURLPaths(w string) []string {
	if len(w) < 5 || !strings.EqualFold(w[:5], "file:") {
		return nil
	}
	rest := w[5:]
	if after, ok := strings.CutPrefix(rest, "//"); ok {
		i := strings.IndexByte(after, '/')
		if i < 0 {
			return nil
		}
		rest = after[i:]
	}
	var out []string
	for _, p := range []string{rest, cutAny(rest, "?#")} {
		out = appendNew(out, p)
		if d, err := url.PathUnescape(p); err == nil {
			out = appendNew(out, d)
		}
	}
	return out
}

func cutAny(s, chars string) string {
	if i := strings.IndexAny(s, chars); i >= 0 {
		return s[:i]
	}
	return s
}
