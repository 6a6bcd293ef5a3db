package gate

import "golang.org/x/sys/unix"

// pcCaseSensitive is _PC_CASE_SENSITIVE of macOS's pathconf (not in
// golang.org/x/sys/unix): 1 when the volume compares names by case, 0
// when it folds (APFS and HFS+ by default).
const pcCaseSensitive = 11

// foldAlways is the answer of an OS that need not ask (macOS asks).
func foldAlways() (bool, bool) { return false, false }

// caseInsensitiveOS asks the volume of dir with pathconf. exists is
// false when dir cannot be looked at (asked again above it).
func caseInsensitiveOS(dir string) (insensitive, exists bool) {
	v, err := unix.Pathconf(dir, pcCaseSensitive)
	if err != nil {
		return false, false
	}
	return v == 0, true
}
