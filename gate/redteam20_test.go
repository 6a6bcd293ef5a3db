package gate

// The twentieth red team's attacks on the gate that HELD (the open ones
// are in redteam20_open_attacks_test.go, build tag open_attacks), kept as
// regression tests.

import (
	"os"
	"path/filepath"
	"testing"
)

// r20base is a test's temporary directory, its links resolved.
func r20base(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	return base
}

// Attack (target 1, readClass: a read's verdict no longer asks the
// protected rules): a file that is protected AND another name of a
// secret, read by the document tools (DocumentsGate.JudgeAccess, the
// read and grep tools' verdict): .git/info/key, a hard link of
// ~/.ssh/id_ed25519; .vscode/settings.json, a symbolic link to
// ~/.aws/credentials; ~/.bashrc (a home dot-file, protected), a hard
// link of the key. Read and search access alike.
// Held: each verdict is Secret (read+secret): readClassAs still searches
// the other names of an Inside/Outside path, and Resolve follows the
// symbolic link to the secret.
func TestRedteam20_ReadOfAProtectedFileThatIsASecretsOtherNameIsSecret(t *testing.T) {
	base := r20base(t)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(filepath.Join(home, ".aws"), 0o700))
	must(t, os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, ".vscode"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("SECRET"), 0o600))
	must(t, os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("SECRET"), 0o600))
	must(t, os.Link(filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(root, ".git", "info", "key")))
	must(t, os.Symlink(filepath.Join(home, ".aws", "credentials"), filepath.Join(root, ".vscode", "settings.json")))
	must(t, os.Link(filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(home, ".bashrc")))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	g := &DocumentsGate{Policy: p, Dir: root}
	for _, f := range []string{".git/info/key", ".vscode/settings.json", filepath.Join(home, ".bashrc")} {
		for _, a := range []Access{ReadAccess, SearchAccess} {
			if v := g.JudgeAccess(f, a); !v.Effects.Has(Secret) || !v.Asks {
				t.Errorf("%s of %s: class %v, effects %v, asks %v", a, f, v.Class, v.Effects, v.Asks)
			}
		}
	}
}
