package agent

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

// Recovery judges each path a journal names as a document write of that
// real path is judged now: what would run unasked passes; a path in .git,
// outside the root, or in eukhe's state directory (the journals and their
// key) does not under an auto set of {read, write}; under the default
// auto set only a secret does not.
func TestRecoveryJudge_is_the_documents_gate_write_judgment(t *testing.T) {
	home := t.TempDir()
	root := filepath.Join(home, "proj")
	for _, d := range []string{filepath.Join(root, ".git", "hooks"), filepath.Join(root, "src")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home}
	policy := settings.Locate(env, []string{root}).Places(env).Policy(gate.OS)
	key := filepath.Join(docs.JournalDir(env, root), "key")
	narrow := gate.AutoOf(gate.Of(gate.Read, gate.Write))
	for _, c := range []struct {
		path   string
		auto   gate.AutoSet
		passes bool
	}{
		{filepath.Join(root, "src", "a.go"), narrow, true},
		{filepath.Join(root, ".git", "hooks", "pre-commit"), narrow, false},
		{filepath.Join(home, ".bashrc"), narrow, false},
		{key, narrow, false},
		{filepath.Join(root, "src", "a.go"), gate.DefaultAuto(), true},
		{filepath.Join(root, ".git", "hooks", "pre-commit"), gate.DefaultAuto(), true},
		{key, gate.DefaultAuto(), false},
	} {
		judge := RecoveryJudge(&gate.DocumentsGate{Policy: policy, Dir: root, Auto: func() gate.AutoSet { return c.auto }})
		if why := judge(c.path); (why == "") != c.passes {
			t.Errorf("%s under %v: %q", c.path, c.auto, why)
		}
	}
}
