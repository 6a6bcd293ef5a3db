package shell

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// The intent journals and their signing key (docs.JournalDir) lie in a
// directory every step's sandbox hides like a secret: a step that could
// read the key could sign a journal the next start would act on.
func TestStateDirs_hide_the_journals_and_their_key(t *testing.T) {
	// absolute paths on every system (C:\h on Windows, where /h is not)
	abs := func(p string) string {
		return filepath.Join(filepath.VolumeName(os.TempDir())+string(filepath.Separator), p)
	}
	for _, env := range []map[string]string{
		{"HOME": abs("h")},
		{"HOME": abs("h"), "XDG_STATE_HOME": abs("s")},
		{"HOME": abs("h"), "XDG_STATE_HOME": "relative"},
	} {
		jdir := docs.JournalDir(env, abs("ws"))
		hidden := false
		for _, d := range stateDirs(env) {
			if rel, err := filepath.Rel(d, jdir); err == nil && !strings.HasPrefix(rel, "..") {
				hidden = true
			}
		}
		if !hidden {
			t.Errorf("%v: the journal directory %s is under none of %v", env, jdir, stateDirs(env))
		}
	}
}
