package shell

import "strings"

// envNameEqual tells whether two environment variable names are one:
// exactly, or ignoring case where the system folds them (Windows: "Path"
// is PATH). Pure, so it is tested on any system; sameEnvName applies the
// system's rule. It keeps the law that a variable the shell sets or
// removes (PATH, TMPDIR) is the one the program gets, not a second
// spelling beside it.
func envNameEqual(a, b string, fold bool) bool {
	if fold {
		return strings.EqualFold(a, b)
	}
	return a == b
}

// sameEnvName is envNameEqual under this system's rule (envNamesFold).
func sameEnvName(a, b string) bool { return envNameEqual(a, b, envNamesFold) }
