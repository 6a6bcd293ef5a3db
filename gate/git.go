package gate

import "strings"

// gitGlobal are the options allowed before a git subcommand: none sets
// configuration or names a program (S7.8). -C DIR is read apart.
var gitGlobal = setOf("--no-pager", "-P", "--literal-pathspecs", "--glob-pathspecs",
	"--noglob-pathspecs", "--icase-pathspecs", "--no-optional-locks", "--no-replace-objects")

// gitRead are the subcommands that only read, run with UntrustedRepoArgs.
var gitRead = setOf("cat-file", "count-objects", "describe", "for-each-ref", "grep", "log",
	"ls-files", "ls-tree", "merge-base", "name-rev", "rev-list", "rev-parse", "shortlog", "show",
	"show-ref", "version")

// gitNet are the subcommands that talk to a remote.
var gitNet = setOf("clone", "fetch", "ls-remote", "pull", "push", "submodule")

// gitPretty are git's own pretty formats; any other name may be a
// pretty.<name> alias from repository config.
var gitPretty = setOf("", "oneline", "short", "medium", "full", "fuller", "reference", "email",
	"raw", "mboxrd")

// gitOpts knows the value options of the read subcommands and the exact
// names that are prefixes of a dangerous one ("--text", "--filter").
var gitOpts = optSpec{
	valueShort: "eEfABCmxXn",
	valueLong: []string{"exclude", "exclude-from", "exclude-per-directory", "with-tree", "format",
		"max-depth", "threads", "max-count", "contains", "merged", "no-merged", "points-at", "sort",
		"author", "committer", "grep", "since", "until", "after", "before", "skip", "encoding",
		"abbrev"},
	known: []string{"text", "filter", "no-textconv", "no-ext-diff", "oneline", "stat", "follow",
		"pretty", "name-only", "name-status", "patch", "no-patch", "graph", "all", "decorate",
		"abbrev-commit", "cached", "staged", "numstat", "shortstat", "summary", "reverse",
		"first-parent", "merges", "no-merges", "color", "no-color", "word-diff", "full-index",
		"binary", "date", "relative-date", "source", "show-current", "list", "others", "ignored",
		"exclude-standard", "stage", "deleted", "long", "tags", "always", "heads", "short",
		"verify", "quiet", "line-number", "count", "files-with-matches", "ignore-case",
		"word-regexp", "extended-regexp", "fixed-strings", "perl-regexp", "untracked", "no-index",
		"recurse-submodules", "show-toplevel", "git-dir", "is-inside-work-tree", "abbrev-ref",
		"symbolic-full-name", "topo-order", "date-order", "raw", "unified", "exit-code", "debug",
		"exact-match", "candidates", "match", "first-parent", "dereference", "head", "hash",
		"name-only", "full-name", "full-tree", "object-only", "batch", "batch-check"},
}

// UntrustedRepoArgs are the options git runs with for every read step the
// gate lets run unasked: no fsmonitor, no hooks, no signature check, no
// pager, no external diff or textconv program, no fetch of missing objects
// (with GIT_NO_LAZY_FETCH=1 in its environment). The shell runner puts
// them right after "git".
var UntrustedRepoArgs = []string{
	"--no-pager",
	"-c", "core.fsmonitor=false",
	"-c", "core.hooksPath=/dev/null",
	"-c", "core.pager=cat",
	"-c", "log.showSignature=false",
	"-c", "diff.external=",
	"-c", "core.sshCommand=false",
	"-c", "credential.helper=",
	"-c", "protocol.allow=never",
}

// gitFacts is the git part of the command table (S7.8).
func gitFacts(args []string) facts {
	f := gitFactsOf(args)
	// A revision named after HEAD (HEAD, HEAD~2, ORIG_HEAD^) before "--"
	// is not a path: HEAD is a protected name (a file named HEAD makes a
	// bare repository), and git's words name refs.
	for i, w := range args {
		if w == "--" {
			break
		}
		if gitHeadRevision(w) {
			f.literals = append(f.literals, i)
		}
	}
	return f
}

// gitHeadRevision reports whether w is a revision of one of git's HEAD
// refs, with any ~ or ^ suffix.
func gitHeadRevision(w string) bool {
	name := w
	if i := strings.IndexAny(w, "~^@"); i >= 0 {
		name = w[:i]
	}
	switch name {
	case "HEAD", "ORIG_HEAD", "FETCH_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD":
		return true
	}
	return false
}

