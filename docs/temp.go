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
// ".eukhe-tmp-<name>-". A long name is cut (at a character boundary) and
// marked with a hash of the whole name, "~" and 8 hex digits, so that the
// name still fits with any pid and counter. A short name that ends like
// such a mark is marked too: a short name's stem never equals a long
// name's, and two names share a stem only when they share the cut and the
// 32-bit hash.
func tempStem(target string) string {
	const room = maxNameBytes - len(TempPrefix) - 2*20 - 2 // two numbers, two dashes
	if len(target) <= room && !endsInMark(target) {
		return TempPrefix + target + "-"
	}
	k := min(len(target), room-10)
	for k > 0 && k < len(target) && !utf8Start(target[k]) {
		k--
	}
	return fmt.Sprintf("%s%s~%08x-", TempPrefix, target[:k], uint32(xxhash.Sum64String(target)))
}

// endsInMark tells whether a name ends like the mark of a cut long name.
func endsInMark(name string) bool {
	n := len(name)
	if n < 9 || name[n-9] != '~' {
		return false
	}
	for _, c := range []byte(name[n-8:]) {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f') {
			return false
		}
	}
	return true
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
	return ok && number(pid) && number(n)
}

// tempWriter is the pid of the writer a temp file's name gives
// (".eukhe-tmp-<stem>-<pid>-<n>").
func tempWriter(name string) (int, bool) {
	if !IsTemp(name) {
		return 0, false
	}
	k := strings.LastIndexByte(name, '-')
	if k < 0 || !number(name[k+1:]) {
		return 0, false
	}
	rest := name[:k]
	k = strings.LastIndexByte(rest, '-')
	if k < 0 || !number(rest[k+1:]) {
		return 0, false
	}
	pid, _ := strconv.Atoi(rest[k+1:])
	return pid, pid > 0
}

// IsTemp tells whether a name is some writer's temporary file.
func IsTemp(name string) bool { return strings.HasPrefix(name, TempPrefix) }

// number tells whether s is a number as a writer spells it: decimal
// digits, no leading zero, no sign, one that fits an int.
func number(s string) bool {
	v, err := strconv.Atoi(s)
	return err == nil && v >= 0 && strconv.Itoa(v) == s
}

// Sweep picks, of a directory's entries, the temporary files of target:
// what a write of target sweeps, each removed only when no live writer
// locks it (removeIfFree: temp_sweep_removes_free, temp_sweep_never_held).
func Sweep(entries []string, target string) []string {
	var dead []string
	for _, e := range entries {
		if IsTempOf(e, target) {
			dead = append(dead, e)
		}
	}
	return dead
}
