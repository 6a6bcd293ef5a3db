package agent

import (
	"net/url"
	slashpath "path"
	"strings"
)

// FileURIPath is the absolute path of this machine that a client's file:
// URI names (a root of roots/list), cleaned; ok is false for another
// scheme or a path that is not absolute here. On Windows the URI's path
// is "/C:/Users/me" (the drive letter is given upper case) or, with a
// host, the UNC path \\host\share\…; on Unix it is the path itself.
func FileURIPath(raw string) (p string, ok bool) {
	return fileURIPath(raw, windowsPaths)
}

// fileURIPath is FileURIPath with the system's path form given: windows
// for Windows' (its tests take both on any host).
func fileURIPath(raw string, windows bool) (string, bool) {
	u, err := url.Parse(raw)
	if err != nil || u.Scheme != "file" {
		return "", false
	}
	if !windows {
		if !strings.HasPrefix(u.Path, "/") {
			return "", false
		}
		return slashpath.Clean(u.Path), true
	}
	var vol, rest string
	switch p := u.Path; {
	case u.Host != "" && u.Host != "localhost":
		share, after, _ := strings.Cut(strings.TrimPrefix(p, "/"), "/")
		if share == "" {
			return "", false // \\host alone names no share
		}
		vol, rest = `\\`+u.Host+`\`+share, after
	case len(p) >= 3 && p[0] == '/' && p[2] == ':' && (p[1]|0x20 >= 'a' && p[1]|0x20 <= 'z') && (len(p) == 3 || p[3] == '/'):
		vol, rest = strings.ToUpper(p[1:2])+":", p[3:]
	default:
		return "", false // no drive and no host: not absolute on Windows
	}
	// cleaned under the volume's root, which ".." does not climb above
	clean := slashpath.Clean("/" + strings.ReplaceAll(rest, `\`, "/"))
	return vol + strings.ReplaceAll(clean, "/", `\`), true
}
