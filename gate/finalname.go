package gate

import "strings"

// File identity on a Windows file system (the issue "judge a file's
// identity, not its name"). Windows, and Wine, give one directory names
// that are not links Readlink can see: a subst drive, a volume mounted in
// a folder, Wine's Z: (the Unix root, so C:\users\ME is also
// Z:\...\drive_c\users\ME), and under Wine a Unix symlink, which Wine's
// open follows and no Windows call shows as a reparse point. The law
// (a path is classed as what it really is, whatever its spelling):
// Resolve on a FinalNamer takes the final path of the longest existing
// part of the path (GetFinalPathNameByHandle: identity_windows.go) and
// keeps the rest as written; the policy's own entries are resolved the
// same way when it is made, so both sides of a comparison name the file
// the same way. The spelling, resolved by name as before, is kept in
// RealPath.Spelled, and a Secret or Protected class it has is kept too
// (ClassOfIdentity): a name never lowers what the file is, and the file
// never lowers what a name of a secret or protected place is.

// FinalNamer is a file system that can tell the one name of an existing
// file whatever name opened it: FinalName is the final path of path (in
// the gate's form), ok false when nothing is there or it cannot be named
// as a path the gate can place.
type FinalNamer interface {
	FinalName(path string) (final string, ok bool)
}

// finalOf is path (absolute, in the gate's form) with its longest
// existing part replaced by that part's final name (FinalName), the rest
// kept as written. A path no part of which has a final name is as it is.
func finalOf(fn FinalNamer, path string) string {
	parts := splitPath(path)
	for n := len(parts); n > 0; n-- {
		head := joinPath(parts[:n])
		f, ok := fn.FinalName(head)
		if !ok || f == "" {
			continue
		}
		if n == len(parts) {
			return f
		}
		return strings.TrimSuffix(f, "/") + "/" + strings.Join(parts[n:], "/")
	}
	return path
}

// withFinal is r with its path replaced by its final path on fsys (a
// FinalNamer) and the spelling kept in Spelled when they differ. A path
// Resolve could not place (Problem) is left as it is.
func withFinal(fsys FS, r RealPath) RealPath {
	fn, ok := fsys.(FinalNamer)
	if !ok || r.Problem != "" {
		return r
	}
	f := finalOf(fn, r.Path)
	if f != r.Path {
		r.Spelled, r.Path = r.Path, f
	}
	return r
}

// ClassOfIdentity is the class of a path whose final path has class
// final and whose spelling, resolved by name, has class spelled: the
// final path's class, raised to the spelling's when that is Secret or
// Protected. Inside and Outside are the file's: a spelling inside the
// root of a file outside it is Outside.
func ClassOfIdentity(spelled, final Class) Class {
	if spelled >= ClassProtected && spelled > final {
		return spelled
	}
	return final
}

// FinalName forwards to the FS memoFS wraps, each path asked once.
func (m *memoFS) FinalName(p string) (string, bool) {
	fn, ok := m.fs.(FinalNamer)
	if !ok {
		return "", false
	}
	if m.finals == nil {
		m.finals = map[string]memoFinal{}
	}
	if f, ok := m.finals[p]; ok {
		return f.final, f.ok
	}
	f, ok := fn.FinalName(p)
	m.finals[p] = memoFinal{f, ok}
	return f, ok
}

type memoFinal struct {
	final string
	ok    bool
}

// finalGateForm is a final path as GetFinalPathNameByHandle gives it
// ("\\?\C:\a", "\\?\UNC\server\share\a") in the gate's form, ok false
// when WindowsCanonical cannot place it (\\?\Volume{…}, Wine's
// \\?\unix\…).
func finalGateForm(final string) (string, bool) {
	c, problem := WindowsCanonical(final)
	if problem != "" || !driveLetter(c) && !strings.HasPrefix(c, "//") {
		return "", false
	}
	return gateFormWindows(c), true
}
