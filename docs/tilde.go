package docs

import (
	"os/user"
	"strings"
)

// ExpandTilde expands a leading tilde of a path the model named as the
// shell expands it in a word: "~" and "~/x" are under
// home, "~+" and "~+/x" under dir (the tools' working directory, as $PWD),
// "~NAME" and "~NAME/x" under the home of user NAME when users knows it.
// Any other path, and a form that cannot be expanded (no home given, an
// unknown user, "~-" with no previous directory), stays as written — as
// bash leaves it. The gate then judges the expanded path, since every
// access judges the path Abs gives.
func ExpandTilde(p, home, dir string, users func(name string) (string, bool)) string {
	if !strings.HasPrefix(p, "~") {
		return p
	}
	head, rest, _ := strings.Cut(p[1:], "/")
	base := ""
	switch head {
	case "":
		base = home
	case "+":
		base = dir
	default:
		if head == "-" || users == nil {
			return p
		}
		if h, ok := users(head); ok {
			base = h
		}
	}
	if base == "" {
		return p
	}
	if rest == "" && !strings.HasSuffix(p, "/") {
		return base
	}
	return strings.TrimSuffix(base, "/") + "/" + rest
}

// LookupHome is a user's home directory from the system's user database,
// for ExpandTilde's ~NAME.
func LookupHome(name string) (string, bool) {
	u, err := user.Lookup(name)
	if err != nil || u.HomeDir == "" {
		return "", false
	}
	return u.HomeDir, true
}
