package gate

import (
	"path"
	"strings"
)

// cwdReader is ls or du: it reads its working directory when it names no
// path.
func cwdReader(s optSpec, args []string) facts {
	return facts{own: Of(Read), readsCwd: len(s.read(args).operands) == 0}
}

func cdFacts(args []string) facts {
	f := facts{own: Of(Read), namesNothing: true}
	i := 0
	for ; i < len(args) && CdOption(args[i]); i++ {
	}
	if i < len(args) && args[i] == "--" {
		i++
	}
	ops := args[i:]
	switch {
	case len(ops) == 0:
		f.cd = "~"
	case len(ops) == 1 && ops[0] != "-":
		f.cd = ops[0]
	default:
		f.cdUnknown = true
		f.state = true
	}
	return f
}

// CdOption reports whether a word is one of bash's cd options, alone or
// grouped: -L, -P, -e, -@ (-LP, -Pe).
func CdOption(w string) bool {
	if len(w) < 2 || w[0] != '-' {
		return false
	}
	for _, c := range w[1:] {
		if c != 'L' && c != 'P' && c != 'e' && c != '@' {
			return false
		}
	}
	return true
}

// operandWriter is uniq or xxd: with two operands the second is a file it
// writes ("-" is standard output to xxd).
func operandWriter(operands []string, dashIsStdout bool) facts {
	if len(operands) >= 2 && !(dashIsStdout && operands[1] == "-") {
		return facts{own: Of(Read, Write)}
	}
	return facts{own: Of(Read)}
}

// subScripts are the scripts a command line runs as shell code: the -c
// operand of a shell, and the words after eval, wherever they stand (env
// sh -c '…', xargs bash -c '…', command eval '…').
func subScripts(words []string) []string {
	var out []string
	for i := 0; i < len(words); i++ {
		w := words[i]
		if w == "eval" {
			out = append(out, strings.Join(words[i+1:], " "))
			return out
		}
		if !shells[path.Base(w)] {
			continue
		}
		for j := i + 1; j < len(words); j++ {
			o := words[j]
			if o == "--" || !strings.HasPrefix(o, "-") {
				break
			}
			if !strings.HasPrefix(o, "--") && strings.ContainsRune(o, 'c') {
				for k := j + 1; k < len(words); k++ {
					if words[k] == "--" || strings.HasPrefix(words[k], "-") {
						continue
					}
					out = append(out, words[k])
					break
				}
				break
			}
		}
	}
	return out
}

// xxdOperands are xxd's operands: its options are single-dash words
// matched by prefix ("-c", "-cols"); -c, -g, -l, -o, -s, -n and -R take a
// value, attached ("-c8") or as the next word.
func xxdOperands(args []string) []string {
	valueNames := []string{"cols", "groupsize", "len", "offset", "seek", "name", "R"}
	var ops []string
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w == "--" {
			return append(ops, args[i+1:]...)
		}
		if len(w) < 2 || w[0] != '-' {
			ops = append(ops, w)
			continue
		}
		body := w[1:]
		for _, n := range valueNames {
			if strings.HasPrefix(n, body) && i+1 < len(args) {
				i++
				break
			}
		}
	}
	return ops
}

var grepOpts = optSpec{
	valueShort: "efmABCdD",
	valueLong: []string{"regexp", "file", "max-count", "after-context", "before-context", "context",
		"label", "include", "exclude", "exclude-from", "exclude-dir", "binary-files", "devices",
		"directories", "group-separator"},
	known: []string{"recursive", "dereference-recursive", "ignore-case", "invert-match", "word-regexp",
		"line-regexp", "count", "files-with-matches", "files-without-match", "only-matching", "quiet",
		"silent", "no-messages", "byte-offset", "with-filename", "no-filename", "line-number",
		"initial-tab", "null", "null-data", "text", "extended-regexp", "fixed-strings",
		"basic-regexp", "perl-regexp", "color", "colour", "line-buffered", "no-ignore-case"},
}

