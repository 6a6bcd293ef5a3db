package docs

import (
	"strconv"
	"strings"
)

// A journal that cannot be acted on (damaged, unsigned, another's) names
// nothing recovery may trust; but its file name still says which process
// wrote it, <pid>-<n>.journal, and that process's temp files carry its pid
// in theirs (TempName). So recovery sweeps, below the root, every temp
// file of that pid that no live writer locks: each one that holds the
// bytes its file holds now is removed; each that holds other bytes (the
// edit's new bytes not yet published, or the old bytes kept for a
// restore) is copied beside the journal set aside, then removed, and the
// notice names the file and where the copy is. Nothing in the workspace
// is left that a later write of that file would sweep anyway, and nothing
// the interrupted edit held is lost.

// journalPID is the pid a journal's file name gives, <pid>-<n>.journal
// (or its way back, .back); false when the name is not one eukhe makes.
func journalPID(name string) (int, bool) {
	stem, ok := strings.CutSuffix(name, journalExt)
	if !ok {
		return 0, false
	}
	pid, n, ok := strings.Cut(stem, "-")
	if !ok || !number(pid) || !number(n) {
		return 0, false
	}
	v, _ := strconv.Atoi(pid)
	return v, v > 0
}

// orphanOf tells whether a directory entry is a temp file that writer pid
// made, and gives the name of its target ("" when the name was cut for
// length and the target cannot be told).
func orphanOf(entry string, pid int) (target string, ok bool) {
	rest, ok := strings.CutPrefix(entry, TempPrefix)
	if !ok {
		return "", false
	}
	k := strings.LastIndexByte(rest, '-')
	if k < 0 || !number(rest[k+1:]) {
		return "", false
	}
	rest = rest[:k]
	k = strings.LastIndexByte(rest, '-')
	if k < 0 || rest[k+1:] != strconv.Itoa(pid) {
		return "", false
	}
	target = rest[:k]
	if target == "" {
		return "", false
	}
	if endsInMark(target) {
		return "", true // a long name, cut
	}
	return target, true
}
