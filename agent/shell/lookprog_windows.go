package shell

import (
	"path/filepath"
	"strings"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// envNamesFold: environment names are case-insensitive on Windows ("Path"
// is PATH); the interpreter holds them upper-cased (expand.ListEnviron).
// Credential names are matched ignoring case on every system
// (gate.CredentialName).
const envNamesFold = true

// namesPath tells whether a command name is a path: a drive, a
// backslash or a slash in it (as the interpreter's LookPathDir takes it).
func namesPath(name string) bool { return strings.ContainsAny(name, `:\/`) }

// lookCommand finds a command name on the judged PATH entries, the first
// kept entry first, with the extensions of PATHEXT (.com, .exe, .bat,
// .cmd when it is unset) as the interpreter's LookPathDir tries them:
// the gate's LookCommand knows Unix's execute bit, which Windows files
// do not have. The program is exec whatever its name when its entry
// supplies exec, or when it lies in a root, or its real path does, or
// that cannot be told (gate's viaRoots walks each link on the way; here
// the literal and the real path stand for it). .bat, .cmd and .ps1
// files, cmd.exe, powershell and pwsh are not in the gate's command
// table, so they are exec as every unknown command is.
func (x *run) lookCommand(dir string, env expand.Environ, name string, entries []gate.PathEntry) (gate.Found, bool) {
	if name == "" || namesPath(name) {
		return gate.Found{}, false
	}
	pathext := env.Get("PATHEXT").String()
	for _, e := range entries {
		if !e.Kept() {
			continue
		}
		one := expand.ListEnviron("PATH="+e.Entry, "PATHEXT="+pathext)
		p, err := interp.LookPathDir(dir, one, name)
		if err != nil {
			continue
		}
		return gate.Found{Path: p, Entry: e, Exec: e.SuppliesExec() || x.viaRoots(p)}, true
	}
	return gate.Found{}, false
}

// viaRoots tells whether a program's path, or its real path, lies in a
// root (a program the agent can make or repoint), or its real path
// cannot be told.
func (x *run) viaRoots(p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return true
	}
	for _, r := range x.policy.Roots() {
		for _, q := range []string{p, real} {
			if rel, err := filepath.Rel(r, q); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
				return true
			}
		}
	}
	return false
}
