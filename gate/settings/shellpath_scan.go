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
// spell out. What a startup file makes at run time and does not spell
// (an entry built from a variable, a file it sources from elsewhere) is
// not found this way.

var (
	// PATH=…, PATH+=…, export PATH=…, typeset -x PATH=… (sh, bash, zsh)
	pathAssign = regexp.MustCompile(`(?:^|[\s;&|({])PATH\+?=("[^"]*"|'[^']*'|[^\s;&|)]*)`)
	// path=(…), path+=(…) (zsh's array tied to PATH)
	pathArray = regexp.MustCompile(`(?:^|[\s;&|({])path\+?=\(([^)]*)\)`)
	// fish_add_path …, set … PATH …, set … fish_user_paths … (fish)
	fishPath = regexp.MustCompile(`(?:^|[\s;])(?:fish_add_path|set(?:\s+-\S+)*\s+(?:PATH|fish_user_paths))\s+([^;#\n]*)`)
	// source FILE, . FILE, with FILE under ~, $HOME or absolute
	sourced = regexp.MustCompile(`(?:^|[\s;&|])(?:source|\.)\s+["']?(~/|\$HOME/|\$\{HOME\}/|/)([^\s;"'&|]+)`)
)

// sourcedFiles are the files a startup file's text sources by a path
// that names them whatever the working directory (under ~, $HOME, or
// absolute), as the file the PATH entries may be in.
func sourcedFiles(text, home string) []string {
	var out []string
	for _, m := range sourced.FindAllStringSubmatch(text, -1) {
		p := m[2]
		if m[1] == "/" {
			p = "/" + p
		} else {
			p = filepath.Join(home, p)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// startupRelativeEntries are the relative PATH entries a startup file's
// text names: the entries of PATH assignments (an empty one is the
// working directory, "."), of zsh's path array and fish's path commands,
// and any word whose last part is bin or .bin (an argument of a function
// that adds it: pathadd ./bin). An entry built from a variable, a command
// or ~ is absolute at run time, or unknowable: it is left out.
func startupRelativeEntries(text string) []string {
	var out []string
	add := func(e string) {
		e = strings.Trim(e, `"'`)
		if e == "" || filepath.IsAbs(e) || strings.ContainsAny(e, "$`~*?[\\{}()<>|&;\x00") || strings.HasPrefix(e, "-") {
			return
		}
		if !slices.Contains(out, e) {
			out = append(out, e)
		}
	}
	for _, line := range strings.Split(text, "\n") {
		if i := strings.Index(line, "#"); i == 0 || i > 0 && (line[i-1] == ' ' || line[i-1] == '\t') {
			line = line[:i] // a comment (a # inside a word is not one)
		}
		for _, m := range pathAssign.FindAllStringSubmatch(line, -1) {
			v := strings.Trim(m[1], `"'`)
			for _, e := range strings.Split(v, ":") {
				if e == "" {
					e = "." // an empty entry is the working directory
				}
				add(e)
			}
		}
		for _, m := range pathArray.FindAllStringSubmatch(line, -1) {
			for _, e := range strings.Fields(m[1]) {
				add(e)
			}
		}
		for _, m := range fishPath.FindAllStringSubmatch(line, -1) {
			for _, e := range strings.Fields(m[1]) {
				add(e)
			}
		}
		for _, w := range strings.FieldsFunc(line, func(r rune) bool { return strings.ContainsRune(" \t;:=\"'()|&", r) }) {
			if b := filepath.Base(strings.TrimSuffix(w, "/")); b == "bin" || b == ".bin" {
				add(strings.TrimSuffix(w, "/"))
			}
		}
	}
	return out
}

// scannedPathDirs are the relative entries the startup files of a shell
// that did not answer name (startupRelativeEntries), joined as a PATH;
// files are the shell's startup files (a directory: its *.fish files),
// and the files they source by a fixed path are read too, two levels
// down, a few dozen files at most.
func scannedPathDirs(files []string, home string) string {
	var entries, seen []string
	var read func(p string, depth int)
	read = func(p string, depth int) {
		if slices.Contains(seen, p) || len(seen) >= 64 {
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
		if depth < 2 {
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
