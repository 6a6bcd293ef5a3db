package gate

// The twentieth red team's attacks on the gate that HELD (the open ones
// are in redteam20_open_attacks_test.go, build tag open_attacks), kept as
// regression tests.

import (
	"os"
	"path/filepath"
	"runtime"
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
	needHardLinkSearch(t)
	needSymlinks(t)
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
		if viaLink {
			needSymlinks(t)
		}
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

// Held (was open): a PATH entry "~/bin" is read as bash reads it (gate.HomeTilde) by the one command list, the gate's and the sandbox's.
// Attack (target 3, PathUnknown): the user's PATH holds "~/bin" with
// its tilde (a quoted assignment in a startup file: bash expands it at
// each command search, the fifth red team's), where their own command
// r20deploy lives; their shell did not say its PATH in time, so any
// directory may be on it and a file named like a command is protected
// anywhere. The agent writes tools/r20deploy.
// THROUGH (severity low: needs the unknown PATH, which the agent can
// force by slowing the shell, and a tilde entry; the sandbox has the
// same gap: agent/shell TestRedteam20_UnknownPathMissesTheTildeEntrysCommands):
// the write is Inside (the control, tools/ls, is protected).
// Root cause: gate/policy.go Policy.isCommandName lists only the
// absolute entries of p.pathDirs, which are the Places' PathDirs as
// given: "~/bin" is not expanded there as Places.Rules expands it for
// its DirRule.
func TestRedteam20_UnknownPathProtectsTheTildeEntrysCommands(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the control is /usr/bin's ls: a Unix PATH directory, not an absolute path on Windows")
	}
	base := r20base(t)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, "bin"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, "bin", "r20deploy"), []byte("#!/bin/sh\n"), 0o755))
	p := Places{Roots: []string{root}, Home: home, PathDirs: []string{"/usr/bin", "~/bin"}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "ls"))); c != ClassProtected {
		t.Fatalf("control: a write of tools/ls is %v", c)
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20deploy"))); c != ClassProtected {
		t.Errorf("a write of tools/r20deploy (a command of ~/bin) is %v, want protected", c)
	}
}

// Held (was open): a PATH directory that cannot be listed is asked for each name (CommandList.InUnlisted: a stat of the name there).
// Attack (target 3, PathUnknown): a PATH directory the user can search
// but not list (mode 0111 here; in life another user's 0711 tools
// directory): its commands run by name (execve needs search only), but
// cannot be listed. With the PATH unknown, the agent writes
// tools/r20tool, a command of that directory.
// THROUGH (severity low: the same shape as the tilde row; the sandbox
// has the same gap: agent/shell
// TestRedteam20_UnknownPathMissesAnUnlistableDirectorysCommands): the
// write is Inside.
// Root cause: gate/policy.go Policy.isCommandName drops the error of
// lister.Names(d): a directory it cannot list adds no name, where any
// name may be a command there (such a directory makes every name a
// possible command: protecting each file with an execute bit, or
// refusing, would be the safe side).
func TestRedteam20_UnknownPathProtectsAnUnlistableDirectorysCommands(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows: chmod 0111 sets no search-only mode (only the read-only bit), so no directory here is searchable but unlistable")
	}
	if !r17withoutDAC(t, "TestRedteam20_UnknownPathProtectsAnUnlistableDirectorysCommands") {
		return
	}
	base := r20base(t)
	bin, root := filepath.Join(base, "bin"), filepath.Join(base, "root")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "r20tool"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Chmod(bin, 0o111))
	t.Cleanup(func() { os.Chmod(bin, 0o755) })
	if _, err := os.Stat(filepath.Join(bin, "r20tool")); err != nil {
		t.Fatal("control: the command is not reachable by name: ", err)
	}
	if _, err := os.ReadDir(bin); err == nil {
		t.Fatal("control: the directory can be listed: the row proves nothing")
	}
	p := Places{Roots: []string{root}, PathDirs: []string{bin}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20tool"))); c != ClassProtected {
		t.Errorf("a write of tools/r20tool (a command of an unlistable PATH directory) is %v, want protected", c)
	}
}

// With the PATH unknown, the commands of the directories tools' shell
// hooks add at run time (pyenv's shims here; eval "$(brew shellenv)",
// mise activate) are commands: the agent's tools/r20shim is protected.
// (A directory named only by a command's output elsewhere stays unknown:
// gate/settings' open row.)
func TestRedteam20_UnknownPathKnowsAToolHooksCommands(t *testing.T) {
	base := r20base(t)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, ".pyenv", "shims"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".pyenv", "shims", "r20shim"), []byte("#!/bin/sh\n"), 0o755))
	p := Places{Roots: []string{root}, Home: home, PathDirs: []string{"/usr/bin"}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20shim"))); c != ClassProtected {
		t.Errorf("a write of tools/r20shim (a command of ~/.pyenv/shims) is %v, want protected", c)
	}
	known := Places{Roots: []string{root}, Home: home, PathDirs: []string{"/usr/bin"}}.Policy(OS)
	if c := known.ClassWrite(known.Resolve(root, filepath.Join(root, "tools", "r20shim"))); c == ClassProtected {
		t.Errorf("with the PATH known (no such entry), tools/r20shim is protected too: %v", c)
	}
}
