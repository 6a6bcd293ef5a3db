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

// candidates are the paths a word may name.
func candidates(w, home string) []string {
	var cs []string
	add := func(c string, tilde bool) {
		if c == "" {
			return
		}
		if tilde && home != "" && (c == "~" || strings.HasPrefix(c, "~/")) {
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
	if rest, ok := strings.CutPrefix(w, "@"); ok {
		add(rest, true)
	}
	if rest, ok := strings.CutPrefix(w, "file://"); ok {
		add(rest, true)
	}
	return cs
}
