package gate

import "strings"

// Values the gate cannot see into: an option whose
// value is a file that lists paths (sort --files0-from, sha256sum -c,
// file -f, less -t's tags file), or a config or a program that can name
// paths and programs (curl -K, wget -e/-i/--config, less --lesskey-src,
// jq -L, -f and import/include). What that file says at run time is not
// what the gate can read now (an earlier step can write it), and it can
// name any path, and every machine has a secret (/proc/*/environ at
// least, proc.go). So each such value makes its step exec (it asks under
// any auto set without exec) and secret (the question says what it may
// reach); in the words of G2, the part names the paths its file lists.

// unseenPart is the part of one such value; what says which option.
func unseenPart(what string) Part {
	return NewPart(Of(Exec), true, "reads "+what+": paths or programs the gate cannot see before it runs")
}

// longPrefix reports whether a word before "--" is "--name" or
// "--name=v" where name is full or a getopt_long abbreviation of it.
func longPrefix(args []string, full string) bool {
	for _, w := range args {
		if w == "--" {
			return false
		}
		name, ok := strings.CutPrefix(w, "--")
		if !ok {
			continue
		}
		name, _, _ = strings.Cut(name, "=")
		if name != "" && strings.HasPrefix(full, name) {
			return true
		}
	}
	return false
}

// files0From is wc's, du's and sort's --files0-from=F: F lists the paths
// to read.
func files0From(args []string) []string {
	if longPrefix(args, "files0-from") {
		return []string{"the paths listed by --files0-from"}
	}
	return nil
}

// checksums are the coreutils that check a list of paths with -c.
var checksums = setOf("md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum",
	"b2sum", "cksum")

var checksumOpts = optSpec{
	valueShort: "al",
	valueLong:  []string{"algorithm", "length"},
	known: []string{"binary", "check", "tag", "text", "zero", "ignore-missing", "quiet",
		"status", "strict", "warn", "untagged", "base64", "raw", "debug", "help", "version"},
}

// checksumFacts: a checksum tool reads what it names; with -c (--check)
// it reads each path its operands list.
func checksumFacts(args []string) facts {
	f := facts{own: Of(Read)}
	if checksumOpts.read(args).given(checksumOpts, "c", "check") {
		f.unseen = []string{"the paths listed by -c"}
	}
	return f
}

// jqFacts: jq reads the files it names and writes nothing. Its first
// operand is the filter, not a path; a filter with import or include, -f
// (the filter from a file) or -L (a module directory) loads modules the
// gate cannot see.
func jqFacts(args []string) facts {
	f := facts{own: Of(Read)}
	filter := -1
	for i := 0; i < len(args); i++ {
		w := args[i]
		switch {
		case w == "--":
			if filter < 0 && i+1 < len(args) {
				filter = i + 1
			}
			i = len(args)
		case w == "--arg" || w == "--argjson" || w == "--slurpfile" || w == "--rawfile":
			i += 2
		case w == "--indent":
			i++
		case w == "--library-path" || strings.HasPrefix(w, "--library-path="):
			f.unseen = append(f.unseen, "modules from a -L directory")
		case w == "--from-file":
			f.unseen = append(f.unseen, "a filter from a file")
		case strings.HasPrefix(w, "--"):
		case len(w) > 1 && w[0] == '-':
			if j := strings.IndexAny(w, "Lf"); j >= 0 {
				if w[j] == 'L' {
					f.unseen = append(f.unseen, "modules from a -L directory")
				} else {
					f.unseen = append(f.unseen, "a filter from a file")
				}
			}
		case filter < 0:
			filter = i
		}
	}
	if filter >= 0 {
		f.literals = []int{filter}
		if strings.Contains(args[filter], "import") || strings.Contains(args[filter], "include") {
			f.unseen = append(f.unseen, "the modules its filter imports")
		}
	}
	return f
}

var wgetOpts = optSpec{
	valueShort: "oaiBtOTwQPUelARDXI",
	valueLong: []string{"output-file", "append-output", "input-file", "base", "config", "tries",
		"output-document", "timeout", "wait", "quota", "directory-prefix", "user-agent", "execute",
		"level", "accept", "reject", "domains", "exclude-directories", "include-directories",
		"post-file", "body-file", "load-cookies", "save-cookies", "use-askpass", "input-metalink",
		"certificate", "private-key", "ca-certificate", "ca-directory", "header", "post-data",
		"method", "body-data", "user", "password"},
	known: []string{"quiet", "verbose", "no-verbose", "continue", "recursive", "mirror",
		"no-config", "spider", "server-response", "timestamping", "no-clobber", "help", "version"},
}

// wgetFacts: wget talks to the network and writes; -i, -e and --config
// read URLs, commands or a config from somewhere the gate does not look;
// --use-askpass runs a program.
func wgetFacts(args []string) facts {
	f := facts{own: Of(Net, Write)}
	a := wgetOpts.read(args)
	if a.given(wgetOpts, "i", "input-file", "input-metalink") {
		f.unseen = append(f.unseen, "URLs from an input file")
	}
	if a.given(wgetOpts, "e", "execute", "config") {
		f.unseen = append(f.unseen, "wgetrc commands")
	}
	if a.given(wgetOpts, "", "use-askpass") {
		f.own = f.own.With(Exec)
	}
	return f
}
