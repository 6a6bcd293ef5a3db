package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// flags are a subcommand's options: those that take a value (--root DIR
// or --root=DIR) and switches (--json).
type flags struct {
	values map[string]*string
	bools  map[string]*bool
}

// errHelp is parse's answer to -h or --help.
var errHelp = errors.New("help")

// parse reads args: the options it knows, the other words in order (a
// word "-" is a word); after "--" every argument is a word. An option
// takes one dash or two (-root DIR, --root=DIR), as Go's flag package
// reads them. An unknown option or a missing value is an error that says
// so.
func (f flags) parse(args []string) (words []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(words, args[i+1:]...), nil
		case a == "-h" || a == "-help" || a == "--help":
			return nil, errHelp
		case !strings.HasPrefix(a, "-") || a == "-":
			words = append(words, a)
			continue
		}
		name, value, hasValue := strings.Cut(a, "=")
		if !strings.HasPrefix(name, "--") {
			name = "-" + name
		}
		if p, ok := f.values[name]; ok {
			if !hasValue {
				if i+1 >= len(args) {
					return nil, fmt.Errorf("%s needs a value", name)
				}
				i++
				value = args[i]
			}
			*p = value
			continue
		}
		if p, ok := f.bools[name]; ok && !hasValue {
			*p = true
			continue
		}
		return nil, fmt.Errorf("unknown option %s", a)
	}
	return words, nil
}

// subcommand is one eukhe subcommand as its option errors and -h name
// it: eukhe NAME, with its usage.
type subcommand struct {
	name, usage    string
	stdout, stderr io.Writer
}

// bad says on standard error what is wrong with the arguments, then the
// usage; it is the exit status of a usage error, 2.
func (c subcommand) bad(format string, a ...any) int {
	fmt.Fprintf(c.stderr, "eukhe "+c.name+": "+format+"\n\n%s", append(a, c.usage)...)
	return 2
}

// parse reads args with f. -h prints the usage on standard output: done,
// with exit status 0; a bad option is bad: done, with 2.
func (c subcommand) parse(f flags, args []string) (words []string, code int, done bool) {
	words, err := f.parse(args)
	switch {
	case err == errHelp:
		fmt.Fprint(c.stdout, c.usage)
		return nil, 0, true
	case err != nil:
		return nil, c.bad("%v", err), true
	}
	return words, 0, false
}

// options is parse for a subcommand that takes options only: a word is
// bad too.
func (c subcommand) options(f flags, args []string) (code int, done bool) {
	words, code, done := c.parse(f, args)
	if !done && len(words) > 0 {
		return c.bad("unknown argument %q", words[0]), true
	}
	return code, done
}

// directory is dir made absolute, when it is a directory that exists.
func directory(flag, dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(abs); err == nil && !fi.IsDir() {
			err = errors.New("not a directory")
		}
	}
	if err != nil {
		return "", fmt.Errorf("%s %s: %v; give a directory that exists", flag, dir, err)
	}
	return abs, nil
}
