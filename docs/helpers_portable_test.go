package docs_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// Test helpers of the disk store's laws that build on every OS (the
// tests that use flock, FIFOs or credentials are POSIX-only).

// failer and cleanupFailer are what the helpers need of a *testing.T or a
// *rapid.T.
type failer interface {
	Fatal(args ...any)
	Fatalf(format string, args ...any)
}

type cleanupFailer interface {
	failer
	Cleanup(func())
}

func namesIn(tb failer, dir string) []string {
	des, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// tempFilesUnder lists the temp files below root.
func tempFilesUnder(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && docs.IsTemp(d.Name()) {
			out = append(out, p)
		}
		return nil
	})
	return out
}