func gitFactsOf(args []string) facts {
	var f facts
	i := 0
	for ; i < len(args); i++ {
		w := args[i]
		if w == "-C" && i+1 < len(args) {
			i++
			f.dirs = append(f.dirs, args[i])
			continue
		}
		if gitGlobal[w] {
			continue
		}
		if strings.HasPrefix(w, "-") {
			// -c, --config-env, --exec-path, --git-dir, -p, …
			f.own = Of(Exec)
			for _, later := range args[i+1:] {
				if later == "init" || later == "clone" {
					// -c init.templateDir=T init: a repository made
					// from a template.
					f.own = f.own.With(Write, Protected)
				}
			}
			return f
		}
		break
	}
	if i == len(args) {
		f.own = Of(Read)
		return f
	}
	sub, rest := args[i], args[i+1:]
	a := gitOpts.read(rest)
	switch {
	case sub == "clone":
		// It makes a repository, as init does (gitInit), and fetches.
		f.own = Of(Net, Exec, Write, Protected)
		return f
	case gitNet[sub]:
		f.own = Of(Net, Exec)
		return f
	case sub == "branch":
		f.own = gitBranch(a)
	case sub == "symbolic-ref":
		f.own = Of(Read)
		if len(a.operands) > 1 || a.given(gitOpts, "dm", "delete") {
			f.own = Of(Write)
		}
	case sub == "init":
		f.own = gitInit(rest)
		return f
	case sub == "update-ref":
		f.own = Of(Write)
		return f
	case sub == "diff":
		if !a.hasWord("--cached", "--staged") {
			f.own = Of(Exec)
			return f
		}
		f.own = Of(Read)
	case gitRead[sub]:
		f.own = Of(Read)
	default:
		f.own = Of(Exec)
		return f
	}
	if f.own.Has(Exec) || gitRunsProgram(sub, a) {
		f.own = Of(Exec)
		return f
	}
	if a.hasLong(gitOpts, "output") {
		f.own = f.own.With(Write)
	}
	switch sub {
	case "ls-files":
		f.readsCwd = len(a.operands) == 0
	case "grep":
		f.readsCwd = a.dashdash < 0 || a.dashdash == len(a.words)-1
	}
	return f
}

// gitBranch is branch: read when it only shows, exec with
// --edit-description, write when it changes a ref.
func gitBranch(a argv) Effects {
	if a.hasLong(gitOpts, "edit-description") {
		return Of(Exec)
	}
	if a.hasShort("dDmMcCfut") || a.hasLong(gitOpts, "delete", "move", "copy", "force",
		"set-upstream-to", "unset-upstream", "track", "no-track", "create-reflog") {
		return Of(Write)
	}
	listing := a.given(gitOpts, "l", "list", "contains", "no-contains", "merged", "no-merged",
		"points-at")
	if len(a.operands) == 0 || listing {
		return Of(Read)
	}
	return Of(Write)
}

// gitRunsProgram reports whether a read subcommand's options can make git
// run a program the repository names: --textconv, --ext-diff, --filters,
// a signature option or format (%G, "signature", a pretty.<name> alias),
// describe --dirty/--broken, ls-files -m, grep -O, branch
// --edit-description.
func gitRunsProgram(sub string, a argv) bool {
	if a.hasLong(gitOpts, "textconv", "ext-diff", "filters", "show-signature",
		"verify-signatures", "gpg-sign") {
		return true
	}
	for _, w := range a.optionWords() {
		if strings.Contains(w, "%G") || strings.Contains(strings.ToLower(w), "signature") {
			return true
		}
	}
	for _, v := range a.longValues(gitOpts, "format", "pretty") {
		if strings.Contains(v, "%G") || strings.Contains(strings.ToLower(v), "signature") {
			return true
		}
	}
	for _, w := range a.optionWords() {
		name, v, ok := strings.Cut(strings.TrimPrefix(w, "--"), "=")
		if !ok || !strings.HasPrefix(w, "--") || name == "" {
			continue
		}
		if !strings.HasPrefix("pretty", name) && !strings.HasPrefix("format", name) {
			continue
		}
		if !gitPretty[v] && !strings.Contains(v, "%") &&
			!strings.HasPrefix(v, "format:") && !strings.HasPrefix(v, "tformat:") {
			return true
		}
	}
	switch sub {
	case "describe":
		return a.hasLong(gitOpts, "dirty", "broken")
	case "ls-files":
		return a.hasShort("m") || a.hasLong(gitOpts, "modified")
	case "grep":
		return a.hasShort("O") || a.hasLong(gitOpts, "open-files-in-pager")
	}
	return false
}

// GitSafeArgv is a git step's argv as the shell runner runs it: a step the
// table does not call exec gets UntrustedRepoArgs after "git", and diff,
// log and show also get --no-ext-diff --no-textconv after the subcommand.
// Any other argv comes back as it is.
func GitSafeArgv(argv []string) []string {
	if len(argv) == 0 || argv[0] != "git" || gitFacts(argv[1:]).own.Has(Exec) {
		return argv
	}
	out := append([]string{"git"}, UntrustedRepoArgs...)
	i := 1
	for ; i < len(argv); i++ {
		if argv[i] == "-C" && i+1 < len(argv) {
			out = append(out, argv[i], argv[i+1])
			i++
			continue
		}
		if !gitGlobal[argv[i]] {
			break
		}
		out = append(out, argv[i])
	}
	if i == len(argv) {
		return out
	}
	out = append(out, argv[i])
	switch argv[i] {
	case "diff", "log", "show":
		out = append(out, "--no-ext-diff", "--no-textconv")
	}
	return append(out, argv[i+1:]...)
}

// gitInit is init: it writes a .git whose config and hooks git later runs,
// wherever it is made, so it is write and protected always; a template
// (--template, copied into the new .git, hooks included) makes it exec.
// (-c init.templateDir and --config-env are global options: exec already.)
func gitInit(args []string) Effects {
	if longPrefix(args, "template") {
		return Of(Write, Exec, Protected)
	}
	return Of(Write, Protected)
}
