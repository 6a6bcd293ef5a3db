package gate

import "strings"

// The gate's form of a Windows path, and the one seam through which the
// path policy sees Windows spellings (G1.1, G1.2): Resolve on a file
// system that opens names as Windows does (WindowsNamer) judges
// WindowsCanonical's name, in the gate's form, so ".git.", ".GIT",
// ".git::$INDEX_ALLOCATION" and an unexpanded GIT~1 reach the policy as
// the name Windows opens; NewPolicy and SetMoreRules put their entries
// in the same form (policyPath). The gate's form keeps the policy's '/'
// rules: "C:\a\b" is "/C:/a/b", "\\server\share\a" is
// "/UNC/server/share/a".

// LongNamer is a Windows FS that expands the 8.3 short names of the
// existing part of a path (GetLongPathNameW): "C:/w/GIT~1/x" is
// "C:/w/.git/x" when GIT~1 exists. A short name it cannot expand stays,
// and the policy takes it as any name it could be.
type LongNamer interface {
	LongName(path string) string
}

// gateFormWindows is a canonical Windows path (WindowsCanonical) in the
// gate's form.
func gateFormWindows(canon string) string {
	if rest, ok := strings.CutPrefix(canon, "//"); ok {
		return cleanAbs("/", "/UNC/"+rest)
	}
	if driveLetter(canon) {
		return cleanAbs("/", "/"+canon)
	}
	return canon
}

// nativeFromGate is a path in the gate's form as Windows writes it with
// '/' ("/C:/a" is "C:/a", "/UNC/s/sh" is "//s/sh"); any other path as it
// is.
func nativeFromGate(p string) string {
	q := strings.ReplaceAll(p, `\`, "/")
	if rest, ok := strings.CutPrefix(q, "/"); ok && driveLetter(rest) {
		if len(rest) == 2 {
			return rest + "/"
		}
		return rest
	}
	if len(q) >= 5 && strings.EqualFold(q[:5], "/UNC/") {
		return "//" + q[5:]
	}
	return p
}

// resolveWindows is Resolve on a Windows file system: path (and dir when
// path is relative) made canonical, its short names expanded where the
// FS can, then resolved in the gate's form.
func resolveWindows(fsys FS, dir, path string) RealPath {
	written := func(p string) string { return cleanAbs("/", strings.ReplaceAll(p, `\`, "/")) }
	c, problem := WindowsCanonical(nativeFromGate(path))
	if problem != "" {
		return RealPath{Path: written(path), Problem: problem}
	}
	if !driveLetter(c) && !strings.HasPrefix(c, "//") {
		d, problem := WindowsCanonical(nativeFromGate(dir))
		if problem != "" || !driveLetter(d) && !strings.HasPrefix(d, "//") {
			if problem == "" {
				problem = ProblemRooted
			}
			return RealPath{Path: written(path), Problem: problem}
		}
		c = strings.TrimSuffix(d, "/") + "/" + c
	}
	if ln, ok := fsys.(LongNamer); ok {
		c = ln.LongName(c)
	}
	return withFinal(fsys, resolveSlash(fsys, "/", gateFormWindows(c)))
}

// policyPath is one of the policy's own entries (a root, a secret, a
// rule's path) in the form Resolve gives on fsys: as written, or on a
// Windows file system its canonical name in the gate's form.
func policyPath(fsys FS, p string) string {
	if wn, ok := fsys.(WindowsNamer); !ok || !wn.WindowsNames() {
		return p
	}
	c, problem := WindowsCanonical(nativeFromGate(p))
	if problem != "" {
		return strings.ReplaceAll(p, `\`, "/")
	}
	return gateFormWindows(c)
}

// Native is the real path as the system opens it (NativePath).
func (r RealPath) Native() string { return NativePath(r.Path) }
