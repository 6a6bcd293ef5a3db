package docs

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/cespare/xxhash/v2"
)

// TempPrefix starts every temporary file's name (S8.5); grep and glob hide
// names that start with it.
const TempPrefix = ".eukhe-tmp-"

// maxNameBytes is the longest file name most file systems take.
const maxNameBytes = 255

// tempStem is the part of a temporary name that names its target:
// ".eukhe-tmp-<name>-", with a long name cut and marked with a hash of the
// whole name, so that the name still fits with any pid and counter and
// two long names never share a stem.
func tempStem(target string) string {
	const room = maxNameBytes - len(TempPrefix) - 2*20 - 2 // two numbers, two dashes
	if len(target) <= room {
		return TempPrefix + target + "-"
	}
	cut := target[:room-10]
	for len(cut) > 0 && !utf8Start(cut[len(cut)-1]) {
		cut = cut[:len(cut)-1]
	}
	return fmt.Sprintf("%s%s~%08x-", TempPrefix, cut, uint32(xxhash.Sum64String(target)))
}

func utf8Start(b byte) bool { return b < 0x80 || b >= 0xC0 }

// TempName is the temporary file name for target by writer pid's n-th file.
func TempName(target string, pid, n int) string {
	return tempStem(target) + strconv.Itoa(pid) + "-" + strconv.Itoa(n)
}

// IsTempOf tells whether a directory entry is a temporary file of target
// (temp_sweep_only_own): its stem, then exactly "<pid>-<n>".
func IsTempOf(entry, target string) bool {
	rest, ok := strings.CutPrefix(entry, tempStem(target))
	if !ok {
		return false
	}
	pid, n, ok := strings.Cut(rest, "-")
	return ok && digits(pid) && digits(n)
}

// IsTemp tells whether a name is some writer's temporary file.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// Sweep picks, of a directory's entries, the temporary files of target that
// no writer holds (temp_sweep_removes_free, temp_sweep_never_held): held
// tells whether a live writer locks a name.
func Sweep(entries []string, target string, held func(name string) bool) []string {
	var dead []string
	for _, e := range entries {
		if IsTempOf(e, target) && !held(e) {
			dead = append(dead, e)
		}
	}
	return dead
}
