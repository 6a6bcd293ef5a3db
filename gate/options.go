package gate

import "strings"

// optSpec is what the classifier knows of one command's options: which
// short letters and which long names take a value. Options it does not
// know take none, so an unknown option never hides the word after it.
type optSpec struct {
	// valueShort are the short letters that take a value (attached or the
	// next word).
	valueShort string
	// valueLong are the long names that take a value ("--name=v" or the
	// next word).
	valueLong []string
	// known are other long names, so an exact name is not read as a prefix
	// of a longer one ("--text" is not "--textconv").
	known []string
}

// argv is a command's arguments read by an optSpec, GNU style: options
// may follow operands; "--" ends them.
type argv struct {
	words    []string
	operands []string
	// operandAt is the index in words of each operand.
	operandAt []int
	// dashdash is the index in words of "--", or -1.
	dashdash int
	// opts are the words read as options (before "--"), with the values
	// they took.
	opts []string
	// events are the options as read: each short letter and long name
	// with the value it took.
	events []optEvent
}

// optEvent is one option as getopt reads it: a short letter, or a long
// name as written (maybe a prefix), with its value.
type optEvent struct {
	letter byte
	long   string
	value  string
	valued bool
	// valueAt is the index in words of the value when it is the next
	// word, or -1 (attached, or none).
	valueAt int
}

func (s optSpec) takesValueLong(name string) bool {
	for _, m := range s.longMatches(name) {
		for _, v := range s.valueLong {
			if m == v {
				return true
			}
		}
	}
	return false
}

// longMatches are the long names that "--name" can mean: the exact name
// when known, else each known name it is a prefix of (getopt_long
// abbreviations; an ambiguous prefix means all of them).
func (s optSpec) longMatches(name string) []string {
	all := append(append([]string(nil), s.valueLong...), s.known...)
	for _, n := range all {
		if n == name {
			return []string{n}
		}
	}
	var ms []string
	for _, n := range all {
		if name != "" && strings.HasPrefix(n, name) {
			ms = append(ms, n)
		}
	}
	return ms
}

// read splits words into options and operands.
func (s optSpec) read(words []string) argv {
	a := argv{words: words, dashdash: -1}
	for i := 0; i < len(words); i++ {
		w := words[i]
		switch {
		case w == "--":
			a.dashdash = i
			a.operands = append(a.operands, words[i+1:]...)
			for j := i + 1; j < len(words); j++ {
				a.operandAt = append(a.operandAt, j)
			}
			return a
		case strings.HasPrefix(w, "--"):
			a.opts = append(a.opts, w)
			name, v, hasValue := strings.Cut(w[2:], "=")
			ev := optEvent{long: name, value: v, valued: hasValue, valueAt: -1}
			if !hasValue && s.takesValueLong(name) && i+1 < len(words) {
				i++
				a.opts = append(a.opts, words[i])
				ev.value, ev.valued, ev.valueAt = words[i], true, i
			}
			a.events = append(a.events, ev)
		case len(w) > 1 && w[0] == '-':
			a.opts = append(a.opts, w)
			for j := 1; j < len(w); j++ {
				ev := optEvent{letter: w[j], valueAt: -1}
				if strings.IndexByte(s.valueShort, w[j]) >= 0 {
					if j < len(w)-1 {
						ev.value, ev.valued = w[j+1:], true
					} else if i+1 < len(words) {
						i++
						a.opts = append(a.opts, words[i])
						ev.value, ev.valued, ev.valueAt = words[i], true, i
					}
					a.events = append(a.events, ev)
					break
				}
				a.events = append(a.events, ev)
			}
		default:
			a.operands = append(a.operands, w)
			a.operandAt = append(a.operandAt, i)
		}
	}
	return a
}

// optionWords are the words before "--" that look like options, whether
// or not an option before took them as its value: the rules look for
// dangerous options in all of them, so a value cannot hide one.
func (a argv) optionWords() []string {
	end := len(a.words)
	if a.dashdash >= 0 {
		end = a.dashdash
	}
	var ws []string
	for _, w := range a.words[:end] {
		if len(w) > 1 && w[0] == '-' {
			ws = append(ws, w)
		}
	}
	return ws
}

// hasLong reports whether an option word means one of the long names:
// exactly, or as any prefix of it that is not exactly another option the
// spec knows (so "--comp" and "--in" count; "--text" is not "--textconv").
// "--name=value" counts too.
func (a argv) hasLong(s optSpec, names ...string) bool {
	for _, w := range a.optionWords() {
		if !strings.HasPrefix(w, "--") || w == "--" {
			continue
		}
		name, _, _ := strings.Cut(w[2:], "=")
		if name == "" {
			continue
		}
		exactOther := false
		for _, k := range append(append([]string(nil), s.known...), s.valueLong...) {
			if k == name {
				exactOther = true
			}
		}
		for _, n := range names {
			if name == n || (!exactOther && strings.HasPrefix(n, name)) {
				return true
			}
		}
	}
	return false
}

// longValues are the values given to any of the long names or a prefix of
// one (by "=" or as the next word), for rules that read them.
func (a argv) longValues(s optSpec, names ...string) []string {
	var vs []string
	for i, w := range a.words {
		if a.dashdash >= 0 && i >= a.dashdash {
			break
		}
		if !strings.HasPrefix(w, "--") {
			continue
		}
		name, v, has := strings.Cut(w[2:], "=")
		if name == "" {
			continue
		}
		for _, n := range names {
			if strings.HasPrefix(n, name) {
				if has {
					vs = append(vs, v)
				} else if i+1 < len(a.words) {
					vs = append(vs, a.words[i+1])
				}
				break
			}
		}
	}
	return vs
}

// hasShort reports whether a short option group holds one of the letters
// ("-uo" holds o), anywhere in the group.
func (a argv) hasShort(letters string) bool {
	for _, w := range a.optionWords() {
		if strings.HasPrefix(w, "--") {
			continue
		}
		if strings.ContainsAny(w[1:], letters) {
			return true
		}
	}
	return false
}

// hasWord reports whether any word before "--" is exactly one of ws.
func (a argv) hasWord(ws ...string) bool {
	end := len(a.words)
	if a.dashdash >= 0 {
		end = a.dashdash
	}
	for _, w := range a.words[:end] {
		for _, x := range ws {
			if w == x {
				return true
			}
		}
	}
	return false
}

// given reports whether getopt reads one of the short letters or one of
// the long names (exactly, or by a prefix that means only such names).
// Unlike hasLong and hasShort it reads exactly, for rules that must not
// guess high (a pattern given by -e makes every operand a path).
func (a argv) given(s optSpec, letters string, names ...string) bool {
	for _, ev := range a.events {
		if ev.letter != 0 && strings.IndexByte(letters, ev.letter) >= 0 {
			return true
		}
		if ev.long == "" {
			continue
		}
		ms := s.longMatches(ev.long)
		all := len(ms) > 0
		for _, m := range ms {
			in := false
			for _, n := range names {
				if m == n {
					in = true
				}
			}
			all = all && in
		}
		if all {
			return true
		}
	}
	return false
}

// shortValues are the values getopt gives the short letter.
func (a argv) shortValues(_ optSpec, letter byte) []string {
	var vs []string
	for _, ev := range a.events {
		if ev.letter == letter && ev.valued {
			vs = append(vs, ev.value)
		}
	}
	return vs
}
