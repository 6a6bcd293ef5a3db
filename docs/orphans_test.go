package docs

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// TestLaw_temp_sweep_only_own_after_a_damaged_journal: of the temp
// names beside a file, exactly those its writer's pid made are swept, and
// each names its file (a long name, cut, names none).
func TestLaw_temp_sweep_only_own_after_a_damaged_journal(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		target := rapid.StringMatching(`[a-zA-Z0-9._~-]{1,300}`).Draw(t, "target")
		pid := rapid.IntRange(1, 1<<22).Draw(t, "pid")
		other := rapid.IntRange(1, 1<<22).Filter(func(v int) bool { return v != pid }).Draw(t, "other")
		n := rapid.IntRange(0, 1<<30).Draw(t, "n")
		name := TempName(target, pid, n)
		got, ok := orphanOf(name, pid)
		if !ok {
			t.Fatalf("%q is not seen as pid %d's", name, pid)
		}
		if got != target && !(got == "" && strings.Contains(name, "~")) {
			t.Fatalf("%q names %q, want %q", name, got, target)
		}
		if _, ok := orphanOf(TempName(target, other, n), pid); ok {
			t.Fatalf("another writer's temp file %q is taken as pid %d's", TempName(target, other, n), pid)
		}
		if _, ok := orphanOf(target, pid); ok && !IsTemp(target) {
			t.Fatalf("%q is no temp file", target)
		}
	})
}

func TestJournalPID(t *testing.T) {
	for name, want := range map[string]int{"123-4.journal": 123, "0-1.journal": 0, "x-1.journal": 0, "12.journal": 0, "12-3.back": 0, "012-3.journal": 0} {
		if got, _ := journalPID(name); got != want {
			t.Errorf("journalPID(%q) = %d, want %d", name, got, want)
		}
	}
}
