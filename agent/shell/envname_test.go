package shell

import (
	"slices"
	"testing"
)

// Names are one exactly on Unix, and ignoring case on Windows ("Path" is
// PATH there), so the PATH and TMPDIR the shell sets replace the one the
// program would otherwise find under another spelling.
func TestEnvNameEqualFoldsCaseOnlyWhereTheSystemDoes(t *testing.T) {
	for _, c := range []struct {
		a, b        string
		exact, fold bool
	}{
		{"PATH", "PATH", true, true},
		{"Path", "PATH", false, true},
		{"tmpdir", "TMPDIR", false, true},
		{"PATH", "PATHEXT", false, false},
		{"", "", true, true},
	} {
		if got := envNameEqual(c.a, c.b, false); got != c.exact {
			t.Errorf("exact %q %q: %v", c.a, c.b, got)
		}
		if got := envNameEqual(c.a, c.b, true); got != c.fold {
			t.Errorf("folded %q %q: %v", c.a, c.b, got)
		}
	}
}

// A credential is removed from a script's environment whatever the case
// of its name (Windows keeps names as the user spelled them).
func TestScriptEnvDropsCredentialsWhateverTheCaseOfTheName(t *testing.T) {
	env := scriptEnv([]string{"github_token=x", "Aws_Secret_Access_Key=y", "Npm_Token=z", "Path=/bin", "HOME=/h"}, nil)
	if !slices.Equal(env, []string{"Path=/bin", "HOME=/h"}) {
		t.Fatalf("env %q", env)
	}
}
