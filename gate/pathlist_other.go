//go:build !windows

package gate

import "strings"

// splitPathList splits a PATH-like value as the interpreter does here:
// at every ':', an empty value being one empty entry.
func splitPathList(v string) []string { return strings.Split(v, ":") }

// absEntry reports whether an entry of such a list is absolute.
func absEntry(d string) bool { return strings.HasPrefix(d, "/") }