// grepFacts: grep reads; with -r or -R and no path after its pattern it
// reads its working directory.
func grepFacts(args []string) facts {
	a := grepOpts.read(args)
	recursive := a.hasShort("rR") || a.hasLong(grepOpts, "recursive", "dereference-recursive")
	for _, v := range append(a.shortValues(grepOpts, 'd'), a.longValues(grepOpts, "directories")...) {
		if v == "recurse" {
			recursive = true
		}
	}
	f := facts{own: Of(Read)}
	if recursive {
		f.readsCwd = len(pathOperands(a, a.given(grepOpts, "ef", "regexp", "file"))) == 0
	}
	// -R follows every link under the trees; -r only those it is named.
	f.follows = a.hasShort("R") || a.hasLong(grepOpts, "dereference-recursive")
	return f
}

// pathOperands are the operands that are paths: all of them when the
// pattern came from an option, else all but the first.
func pathOperands(a argv, patternGiven bool) []string {
	if patternGiven || len(a.operands) == 0 {
		return a.operands
	}
	return a.operands[1:]
}

var rgOpts = optSpec{
	valueShort: "ABCEefgjMmrtTd",
	valueLong: []string{"after-context", "before-context", "context", "context-separator", "colors",
		"color", "dfa-size-limit", "encoding", "engine", "field-context-separator",
		"field-match-separator", "file", "glob", "iglob", "hostname-bin", "hyperlink-format",
		"ignore-file", "max-columns", "max-count", "max-depth", "max-filesize", "path-separator",
		"pre", "pre-glob", "regex-size-limit", "regexp", "replace", "sort", "sortr", "threads",
		"type", "type-add", "type-clear", "type-not", "generate"},
	known: []string{"files", "files-with-matches", "files-without-match", "pretty", "passthru",
		"pcre2", "pcre2-version", "hidden", "no-ignore", "ignore-case", "smart-case",
		"case-sensitive", "fixed-strings", "word-regexp", "line-regexp", "count", "count-matches",
		"json", "vimgrep", "heading", "no-heading", "line-number", "no-line-number", "column",
		"only-matching", "follow", "invert-match", "multiline", "null", "search-zip", "text",
		"binary", "trim", "unrestricted", "stats", "debug", "trace", "type-list", "quiet",
		"with-filename", "no-filename", "byte-offset", "crlf", "one-file-system", "no-messages",
		"no-config", "help", "version"},
}

// rgFacts: rg reads; --pre, --pre-glob and --hostname-bin run programs; it
// reads its working directory when it names no path (the first operand is
// the pattern unless -e, -f, --regexp, --file or --files gives it).
func rgFacts(args []string) facts {
	a := rgOpts.read(args)
	if a.hasLong(rgOpts, "pre", "pre-glob", "hostname-bin") {
		return facts{own: Of(Exec)}
	}
	given := a.given(rgOpts, "ef", "regexp", "file", "files")
	return facts{own: Of(Read), readsCwd: len(pathOperands(a, given)) == 0,
		follows: a.hasShort("L") || a.hasLong(rgOpts, "follow")}
}

var sortOpts = optSpec{
	valueShort: "ktoST",
	valueLong: []string{"key", "field-separator", "output", "buffer-size", "temporary-directory",
		"parallel", "batch-size", "files0-from", "random-source", "compress-program", "sort"},
	known: []string{"check", "ignore-leading-blanks", "dictionary-order", "ignore-case",
		"general-numeric-sort", "ignore-nonprinting", "month-sort", "human-numeric-sort",
		"numeric-sort", "random-sort", "reverse", "version-sort", "debug", "merge", "stable",
		"unique", "zero-terminated", "help", "version"},
}

// sortFacts: sort reads; --compress-program runs a program; -o writes,
// and so does -T (its temporary files go in that directory);
// --files0-from reads a list of paths.
func sortFacts(args []string) facts {
	a := sortOpts.read(args)
	f := facts{own: Of(Read), unseen: files0From(args)}
	if a.hasLong(sortOpts, "compress-program") {
		f.own = Of(Exec)
		return f
	}
	if a.hasShort("oT") || a.hasLong(sortOpts, "output", "temporary-directory") {
		f.own = Of(Read, Write)
	}
	return f
}

