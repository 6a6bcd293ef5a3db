package urls

import (
	"errors"
	"fmt"
	"strings"

	"github.com/eukhe/eukhe/gate"
)

// walkLocal is the walk of a path whose names are joined under a
// directory of this machine (repo://, skill://): WalkPath's walk, and on
// Windows (windows true; windowsNames says so for this build) a backslash
// divides the path as '/' does, since Windows opens "a\..\x" as "x", so
// "\.." and "a\..\..\x" climb above the root (errClimbs). Each name is then
// one Windows opens as itself under the root, else it is refused
// (*badLocalName): no ':' (a drive, "C:", or an alternate data stream,
// "x:s" and ".git::$INDEX_ALLOCATION"), no device (CON, nul.txt), not only
// dots and spaces (which Windows trims). A UNC or \\?\ prefix is only
// separators and names here, each joined under the root (its "C:" part
// refused). A climb anywhere is reported before a refused name. Elsewhere
// a backslash and a ':' are part of a name, as WalkPath has them.
func walkLocal(path string, windows bool) ([]string, error) {
	if !windows {
		names, ok := WalkPath(path)
		if !ok {
			return nil, errClimbs
		}
		return names, nil
	}
	names, ok := WalkPath(strings.ReplaceAll(path, `\`, "/"))
	if !ok {
		return nil, errClimbs
	}
	for _, n := range names {
		if why := windowsNameProblem(n); why != "" {
			return nil, &badLocalName{Name: n, Why: why, Drive: isDrive(n)}
		}
	}
	return names, nil
}

// errClimbs is a path that goes above its root with "..".
var errClimbs = errors.New("climbs above the root")

// badLocalName is a part of a path that Windows would not open as the
// name of a file under the root. Drive is true for a drive ("C:"), a
// way out of the root.
type badLocalName struct {
	Name, Why string
	Drive     bool
}

func (b *badLocalName) Error() string { return fmt.Sprintf("%q %s", b.Name, b.Why) }

// windowsNameProblem says why Windows would open the part name as
// something other than the file of that name: "" when it would not.
func windowsNameProblem(name string) string {
	switch {
	case isDrive(name):
		return "names a drive, which Windows opens outside the root"
	case strings.IndexByte(name, ':') >= 0:
		return "has a ':', which names an alternate data stream on Windows"
	case strings.Trim(name, ". ") == "":
		return "is only dots and spaces, which Windows trims from a name"
	case gate.IsDeviceName(name):
		return "is a device name on Windows (CON, NUL, COM1, …, with any extension)"
	}
	return ""
}

// isDrive tells whether a part starts with a drive: a letter and ':'.
func isDrive(name string) bool {
	return len(name) >= 2 && name[1] == ':' && (name[0]|0x20 >= 'a' && name[0]|0x20 <= 'z')
}
