package gate

import (
	"strings"
)

// The spellings Windows opens as another name (the classes behind git's
// CVE-2014-9390, CVE-2019-1352 and CVE-2019-1353): trailing dots and
// spaces it drops (".git." and ".git " open .git), alternate data streams
// (".git::$INDEX_ALLOCATION" is the directory .git, "config:x" a stream
// of config), 8.3 short names (GIT~1 may be .git), the \\?\ and \\.\
// prefixes, UNC paths, drive-relative paths (C:foo) and device names
// (CON, NUL.txt). WindowsCanonical judges a path as Windows will open
// it, so the path policy (G1.2) classes the file, not the spelling. It is
// pure and has no build tag: every host tests it.

// The problems WindowsCanonical finds in a path it cannot place: the
// path policy classes such a path Secret (it may name anything) or, for
// a device, Protected (never Inside).
const (
	ProblemDevice        = "names a device"
	ProblemDriveRelative = "is relative to a drive's own working directory"
	ProblemRooted        = "is rooted on the current drive"
	ProblemNamespace     = "names an object of the device namespace"
	ProblemDotsOnly      = "has a part of only dots and spaces"
	ProblemUNC           = "is a UNC path without a share"
	ProblemNUL           = "holds a NUL character"
	// a share whose name ends in $ (C$, ADMIN$): an administrative share,
	// on this machine (\\localhost\C$) the very disk the policy names
	// by its drive (the red team's under Wine)
	ProblemAdminShare = "names an administrative share (a whole disk, this machine's own through \\\\localhost)"
)

// WindowsCanonical is the path Windows opens for path, with '/' between
// its parts: "C:/a/b" for a drive path (the letter upper case), "//server/share/a"
// for a UNC path (and \\?\UNC\...), "a/b" for a relative one. Each part
// loses its trailing dots and spaces and its stream suffix (":x",
// "::$DATA", "::$INDEX_ALLOCATION": a stream of a file is that file);
// "." parts go, ".." parts stay (Resolve takes them from the real
// directory). A short-name part (IsShortName) stays as written: the
// policy takes it as any name it could be. problem is non-empty when the
// path cannot be placed: a device name, a drive-relative or
// current-drive-rooted path, the \\.\ or \\?\GLOBALROOT namespaces.
func WindowsCanonical(path string) (canon string, problem string) {
	if strings.IndexByte(path, 0) >= 0 {
		return "", ProblemNUL
	}
	p := strings.ReplaceAll(path, `\`, "/")
	var prefix string
	switch {
	case strings.HasPrefix(p, "//./") || p == "//.":
		return "", ProblemNamespace
	case strings.HasPrefix(p, "//?/") || strings.HasPrefix(p, "/??/"):
		rest := p[4:]
		switch {
		case len(rest) >= 4 && strings.EqualFold(rest[:4], "UNC/"):
			p = "//" + rest[4:]
		case driveLetter(rest) && (len(rest) == 2 || rest[2] == '/'):
			p = rest
		default:
			// \\?\GLOBALROOT\Device\..., \\?\Volume{guid}\...
			return "", ProblemNamespace
		}
	}
	switch {
	case strings.HasPrefix(p, "//"):
		parts := splitPath(p)
		if len(parts) < 2 {
			return "", ProblemUNC
		}
		server, sp := windowsPart(parts[0])
		share, sh := windowsPart(parts[1])
		if sp != "" || sh != "" || server == "" || share == "" || server == "." || server == "?" || server == ".." || share == "." || share == ".." {
			return "", ProblemUNC
		}
		if strings.HasSuffix(share, "$") {
			return "", ProblemAdminShare
		}
		prefix = "//" + server + "/" + share
		p = strings.Join(parts[2:], "/")
	case driveLetter(p):
		if len(p) > 2 && p[2] != '/' {
			return "", ProblemDriveRelative
		}
		prefix = strings.ToUpper(p[:1]) + ":"
		p = p[2:]
		if p == "" {
			return "", ProblemDriveRelative
		}
	case strings.HasPrefix(p, "/"):
		return "", ProblemRooted
	}
	var out []string
	for _, c := range strings.Split(p, "/") {
		if c == "" || c == "." {
			continue
		}
		name, problem := windowsPart(c)
		if problem != "" {
			return "", problem
		}
		if name == "" || name == "." { // a stream of the directory itself
			continue
		}
		out = append(out, name)
	}
	rest := strings.Join(out, "/")
	switch {
	case prefix == "":
		if rest == "" {
			return ".", ""
		}
		return rest, ""
	case rest == "":
		if strings.HasSuffix(prefix, ":") {
			return prefix + "/", ""
		}
		return prefix, ""
	}
	if strings.HasSuffix(prefix, ":") {
		return prefix + "/" + rest, ""
	}
	return prefix + "/" + rest, ""
}

// windowsPart is one part of a path as Windows opens it: without its
// stream suffix and its trailing dots and spaces, or a problem.
func windowsPart(c string) (string, string) {
	if c == "." || c == ".." {
		return c, ""
	}
	if i := strings.IndexByte(c, ':'); i >= 0 {
		c = c[:i]
		if c == "" {
			return "", ""
		}
	}
	name := strings.TrimRight(c, ". ")
	if name == "" {
		if c == "." || c == ".." {
			return c, ""
		}
		return "", ProblemDotsOnly
	}
	if IsDeviceName(name) {
		return "", ProblemDevice
	}
	return name, ""
}

// driveLetter reports whether p starts with a drive: a letter and ':'.
func driveLetter(p string) bool {
	return len(p) >= 2 && p[1] == ':' && (p[0] >= 'a' && p[0] <= 'z' || p[0] >= 'A' && p[0] <= 'Z')
}

// IsDeviceName reports whether Windows opens a part of this name as a
// device: CON, PRN, AUX, NUL, COM0-9, LPT0-9 (and the superscript
// digits), CONIN$, CONOUT$, with any extension ("NUL.txt") and spaces
// before it, in any case.
func IsDeviceName(name string) bool {
	base := name
	if i := strings.IndexByte(base, '.'); i >= 0 {
		base = base[:i]
	}
	base = strings.ToUpper(strings.TrimRight(base, " "))
	switch base {
	case "CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$":
		return true
	}
	if len(base) < 4 || base[:3] != "COM" && base[:3] != "LPT" {
		return false
	}
	switch d := base[3:]; d {
	case "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "¹", "²", "³":
		return true
	}
	return false
}

// IsShortName reports whether a part may be an 8.3 short name Windows
// made for a longer one (GIT~1 for .git, VSCODE~1 for .vscode): up to
// six characters but '.' and '~', then '~' and digits, then at most a
// three-character extension. The policy takes such a part as at least as
// strict as the most protective name it could be, unless the OS expanded
// it (GetLongPathNameW) because it exists.
func IsShortName(c string) bool {
	i := strings.IndexByte(c, '~')
	if i < 1 {
		return false
	}
	if n := len([]rune(c[:i])); n < 1 || n > 6 || strings.ContainsAny(c[:i], ".~") {
		return false
	}
	rest := c[i+1:]
	digits := 0
	for digits < len(rest) && rest[digits] >= '0' && rest[digits] <= '9' {
		digits++
	}
	if digits == 0 {
		return false
	}
	rest = rest[digits:]
	if rest == "" {
		return true
	}
	if rest[0] != '.' {
		return false
	}
	ext := rest[1:]
	return len([]rune(ext)) <= 3 && !strings.Contains(ext, ".")
}
