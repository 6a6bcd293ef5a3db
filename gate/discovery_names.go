package gate

import (
	"regexp"
	"strings"
)

// discoveryEntry is the form of the names eukhe's servers publish in
// their socket directory: "<pid>-<8 hex>.json" beside its ".sock", and
// the ".json.tmp" written before the rename into place.
var discoveryEntry = regexp.MustCompile(`^[0-9]{1,10}-[0-9a-f]{8}\.(json|json\.tmp|sock)$`)

// DiscoveryEntryName reports whether name (a base name) has the form of a
// discovery entry. Discovery reads only entries of this form, and the
// gate holds every path of this form in a directory named as a socket
// directory secret wherever it is (anyEukheRunEntry), so the two agree
// on what an entry is: an eukhe started with another XDG_RUNTIME_DIR or
// TMPDIR finds its editor by such an entry, and one planted there would
// make the agent's server that eukhe's editor, whose dialogs answer its
// questions (the sixteenth red team's).
func DiscoveryEntryName(name string) bool { return discoveryEntry.MatchString(name) }

// anyEukheRunEntry tells whether path has the form of an entry of any
// eukhe's socket directory: a discovery entry's name in a directory named
// eukhe (XDG_RUNTIME_DIR/eukhe), eukhe-UID (the temporary directory's)
// or eukhe/run (Windows' %LOCALAPPDATA%), as n compares names.
func anyEukheRunEntry(n names, path string) bool {
	dir := parentOf(path)
	base, d := lastPart(path), lastPart(dir)
	if !n.exact() {
		base, d = strings.ToLower(base), strings.ToLower(d)
	}
	if !DiscoveryEntryName(base) {
		return false
	}
	return eukheDirName(d) || n.endsWith(dir, "eukhe/run")
}

// eukheDirName tells whether d, a directory's last part as judged, is a
// name eukhe keeps its own files under: eukhe, or eukhe-UID.
func eukheDirName(d string) bool {
	if rest, ok := strings.CutPrefix(d, "eukhe-"); ok {
		return rest != "" && strings.Trim(rest, "0123456789") == ""
	}
	return d == "eukhe"
}

// lastPart is the last part of a judged path ("/" for the root).
func lastPart(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 && i < len(path)-1 {
		return path[i+1:]
	}
	return path
}

// eukheDirOutside tells whether a write of path makes or fills a
// directory of the name another eukhe keeps its files in (eukhe, as in
// XDG_CONFIG_HOME/eukhe, XDG_STATE_HOME/eukhe and XDG_RUNTIME_DIR/eukhe;
// eukhe-UID; eukhe/run), outside every root. Such a write brings names
// below it that its words need not spell — a copy or move into the
// directory (cp x D/eukhe/), a directory renamed or linked to that name
// (mv D/x D/eukhe), an archive unpacked there — so the name rules on the
// files (anyEukheOwn) cannot see them; the write is judged as one of
// those files (the fifteenth and twenty-sixth red teams'). Inside a root
// a folder of that name is the project's own.
func (p *Policy) eukheDirOutside(path string) bool {
	n := namesAt(p.fs, path)
	d := lastPart(path)
	if !n.exact() {
		d = strings.ToLower(d)
	}
	if !eukheDirName(d) && !n.endsWith(path, "eukhe/run") {
		return false
	}
	for _, root := range p.roots {
		if n.below(path, root) {
			return false
		}
	}
	return true
}
