package urls

import "strings"

// Split splits "scheme://rest". The scheme is a letter followed by
// letters, digits, '+', '-' or '.' (RFC 3986), taken in lower case; ok is
// false for anything else, which is a plain file path.
func Split(raw string) (scheme, rest string, ok bool) {
	i := strings.Index(raw, "://")
	if i <= 0 {
		return "", "", false
	}
	for j, c := range raw[:i] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	return strings.ToLower(raw[:i]), raw[i+3:], true
}

// IsURL tells whether a path the model named is a URL (scheme://...)
// rather than a file path: read sends those to Reader, glob rejects them
// (S7.5).
func IsURL(p string) bool {
	_, _, ok := Split(p)
	return ok
}