// findFacts: find reads; -exec, -execdir, -ok and -okdir run programs;
// -delete and -fls, -fprint, -fprint0, -fprintf write; -L and -follow
// follow links; -files0-from reads a list of paths; with no starting
// point it reads its working directory.
func findFacts(args []string) facts {
	f := facts{own: Of(Read)}
	for _, w := range args {
		switch w {
		case "-exec", "-execdir", "-ok", "-okdir":
			f.own = f.own.With(Exec)
		case "-delete":
			f.own = f.own.With(Write)
			f.recursive = true
		case "-fls", "-fprint", "-fprint0", "-fprintf":
			f.own = f.own.With(Write)
		case "-L", "-follow":
			f.follows = true
		case "-files0-from":
			f.unseen = []string{"the starting points listed by -files0-from"}
		}
	}
	i := 0
	for i < len(args) {
		w := args[i]
		switch {
		case w == "-H" || w == "-L" || w == "-P":
			i++
		case w == "-D":
			i += 2
		case strings.HasPrefix(w, "-O") && len(w) > 2:
			i++
		default:
			goto start
		}
	}
start:
	starts := 0
	for ; i < len(args); i++ {
		w := args[i]
		if strings.HasPrefix(w, "-") || w == "(" || w == "!" || w == ")" || w == "," {
			break
		}
		starts++
	}
	f.readsCwd = starts == 0
	if f.own.Has(Exec) {
		f.scripts = subScripts(args)
	}
	return f
}

var lessOpts = optSpec{
	valueShort: "bhjkoOpPtTxyz#D",
	valueLong: []string{"log-file", "LOG-FILE", "lesskey-file", "lesskey-src", "lesskey-content",
		"tag", "tag-file"},
}

// lessFacts: less reads; a + command with ! or | runs a program, and one
// with : may open another file; -o, -O, --log-file and --LOG-FILE write;
// -k, --lesskey-file, --lesskey-src and --lesskey-content read key
// bindings and variables (LESSOPEN runs a program); -t (--tag) opens the
// file a tags file names.
func lessFacts(args []string) facts {
	f := facts{own: Of(Read)}
	for _, w := range args {
		if strings.HasPrefix(w, "+") && strings.ContainsAny(w, "!|") {
			f.own = f.own.With(Exec)
		}
		if strings.HasPrefix(w, "+") && strings.Contains(w, ":") {
			f.unseen = append(f.unseen, "a file a + command examines")
		}
	}
	a := lessOpts.read(args)
	if a.hasShort("oO") || a.hasLong(lessOpts, "log-file", "LOG-FILE") {
		f.own = f.own.With(Write)
	}
	if a.given(lessOpts, "k", "lesskey-file", "lesskey-src", "lesskey-content") ||
		a.hasLong(lessOpts, "lesskey-file", "lesskey-src", "lesskey-content") {
		f.unseen = append(f.unseen, "a lesskey file (it can set LESSOPEN)")
	}
	if a.given(lessOpts, "t", "tag") {
		f.unseen = append(f.unseen, "the file a tags file names")
	}
	return f
}

var curlOpts = optSpec{
	valueShort: "AbcCdDeEFHKmoQrTuUwxXyYzt",
	valueLong: []string{"output", "dump-header", "cookie-jar", "config", "output-dir", "trace",
		"trace-ascii", "stderr", "etag-save", "hsts", "alt-svc", "libcurl", "user-agent", "cookie",
		"data", "data-raw", "data-binary", "data-urlencode", "header", "request", "user", "url",
		"form", "json", "proxy", "max-time", "connect-timeout", "retry", "referer", "upload-file",
		"range", "write-out", "cacert", "cert", "key"},
	known: []string{"remote-name", "remote-name-all", "create-dirs", "remote-header-name", "silent",
		"show-error", "location", "fail", "include", "head", "verbose", "insecure", "compressed",
		"http1.1", "http2", "get", "globoff", "no-progress-meter", "progress-bar"},
}

