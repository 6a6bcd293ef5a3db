package settings

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// When a shell asked does not answer in time (a ~/.bashrc that waits on
// a network mount before it adds ./bin: the ninth red team's), what it
// would have added is unknown, and an unknown relative entry is a place
// a step plants a program the user's next command runs. So its startup
// files are read instead, and every relative entry they name is taken as
// one the shell adds: more than it may add, never less of what they
// spell out. The text is read as a shell would see it where that is
// cheap (line continuations joined, quotes kept out of comments,
// variables set in the file put in, $PATH itself left out); what a
// startup file makes at run time from a command's output is not found
// this way (the fourteenth red team's rows are the spec of what is).

var (
	// PATH=…, PATH+=…, export PATH=…, export "PATH=…", typeset -x
	// PATH=…, PROMPT_COMMAND='PATH=…' (sh, bash, zsh, ksh)
	pathAssign = regexp.MustCompile(`(?:^|[\s;&|({"'])PATH\+?=`)
	// path=(…), path+=(…), path+=x (zsh's array tied to PATH)
	pathArray = regexp.MustCompile(`(?:^|[\s;&|({])path\+?=(?:\(([^)]*)\)|([^\s;(][^\s;]*))`)
	// fish_add_path …, set … PATH …, set … fish_user_paths … (fish);
	// set path = (…) (csh, tcsh)
	fishPath = regexp.MustCompile(`(?:^|[\s;])(?:fish_add_path|set(?:\s+-\S+)*\s+(?:PATH|fish_user_paths))\s+([^;#\n]*)`)
	cshPath  = regexp.MustCompile(`(?:^|[\s;])set\s+path\s*=\s*\(([^)]*)\)`)
	// SETUVAR fish_user_paths:a\x1eb (fish's universal variables file)
	fishUniversal = regexp.MustCompile(`(?m)^SETUVAR\s+(?:--export\s+)?fish_user_paths:(.*)$`)
	// NAME=value, a plain assignment a later line may use
	assignment = regexp.MustCompile(`(?:^|[\s;])(?:export\s+|typeset\s+(?:-\S+\s+)*|declare\s+(?:-\S+\s+)*|local\s+)?([A-Za-z_][A-Za-z0-9_]*)=("[^"]*"|'[^']*'|[^\s;"'` + "`" + `]*)`)
	// $NAME, ${NAME}, ${NAME:+…} and the like
	variable = regexp.MustCompile(`\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*`)
	// source FILE, . FILE
	sourced = regexp.MustCompile(`(?:^|[\s;&|])(?:source|\.)\s+("[^"]*"|'[^']*'|[^\s;&|]+)`)
	// a glob under the home: for rc in ~/.bashrc.d/*; do . "$rc"; done
	homeGlob = regexp.MustCompile(`(?:~|\$HOME|\$\{HOME\})/[^\s;"'|&]*\*[^\s;"'|&]*`)
)

// scanMark stands where $PATH itself was: never an entry.
const scanMark = "\x01"

// startupText is a startup file's text as its lines are read: line
// continuations joined and comments (a # at a word's start, outside
// quotes) left out.
func startupText(text string) []string {
	text = strings.ReplaceAll(text, "\\\n", "")
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		lines = append(lines, uncommented(line))
	}
	return lines
}

// uncommented is line up to its comment: a # at a word's start.
func uncommented(line string) string {
	return cutUnquoted(line, func(i int) bool {
		return line[i] == '#' && (i == 0 || strings.IndexByte(" \t;", line[i-1]) >= 0)
	})
}

// cutUnquoted is s up to the first byte outside quotes at which stop
// holds, or all of s.
func cutUnquoted(s string, stop func(i int) bool) string {
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"':
			quote = c
		case stop(i):
			return s[:i]
		}
	}
	return s
}

// startupVars are the plain assignments of a startup file's lines, by
// name (the last one wins), with HOME given.
func startupVars(lines []string, home string) map[string]string {
	vars := map[string]string{"HOME": home}
	for _, line := range lines {
		for _, m := range assignment.FindAllStringSubmatch(line, -1) {
			if m[1] != "PATH" && m[1] != "HOME" {
				vars[m[1]] = strings.Trim(m[2], `"'`)
			}
		}
	}
	return vars
}

// expandScan puts the file's variables into s: $PATH becomes scanMark,
// $PWD/ (the terminal's directory) nothing, a variable the file set its
// value, any other scanMark too (not known, never an entry).
func expandScan(s string, vars map[string]string) string {
	// twice: a value may hold a variable of its own (ZSH="$HOME/.oh-my-zsh")
	return expandOnce(expandOnce(s, vars), vars)
}

func expandOnce(s string, vars map[string]string) string {
	return variable.ReplaceAllStringFunc(s, func(v string) string {
		name := strings.Trim(v, "${}")
		if i := strings.IndexAny(name, ":-+=?#%/"); i >= 0 {
			name = name[:i]
		}
		switch {
		case name == "PATH" || name == "path":
			return scanMark
		case name == "PWD":
			return scanMark + "PWD"
		}
		if val, ok := vars[name]; ok {
			return val
		}
		return scanMark
	})
}

