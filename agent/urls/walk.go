package urls

import "strings"

// WalkPath is the lexical walk of S7.6, the one walker of every URL
// scheme: the path is a list of '/'-separated segments under the root of
// its scheme; ".." goes up one segment, "." and an empty segment do not
// move, any other segment is a name and goes down into it. It gives the
// names the path ends at, in order (none: the root itself), or ok false
// when the walk climbs above the root at any point (path_rejects_escape).
// A path above its root is never clamped: "../x" and "a/../../a/x" are
// rejected, not read as "x" and "a/x".
//
// Nothing else is special: a backslash, a '~', a ':' or a space is part of
// a name. The filesystem rule that "/.." is "/" (filepath.Clean) is not
// used here.
func WalkPath(path string) (names []string, ok bool) {
	for seg := range strings.SplitSeq(path, "/") {
		switch seg {
		case "", ".":
		case "..":
			if len(names) == 0 {
				return nil, false
			}
			names = names[:len(names)-1]
		default:
			names = append(names, seg)
		}
	}
	return names, true
}