// curlFacts: curl talks to the network; an option that writes a file adds
// write; -K (--config) reads options, which can name any file to read or
// write, from a file; a file: URL with a {…} or […] pattern (curl's own
// globbing, unless -g) names paths the gate does not expand.
func curlFacts(args []string) facts {
	a := curlOpts.read(args)
	f := facts{own: Of(Net)}
	if a.hasShort("oODcK") || a.hasLong(curlOpts, "output", "remote-name", "remote-name-all",
		"dump-header", "cookie-jar", "config", "output-dir", "create-dirs", "trace", "trace-ascii",
		"stderr", "etag-save", "hsts", "alt-svc", "libcurl", "remote-header-name") {
		f.own = Of(Net, Write)
	}
	if a.given(curlOpts, "K", "config") || a.hasLong(curlOpts, "config") {
		f.unseen = append(f.unseen, "options from a -K config")
	}
	if !a.hasShort("g") && !a.hasLong(curlOpts, "globoff") {
		for _, w := range args {
			for _, c := range candidates(w, "", false) {
				if fileURLPaths(c) != nil && strings.ContainsAny(c, "{[") {
					f.unseen = append(f.unseen, "the files a file: URL pattern matches")
				}
			}
		}
	}
	return f
}

var cpOpts = optSpec{
	valueShort: "StZ",
	valueLong: []string{"backup", "suffix", "target-directory", "preserve", "no-preserve",
		"reflink", "sparse", "update", "context"},
	known: []string{"archive", "attributes-only", "copy-contents", "no-dereference", "force",
		"interactive", "link", "dereference", "no-clobber", "parents", "recursive", "remove-destination",
		"strip-trailing-slashes", "symbolic-link", "no-target-directory", "verbose", "one-file-system",
		"keep-directory-symlink", "debug", "help", "version"},
}

// cpFacts: cp writes; with -L (--dereference) and a recursive copy it
// copies what each link under its sources resolves to.
func cpFacts(args []string) facts {
	a := cpOpts.read(args)
	recursive := a.hasShort("rRa") || a.hasLong(cpOpts, "recursive", "archive")
	deref := a.hasShort("L") || a.hasLong(cpOpts, "dereference")
	return facts{own: Of(Write), follows: recursive && deref}
}

var modeOpts = optSpec{
	valueLong: []string{"reference", "from"},
	known: []string{"changes", "no-dereference", "dereference", "quiet", "silent", "verbose",
		"no-preserve-root", "preserve-root", "recursive", "help", "version"},
}

// modeFacts is chmod, chown and chgrp: they write (the modes and owners
// of what they name); with -R every entry of the trees they name
// (tree.go), and with -R and -L what each link under the trees resolves
// to.
func modeFacts(args []string) facts {
	a := modeOpts.read(args)
	recursive := a.hasShort("R") || a.hasLong(modeOpts, "recursive")
	return facts{own: Of(Write), follows: recursive && a.hasShort("L"), recursive: recursive}
}

var rmOpts = optSpec{
	valueLong: []string{"interactive", "preserve-root"},
	known:     []string{"force", "one-file-system", "no-preserve-root", "recursive", "dir", "verbose", "help", "version"},
}

// rmFacts: rm writes (removes) what it names; with -r, -R or
// --recursive every entry of the trees it names (tree.go).
func rmFacts(args []string) facts {
	a := rmOpts.read(args)
	return facts{own: Of(Write), recursive: a.hasShort("rR") || a.hasLong(rmOpts, "recursive"), roles: linkRoles(rmOpts, args)}
}

var diffOpts = optSpec{
	valueShort: "CDFILSUWxX",
	valueLong: []string{"context", "unified", "ifdef", "show-function-line", "label", "width",
		"exclude", "exclude-from", "starting-file", "from-file", "to-file", "horizon-lines",
		"line-format", "old-line-format", "new-line-format", "unchanged-line-format",
		"old-group-format", "new-group-format", "unchanged-group-format",
		"changed-group-format", "tabsize", "color", "palette", "ignore-matching-lines"},
	known: []string{"recursive", "no-dereference", "new-file", "unidirectional-new-file", "brief",
		"report-identical-files", "text", "normal", "ignore-case", "ignore-tab-expansion",
		"ignore-trailing-space", "ignore-space-change", "ignore-all-space", "ignore-blank-lines",
		"side-by-side", "left-column", "suppress-common-lines", "expand-tabs", "initial-tab",
		"suppress-blank-empty", "minimal", "speed-large-files", "strip-trailing-cr",
		"ignore-file-name-case", "no-ignore-file-name-case", "help", "version"},
}

