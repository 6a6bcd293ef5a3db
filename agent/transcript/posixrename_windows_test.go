package transcript

import (
	"os"
	"path/filepath"
	"testing"
)

// renamesOverOpen tells whether this system renames a file over one a
// reader holds open (the POSIX rename: Windows 10 1709 and later, NTFS),
// and if not, why (older Windows, other file systems, Wine 8): there a
// compaction waits until no reader holds calls.log (file_windows.go).
func renamesOverOpen(t *testing.T) (bool, string) {
	t.Helper()
	dir := t.TempDir()
	from, to := filepath.Join(dir, "from"), filepath.Join(dir, "to")
	for _, p := range []string{from, to} {
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	f, err := openShared(to, os.O_RDONLY)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := renamePOSIX(from, to); err != nil {
		return false, "no POSIX rename (" + err.Error() + "): Windows before 10 1709, not NTFS, or Wine 8"
	}
	return true, ""
}
