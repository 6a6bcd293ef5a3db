package gate

import (
	"strings"
)

// facts are what the command table says of one command (S7.8): its own
// effects, whether it reads its working directory because it names no
// path, where it reads it instead (git -C), the shell code it runs (eval,
// sh -c), and what it does to the shell for later steps.
type facts struct {
	own Effects
	// readsCwd: the command reads its working directory (ls, rg x, …).
	readsCwd bool
	// dirs replace the working directory for the cwd read and relative
	// words (git -C DIR), in order, each relative to the one before.
	dirs []string
	// scripts are shell code the command runs; their parts join the step.
	scripts []string
	// state: the command changes the shell (variables, options, aliases,
	// functions, descriptors) so that later steps may mean something else.
	state bool
	// cd is the directory a cd step moves to; cdUnknown when it cannot be
	// told (cd -, pushd, popd).
	cd        string
	cdUnknown bool
	// namesNothing: the command's words are not paths it reads or writes
	// (cd: the steps after it are judged in the directory it moves to).
	namesNothing bool
	// getopt: the command is in the table and reads its options as getopt
	// does, so an option word is not a path (only the values in it are).
	getopt bool
	// literals are indexes in args of words that are not paths (jq's
	// filter).
	literals []int
	// unseen are option values the gate cannot see into: a list of paths,
	// a config or a program read from a file (--files0-from=F, curl -K F,
	// jq import). Each makes the step exec and secret (unseen.go).
	unseen []string
	// follows: the command walks the trees it names (or its working
	// directory) following every symlink under them; the gate walks them
	// too (walk.go).
	follows bool
	// recursive: the command writes (removes, changes the mode or owner
	// of) every entry below each directory it names, links not followed
	// (rm -r, chmod -R, find -delete); the gate judges what those trees
	// hold (tree.go).
	recursive bool
	// derived are paths the command writes that no word shows whole: a
	// backup, DEST+SUFFIX (cp, mv, ln -S). Each is judged as a written
	// word (backup.go).
	derived []string
	// roles say how the command acts on some of its words, by index in
	// args, where it is not as own says (roles.go): cp reads its
	// sources, rm removes a link and not what it points to, a directory
	// a copy goes into is judged by the entries it makes there.
	roles map[int]wordRole
	// replaced are derived entries in a destination the command may
	// replace rather than go into (mv -T, ln -n), each with the index in
	// args of that destination (copyRoles).
	replaced map[string]int
	// copiesTrees: a recursive copy (cp -r, -R, -a); the trees it makes
	// are judged by the names they carry (roles.go's copyTreeParts).
	copiesTrees bool
}

// notPaths tells, for each word of argv, whether it is not itself a path:
// an option word of a getopt command before "--" (unless POSIXLY_CORRECT
// makes options stop at the first operand: then every word counts), or a
// literal.
func (f facts) notPaths(argv []string, posix bool) []bool {
	out := make([]bool, len(argv))
	for _, i := range f.literals {
		if i+1 < len(out) {
			out[i+1] = true
		}
	}
	if !f.getopt || posix {
		return out
	}
	for i := 1; i < len(argv); i++ {
		w := argv[i]
		if w == "--" {
			break
		}
		if len(w) > 1 && w[0] == '-' {
			out[i] = true
		}
	}
	return out
}

// writes reports whether the command counts as one that writes: its words
// outside the workspace add outside, protected ones add protected.
func (f facts) writes() bool { return f.own.Has(Write) }

// readOnly are the table's commands that read only what they name or
// their input.
var readOnly = setOf(
	"cat", "head", "tail", "wc", "echo", "pwd", "stat", "whoami", "id", "uname", "true",
	"false", "test", "[", ":", "basename", "dirname", "realpath", "readlink", "cmp", "comm",
	"cut", "tr", "paste", "nl", "od", "tac", "rev", "fold", "join", "seq", "sleep", "md5sum",
	"sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum",
	"base64", "base32", "strings", "printenv", "diff", "expr", "nproc", "column", "which",
	"type", "tty", "arch", "groups", "logname", "hexdump", "jq", "numfmt", "fmt", "pr",
	"expand", "unexpand", "yes", "exit", "return", "wait", "dirs", "break", "continue",
)

