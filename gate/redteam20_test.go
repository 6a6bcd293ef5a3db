package gate

// The twentieth red team's attacks on the gate that HELD (the open ones
// are in redteam20_open_attacks_test.go, build tag open_attacks), kept as
// regression tests.

import (
	"os"
	"path/filepath"
	"testing"
	"time"
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

// Attack (target 2, the PATH directories listed again when one changed):
// a PATH entry that does not exist when the session's first judgment
// lists the commands (~/.local/bin before the user's first pip install
// --user), then is made holding the command r20new (and, second, a
// PATH entry that is a symbolic link to a directory, the link made
// after the first look). The agent writes tools/r20new with the PATH
// unknown, after commandsFresh.
// Held: the missing directory's stamp is 0, the made one's is not (and
// the link's stamp is its target's), so the directories are listed
// again and the write is protected.
func TestRedteam20_PathDirectoryMadeDuringTheSessionIsListed(t *testing.T) {
	for _, viaLink := range []bool{false, true} {
		base := r20base(t)
		root, bin := filepath.Join(base, "root"), filepath.Join(base, "local", "bin")
		must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
		entry := bin
		if viaLink {
			entry = filepath.Join(base, "current")
		}
		p := Places{Roots: []string{root}, PathDirs: []string{"/usr/bin", entry}, PathUnknown: true}.Policy(OS)
		if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20new"))); c == ClassProtected {
			t.Fatalf("control: tools/r20new is protected before it is a command")
		}
		must(t, os.MkdirAll(bin, 0o755))
		must(t, os.WriteFile(filepath.Join(bin, "r20new"), []byte("#!/bin/sh\n"), 0o755))
		if viaLink {
			must(t, os.Symlink(bin, entry))
		}
		time.Sleep(2 * commandsFresh)
		if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20new"))); c != ClassProtected {
			t.Errorf("link %v: after the PATH directory was made with r20new, a write of tools/r20new is %v", viaLink, c)
		}
	}
}
