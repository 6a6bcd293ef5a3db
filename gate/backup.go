package gate

import (
	"path"
	"strings"
)

// Backups (red team): cp, mv and ln with a backup suffix
// (-S SUFFIX, --suffix=SUFFIX, which imply --backup) rename the file they
// replace to DEST+SUFFIX, a name no word of the step shows: with a/b/.gi
// in place, `cp -b -S t a.txt a/b/.gi` makes a/b/.git. Every such name is
// judged as a path the step writes, so a protected one asks.

// moveOpts are the options of mv and ln that take a value.
var moveOpts = optSpec{
	valueShort: "StZ",
	valueLong:  []string{"backup", "suffix", "target-directory", "context"},
	known: []string{"force", "interactive", "no-clobber", "strip-trailing-slashes", "update",
		"verbose", "no-target-directory", "exchange", "no-copy", "directory", "logical",
		"no-dereference", "physical", "relative", "symbolic", "debug", "help", "version"},
}

// backupPaths are the names a backup with a suffix given on the command
// line can take: each operand plus the suffix, and each operand's base
// name plus the suffix in every directory the step may copy into (the
// last operand, -t). The default suffix "~" and numbered backups (.~N~)
// never make a protected name, and SIMPLE_BACKUP_SUFFIX in a step's
// environment already makes it exec.
func backupPaths(s optSpec, args []string) []string {
	a := s.read(args)
	suffixes := append(a.shortValues(s, 'S'), a.longValues(s, "suffix")...)
	if len(suffixes) == 0 || len(a.operands) == 0 {
		return nil
	}
	dirs := append(a.shortValues(s, 't'), a.longValues(s, "target-directory")...)
	dirs = append(dirs, a.operands[len(a.operands)-1])
	var out []string
	for _, suf := range suffixes {
		for _, o := range a.operands {
			out = append(out, o+suf)
			base := path.Base(strings.TrimRight(o, "/"))
			for _, d := range dirs {
				out = append(out, strings.TrimRight(d, "/")+"/"+base+suf)
			}
		}
	}
	return out
}