// writers are the table's commands that write what they name.
var writers = setOf(
	"mkdir", "rm", "rmdir", "touch", "cp", "mv", "ln", "tee", "truncate", "chmod", "chown",
	"chgrp", "unlink", "link",
)

// shellState are builtins that change the shell for later steps; each is
// exec, and makes every later step of the script exec too.
var shellState = setOf(
	"unset", "shift", "source", ".", "eval", "exec", "trap", "builtin", "command", "read",
	"mapfile", "readarray", "getopts", "shopt", "enable", "hash", "umask", "declare",
	"typeset", "local", "readonly", "nameref", "let", "unalias", "export",
)

// shells are programs whose -c operand is a script.
var shells = setOf("sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "yash", "busybox")

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

// commandFacts is the command table (S7.8). name has no "/"; args are the
// expanded fields after it. A command not in the table is exec.
func commandFacts(name string, args []string) facts {
	f, known := tableFacts(name, args)
	f.getopt = known
	return f
}

// tableFacts is commandFacts; known is false for a command not in the
// table.
func tableFacts(name string, args []string) (facts, bool) {
	if systemProgram(name) {
		return otherFacts(name, args), false
	}
	f := knownFacts(name, args)
	if f.own.Empty() {
		return otherFacts(name, args), false
	}
	return f, true
}

// knownFacts is the table itself; a command not in it has no effects.
func knownFacts(name string, args []string) facts {
	switch {
	case checksums[name]:
		return checksumFacts(args)
	case name == "wc":
		return facts{own: Of(Read), unseen: files0From(args)}
	case name == "jq":
		return jqFacts(args)
	case name == "diff":
		return diffFacts(args)
	case name == "cp":
		f := cpFacts(args)
		a := cpOpts.read(args)
		f.derived = append(backupPaths(cpOpts, args), intoPaths(cpOpts, args, a.hasLong(cpOpts, "parents"), false)...)
		f.roles, _ = copyRoles(cpOpts, args, name)
		f.copiesTrees = a.hasShort("rRa") || a.hasLong(cpOpts, "recursive", "archive")
		return f
	case name == "mv" || name == "ln":
		f := facts{own: Of(Write), derived: append(backupPaths(moveOpts, args), intoPaths(moveOpts, args, false, name == "ln")...)}
		f.roles, f.replaced = copyRoles(moveOpts, args, name)
		return f
	case name == "unlink":
		return facts{own: Of(Write), roles: linkRoles(optSpec{}, args)}
	case name == "mkdir":
		return facts{own: Of(Write), derived: mkdirParents(args)}
	case name == "chmod" || name == "chown" || name == "chgrp":
		return modeFacts(args)
	case name == "rm":
		return rmFacts(args)
	case readOnly[name]:
		return facts{own: Of(Read)}
	case writers[name]:
		return facts{own: Of(Write)}
	}
	switch name {
	case "ls":
		f := cwdReader(lsOpts, args)
		a := lsOpts.read(args)
		f.follows = (a.hasShort("L") || a.hasLong(lsOpts, "dereference")) &&
			(a.hasShort("R") || a.hasLong(lsOpts, "recursive"))
		return f
	case "du":
		f := cwdReader(duOpts, args)
		a := duOpts.read(args)
		f.follows = a.hasShort("L") || a.hasLong(duOpts, "dereference")
		f.unseen = files0From(args)
		return f
	case "cd":
		return cdFacts(args)
	case "pushd", "popd":
		return facts{own: Of(Exec), state: true, cdUnknown: true}
	case "date":
		a := dateOpts.read(args)
		if a.hasShort("s") || a.hasLong(dateOpts, "set") {
			return facts{own: Of(Exec)}
		}
		return facts{own: Of(Read)}
	case "printf":
		if printfOpts.read(args).hasShort("v") {
			return facts{own: Of(Exec), state: true}
		}
		return facts{own: Of(Read)}
	case "env":
		if len(args) == 0 {
			return facts{own: Of(Read)}
		}
		return facts{own: Of(Exec), scripts: subScripts(args)}
	case "set":
		if len(args) == 0 {
			return facts{own: Of(Read)}
		}
		return facts{own: Of(Exec), state: true}
	case "alias":
		if len(args) == 0 {
			return facts{own: Of(Read)}
		}
		f := facts{own: Of(Exec), state: true}
		for _, a := range args {
			if _, body, ok := strings.Cut(a, "="); ok {
				f.scripts = append(f.scripts, body)
			}
		}
		return f
	case "eval":
		return facts{own: Of(Exec), state: true, scripts: []string{strings.Join(args, " ")}}
	case "grep", "egrep", "fgrep":
		return grepFacts(args)
	case "rg":
		return rgFacts(args)
	case "sed":
		return sedFacts(args)
	case "sort":
		return sortFacts(args)
	case "uniq":
		return operandWriter(uniqOpts.read(args).operands, false)
	case "xxd":
		return operandWriter(xxdOperands(args), true)
	case "find":
		return findFacts(args)
	case "less":
		return lessFacts(args)
	case "file":
		a := fileOpts.read(args)
		f := facts{own: Of(Read)}
		if a.hasShort("C") || a.hasLong(fileOpts, "compile") {
			f.own = Of(Read, Write)
		}
		if a.given(fileOpts, "f", "files-from") {
			f.unseen = []string{"the paths listed by -f"}
		}
		return f
	case "curl":
		return curlFacts(args)
	case "wget":
		return wgetFacts(args)
	case "git":
		return gitFacts(args)
	}
	return facts{}
}

// otherFacts is a command the table does not know: exec, the shell code
// it runs, and the trees it walks following links (tar -h, rsync -L).
func otherFacts(name string, args []string) facts {
	f := facts{own: Of(Exec), scripts: subScripts(append([]string{name}, args...))}
	if shellState[name] {
		f.state = true
	}
	f.follows = followsOther(name, args)
	return f
}

var (
	lsOpts = optSpec{
		valueShort: "ITw",
		valueLong: []string{"ignore", "tabsize", "width", "block-size", "format", "hide",
			"indicator-style", "quoting-style", "sort", "time", "time-style"},
		known: []string{"all", "almost-all", "author", "escape", "directory", "dired", "classify",
			"file-type", "full-time", "group-directories-first", "no-group", "human-readable", "si",
			"dereference-command-line", "dereference-command-line-symlink-to-dir", "hyperlink",
			"ignore-backups", "inode", "kibibytes", "literal", "numeric-uid-gid", "hide-control-chars",
			"show-control-chars", "quote-name", "reverse", "recursive", "size", "context", "zero",
			"dereference", "color", "help", "version"},
	}
	duOpts = optSpec{
		valueShort: "BdtX",
		valueLong: []string{"block-size", "max-depth", "threshold", "exclude-from", "exclude",
			"files0-from", "time-style", "time"},
		known: []string{"all", "apparent-size", "bytes", "total", "dereference-args", "dereference",
			"human-readable", "inodes", "count-links", "no-dereference", "separate-dirs", "si",
			"summarize", "one-file-system", "null", "help", "version"},
	}
	dateOpts   = optSpec{valueShort: "dfrsI", valueLong: []string{"date", "file", "reference", "set"}}
	printfOpts = optSpec{valueShort: "v"}
	fileOpts   = optSpec{
		valueShort: "eFfmP",
		valueLong:  []string{"exclude", "exclude-quiet", "separator", "files-from", "magic-file", "parameter"},
		known: []string{"brief", "checking-printout", "compile", "dereference", "extension", "mime",
			"mime-type", "mime-encoding", "keep-going", "list", "no-dereference", "no-buffer",
			"no-pad", "print0", "preserve-date", "raw", "special-files", "uncompress",
			"uncompress-noreport", "version", "help"},
	}
	uniqOpts = optSpec{
		valueShort: "fsw",
		valueLong:  []string{"skip-fields", "skip-chars", "check-chars"},
		known:      []string{"count", "repeated", "all-repeated", "group", "ignore-case", "unique", "zero-terminated"},
	}
)