// startupRelativeEntries are the relative PATH entries a startup file's
// text names: the entries of PATH assignments (an empty one is the
// working directory, "."), of zsh's path array, fish's path commands and
// universal variables and csh's path list, and any word whose last part
// is bin or .bin (an argument of a function that adds it: pathadd ./bin).
// A variable the file sets is put in; an entry that starts with another
// variable, a command or ~ is absolute at run time, or unknowable, and
// is left out; the part of $PWD/x after it is relative (the terminal's
// directory).
func startupRelativeEntries(text string) []string {
	var out []string
	add := func(e string) {
		e = strings.Trim(e, `"'`)
		if rest, ok := strings.CutPrefix(e, scanMark+"PWD/"); ok {
			e = rest
		}
		e = strings.TrimRight(e, scanMark) // tools${PATH:+:$PATH}: tools
		if e == "" || filepath.IsAbs(e) || strings.Contains(e, scanMark) || strings.ContainsAny(e, "$`~*?[\\{}()<>|&;\x00") || strings.HasPrefix(e, "-") {
			return
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	lines := startupText(text)
	vars := startupVars(lines, "")
	for _, raw := range lines {
		line := expandScan(raw, vars)
		for _, loc := range pathAssign.FindAllStringIndex(line, -1) {
			v := strings.NewReplacer(`"`, "", `'`, "").Replace(assignedValue(line[loc[1]:]))
			for _, e := range strings.Split(v, ":") {
				if e == "" {
					e = "." // an empty entry is the working directory
				}
				add(e)
			}
		}
		for _, m := range pathArray.FindAllStringSubmatch(line, -1) {
			for _, e := range strings.Fields(m[1] + " " + m[2]) {
				add(e)
			}
		}
		for _, re := range []*regexp.Regexp{fishPath, cshPath} {
			for _, m := range re.FindAllStringSubmatch(line, -1) {
				for _, e := range strings.Fields(m[1]) {
					add(e)
				}
			}
		}
		for _, w := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t;:=\"'()|&", r) }) {
			if b := filepath.Base(strings.TrimSuffix(w, "/")); b == "bin" || b == ".bin" {
				add(strings.TrimSuffix(w, "/"))
			}
		}
	}
	for _, m := range fishUniversal.FindAllStringSubmatch(text, -1) {
		for _, e := range strings.Split(m[1], `\x1e`) {
			add(e)
		}
	}
	return out
}

// assignedValue is the word an assignment's value is, from its start:
// up to a blank, ; & | or ) outside quotes.
func assignedValue(s string) string {
	return cutUnquoted(s, func(i int) bool { return strings.IndexByte(" \t;&|)", s[i]) >= 0 })
}

// sourcedFiles are the files a startup file's text sources (source F, .
// F; F with the file's variables put in, relative to the home, where the
// shell asked runs) and the files of the globs under the home it names
// (a loop over ~/.bashrc.d/*), as the files the PATH entries may be in.
func sourcedFiles(text, home string) []string {
	lines := startupText(text)
	vars := startupVars(lines, home)
	var out []string
	add := func(p string) {
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	for _, raw := range lines {
		for _, m := range sourced.FindAllStringSubmatch(raw, -1) {
			p := expandScan(strings.Trim(m[1], `"'`), vars)
			if strings.Contains(p, scanMark) {
				continue // a loop's variable: its glob is read below
			}
			switch {
			case strings.HasPrefix(p, "~/"):
				p = filepath.Join(home, p[2:])
			case !filepath.IsAbs(p):
				p = filepath.Join(home, p)
			}
			add(filepath.Clean(p))
		}
		for _, g := range homeGlob.FindAllString(raw, -1) {
			g = expandScan(strings.Replace(g, "~", "$HOME", 1), vars)
			matches, _ := filepath.Glob(g)
			for _, m := range matches {
				if st, err := os.Stat(m); err == nil && st.Mode().IsRegular() {
					add(m)
				}
			}
		}
	}
	return out
}

// scannedPathDirs are the relative entries the startup files of a shell
// that did not answer name (startupRelativeEntries), joined as a PATH;
// files are the shell's startup files (a directory: its *.fish files),
// and the files they source are read too, four levels down, a few
// hundred files at most.
func scannedPathDirs(files []string, home string) string {
	var entries, seen []string
	var read func(p string, depth int)
	read = func(p string, depth int) {
		if slices.Contains(seen, p) || len(seen) >= 512 {
			return
		}
		seen = append(seen, p)
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			more, _ := filepath.Glob(filepath.Join(p, "*.fish"))
			for _, m := range more {
				read(m, depth)
			}
			return
		}
		b, err := os.ReadFile(p)
		if err != nil || len(b) > 1<<20 {
			return
		}
		for _, e := range startupRelativeEntries(string(b)) {
			if !slices.Contains(entries, e) {
				entries = append(entries, e)
			}
		}
		if depth < 4 {
			for _, f := range sourcedFiles(string(b), home) {
				read(f, depth+1)
			}
		}
	}
	for _, f := range files {
		read(f, 0)
	}
	return strings.Join(entries, ":")
}
