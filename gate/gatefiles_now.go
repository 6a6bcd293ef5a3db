package gate

import (
	"slices"
	"strings"
	"time"
)

// gateRecheck is how long the user settings files' real paths, resolved
// again (gateFilesNow), are used before they are resolved once more: a
// tree search judges thousands of paths, each would otherwise pay a stat
// per part of each file's path.
const gateRecheck = 100 * time.Millisecond

// anyGateFile is how every eukhe's user settings file's path ends,
// whatever XDG_CONFIG_HOME names for it: secret wherever it is, since an
// eukhe started with another environment reads that one.
const anyGateFile = "eukhe/settings.json"

// anyEukheFiles and anyEukheDirs are how the paths of every eukhe's own
// secret files end, wherever an environment puts them (XDG_CONFIG_HOME,
// XDG_STATE_HOME): its settings and logins, its session transcripts
// (another project's files and outputs) and its crash journals (with
// the key that signs them). This eukhe's own are secret by place; another
// eukhe's, started with another environment, by these names (the
// fifteenth red team's: another eukhe's auth.json and transcript read
// unasked; the thirty-second's: another eukhe's discovery key, with which
// a step signs an entry that eukhe's clients take for their editor). The
// narrowed approvals' private copies (eukhe/narrow) are another step's
// secret or protected files.
var (
	anyEukheFiles = []string{anyGateFile, "eukhe/auth.json"}
	anyEukheDirs  = []string{"eukhe/sessions", "eukhe/journal", "eukhe/discovery", "eukhe/narrow"}
)

// anyEukheOwn tells whether path is, or is below, one of any eukhe's own
// secret files or directories, or is an entry of any eukhe's socket
// directory, by its name.
func anyEukheOwn(n names, path string) bool {
	if anyEukheRunEntry(n, path) {
		return true
	}
	for _, f := range anyEukheFiles {
		if n.endsWith(path, f) {
			return true
		}
	}
	if n.exact() {
		for _, d := range anyEukheDirs {
			if strings.HasSuffix(path, "/"+d) || strings.Contains(path, "/"+d+"/") {
				return true
			}
		}
		return false
	}
	for p := path; p != "/" && p != "." && p != ""; p = parentOf(p) {
		for _, d := range anyEukheDirs {
			if n.endsWith(p, d) {
				return true
			}
		}
		if parentOf(p) == p {
			break
		}
	}
	return false
}

// gateResolved is one resolution of the user settings files' spellings.
type gateResolved struct {
	at    time.Time
	paths []string
}

// gateFilesNow are the user settings files' real paths as they resolve
// now, where they differ from those the policy was made with. A
// directory above one made a link after the policy (by the user: a step
// cannot, a write above a settings file is secret) moves the file the
// settings loader reads: the twelfth red team's ~/.config/eukhe renamed
// away and linked to the workspace's cfg made cfg/settings.json, by its
// workspace name, Inside. Its real path now is judged as the one the
// policy was made with: secret, and a write to a directory above it too.
func (p *Policy) gateFilesNow() []string {
	if len(p.gateSpelled) == 0 {
		return nil
	}
	if g := p.gateNow.Load(); g != nil && time.Since(g.at) < gateRecheck {
		return g.paths
	}
	var moved []string
	for _, f := range p.gateSpelled {
		if r := Resolve(p.fs, "/", f).Path; !slices.Contains(p.gateFiles, r) {
			moved = appendNew(moved, r)
		}
	}
	p.gateNow.Store(&gateResolved{at: time.Now(), paths: moved})
	return moved
}

// allGateFiles are the user settings files as written, as real when the
// policy was made, as real now, and at their other paths in the mount
// table.
func (p *Policy) allGateFiles() []string {
	now, mounted := p.gateFilesNow(), p.gateFileMountNames()
	if len(now) == 0 && len(mounted) == 0 {
		return p.gateFiles
	}
	return slices.Concat(p.gateFiles, now, mounted)
}
