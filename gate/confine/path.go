package confine

import "strings"

// under reports whether p is base or below it; both clean and absolute.
func under(p, base string) bool {
	if base == "/" {
		return true
	}
	n := len(base)
	return len(p) >= n && p[:n] == base && (len(p) == n || p[n] == '/')
}

// parentOf is the directory that holds path; "/" for a path just below
// the root, or with no slash.
func parentOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

func depth(p string) int { return strings.Count(strings.TrimSuffix(p, "/"), "/") }
