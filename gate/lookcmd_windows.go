package gate

import (
	"io/fs"
	"path/filepath"
	"strings"
)

// NamesPath reports whether a command name is a path: a drive, a
// backslash or a slash in it, as the interpreter's LookPathDir takes it.
func NamesPath(name string) bool { return strings.ContainsAny(name, `:\/`) }

// programIn is the program a PATH entry holds for the name, as the
// interpreter's lookup finds it on Windows (LookPathDir): the name
// itself when it has an extension, then the name with each extension
// of PATHEXT in order (.com, .exe, .bat, .cmd when it is unset), the
// first file that exists. So `ssh` is ssh.exe, or ssh.bat where no
// ssh.com or ssh.exe is before it.
func (p *Policy) programIn(entry, name, pathext string) (string, bool) {
	base := filepath.Join(entry, name)
	var cands []string
	if hasExt(name) {
		cands = append(cands, base)
	}
	for _, e := range pathExts(pathext) {
		cands = append(cands, base+e)
	}
	for _, c := range cands {
		if p.executable(c) {
			return c, true
		}
	}
	return "", false
}

// hasExt reports whether a name ends in an extension (a dot after its
// last separator).
func hasExt(name string) bool {
	i := strings.LastIndex(name, ".")
	return i >= 0 && strings.LastIndexAny(name, `:\/`) < i
}

// pathExts are PATHEXT's extensions, lower-cased with their dots, as the
// interpreter reads them.
func pathExts(pathext string) []string {
	if pathext == "" {
		return []string{".com", ".exe", ".bat", ".cmd"}
	}
	var exts []string
	for _, e := range strings.Split(strings.ToLower(pathext), ";") {
		if e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		exts = append(exts, e)
	}
	return exts
}

// runnableMode reports whether a file of this mode runs: Windows has no
// execute bit (it runs a file by its extension, which the lookup chose).
func runnableMode(fs.FileMode) bool { return true }

// scriptProgram reports whether the program found is a script Windows
// runs by its extension rather than a program: anything but an .exe or
// a .com. cmd.exe runs a .bat or .cmd file (the shell's exec of one
// starts cmd.exe /c), and .ps1, .vbs, .js or .py that PATHEXT lists run
// under their interpreters. The command table describes ssh.exe, not an
// ssh.bat PATHEXT finds for `ssh`: that one is exec, as
// `tools/ssh.bat` named by its path is (the command table never knows a
// path).
func scriptProgram(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".exe", ".com":
		return false
	}
	return true
}