// diffFacts: diff reads; -r compares trees and follows the links under
// them unless --no-dereference.
func diffFacts(args []string) facts {
	a := diffOpts.read(args)
	recursive := a.hasShort("r") || a.hasLong(diffOpts, "recursive")
	return facts{own: Of(Read), follows: recursive && !a.hasLong(diffOpts, "no-dereference")}
}

// followsOther reports whether a command the table does not know walks
// trees following links: tar -h (--dereference), rsync -L, -k
// (--copy-links, --copy-dirlinks), zip -r without -y, scp -r. They are
// exec, so they ask anyway; the walk makes the question say secret.
func followsOther(name string, args []string) bool {
	switch name {
	case "tar":
		for _, w := range args {
			if w == "--" {
				break
			}
			if longPrefix([]string{w}, "dereference") ||
				(!strings.HasPrefix(w, "--") && strings.HasPrefix(w, "-") && strings.Contains(w, "h")) {
				return true
			}
		}
		// tar's first word may be a group of letters with no dash: chf.
		return len(args) > 0 && !strings.HasPrefix(args[0], "-") && strings.Contains(args[0], "h")
	case "rsync":
		return longPrefix(args, "copy-links") || longPrefix(args, "copy-unsafe-links") ||
			longPrefix(args, "copy-dirlinks") || shortLetter(args, 'L') || shortLetter(args, 'k')
	case "zip":
		// zip -r stores what each link resolves to unless -y (--symlinks).
		return (shortLetter(args, 'r') || shortLetter(args, 'R') || longPrefix(args, "recurse-paths")) &&
			!shortLetter(args, 'y') && !longPrefix(args, "symlinks")
	case "scp":
		return shortLetter(args, 'r')
	}
	return false
}

// shortLetter reports whether a short option group before "--" holds c.
func shortLetter(args []string, c byte) bool {
	for _, w := range args {
		if w == "--" {
			return false
		}
		if len(w) > 1 && w[0] == '-' && w[1] != '-' && strings.IndexByte(w, c) >= 0 {
			return true
		}
	}
	return false
}

var lnOpts = optSpec{
	valueShort: "St",
	valueLong:  []string{"backup", "suffix", "target-directory"},
	known: []string{"directory", "force", "interactive", "logical", "no-dereference", "physical",
		"relative", "symbolic", "no-target-directory", "verbose", "help", "version"},
}

// lnSymbolic is what ln -s makes: the targets it writes into links, and
// where the links go (dest: a directory when into, else the link's own
// path). A relative target is read by the kernel from the link's
// directory, not from ln's. ok is false for a hard link.
func lnSymbolic(args []string) (targets []string, dest string, into, ok bool) {
	a := lnOpts.read(args)
	if !a.hasShort("s") && !a.hasLong(lnOpts, "symbolic") {
		return nil, "", false, false
	}
	dirs := append(a.shortValues(lnOpts, 't'), a.longValues(lnOpts, "target-directory")...)
	if len(dirs) > 0 {
		return a.operands, dirs[len(dirs)-1], true, true
	}
	if len(a.operands) < 2 {
		return nil, "", false, true
	}
	n := len(a.operands)
	return a.operands[:n-1], a.operands[n-1], n > 2, true
}

// linkDirs are the directories ln -s puts its links in, from each
// directory the step may run in; with replaces (-n, -T) a destination
// that is a link is replaced, not gone into.
func (r *classifying) linkDirs(dest string, into, replaces bool, dirs []string) []string {
	var out []string
	for _, d := range dirs {
		rp := r.resolve(d, dest)
		if replaces && !into {
			rp = r.sh.Policy.ResolveLink(d, dest)
		}
		if into || r.sh.Policy.fs.Kind(rp.Path) == KindDir {
			out = appendNew(out, rp.Path)
		} else {
			out = appendNew(out, parentOf(rp.Path))
		}
	}
	return out
}
