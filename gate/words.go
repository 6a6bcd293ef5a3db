package gate

import (
	"strings"
)

// judgeWord gives the parts of one word a step names (S7.8): secret when
// it is or holds a secret; for a command that writes, outside and
// protected by its class. A word counts as a path relative to each
// directory the step may run in, and so do the paths inside it: an
// option's value (--file=P, -fP), a curl @P, a file:// URL.
func (r *run) judgeWord(w string, writes bool, dirs []string) []Part {
	var parts []Part
	for _, c := range candidates(w, r.home()) {
		for _, d := range dirs {
			rp := r.sh.Policy.Resolve(d, c)
			cl := r.sh.Policy.Class(rp)
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

// candidates are the paths a word may name: the word; an option's value
// (--file=P, -fP) or a NAME=P value; and from each of those, a curl @P, a
// file:// URL, and the part before a ';' (curl's @P;type=…). A derived
// path's leading ~ is the home, as bash expands it after '='.
func candidates(w, home string) []string {
	var cs []string
	add := func(c string, derived bool) {
		if c == "" {
			return
		}
		if derived && home != "" && (c == "~" || strings.HasPrefix(c, "~/")) {
			c = home + c[1:]
		}
		for _, x := range cs {
			if x == c {
				return
			}
		}
		cs = append(cs, c)
	}
	add(w, false)
	if strings.HasPrefix(w, "-") {
		if _, v, ok := strings.Cut(w, "="); ok {
			add(v, true)
		} else if !strings.HasPrefix(w, "--") && len(w) > 2 {
			add(w[2:], true)
		}
	} else if _, v, ok := strings.Cut(w, "="); ok {
		add(v, true)
	}
	for i := 0; i < len(cs); i++ {
		c := cs[i]
		if rest, ok := strings.CutPrefix(c, "@"); ok {
			add(rest, true)
		}
		if rest, ok := strings.CutPrefix(c, "file://"); ok {
			add(rest, true)
		}
		if before, _, ok := strings.Cut(c, ";"); ok {
			add(before, true)
		}
	}
	return cs
}
