//go:build open_attacks && linux

package gate

// The seventeenth red team's attacks on the gate that GOT THROUGH. Each
// asserts the safe outcome, so it fails while the hole is open. Run with
// -tags open_attacks.

import (
	"os"
	"path/filepath"
	"testing"
)

// Attack (target 1b): the unknown PATH's command names are listed once
// per policy (a session's). The user installs a tool during the session
// (pip install --user, go install: a new file in a PATH directory); the
// agent then writes tools/<that name> in the workspace, one of the
// directories the unknown PATH may hold.
// THROUGH (severity low: the write tool makes the file without its
// execute bit, and the sandbox's own list (agent/shell setShadow) is
// made again when a PATH directory changes, so a bash step's chmod or
// write of it is guarded; a file the edit tool rewrites keeps the bit a
// step gave it before the name was a command): the write is Inside.
// Root cause: gate/policy.go Policy.isCommandName lists the PATH
// directories once (commands.once), where the sandbox's pathShadow
// looks again when a directory's change time moved.
func TestRedteam17_CommandInstalledDuringTheSessionIsNotACommandToTheGate(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, bin := filepath.Join(base, "root"), filepath.Join(base, "bin")
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "r17old"), []byte("#!/bin/sh\n"), 0o755))
	p := Places{Roots: []string{root}, PathDirs: []string{bin}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r17old"))); c != ClassProtected {
		t.Fatalf("control: a write of tools/r17old is %v", c)
	}
	must(t, os.WriteFile(filepath.Join(bin, "r17new"), []byte("#!/bin/sh\n"), 0o755))
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r17new"))); c != ClassProtected {
		t.Errorf("THROUGH: after r17new is installed, a write of tools/r17new is %v", c)
	}
}

// Attack (target 1b): a file named otherwise that is another name (a
// hard link) of tools/r17cmd, an executable named like a command that
// was in the workspace: the agent writes notes.txt, and the user's
// shell runs the new content as r17cmd.
// The link is the agent's, made in a session whose PATH was known (no
// rule made tools/r17cmd protected then); in a session whose PATH is
// unknown it writes notes.txt with the write tool.
// THROUGH (severity low: the agent could have put the same content in
// tools/r17cmd in the earlier session, and in a bash step the sandbox
// binds tools/r17cmd read-only, so a link made then fails): the write of
// notes.txt is Inside.
// Root cause: gate/policy.go Policy.protectsAs judges a name by itself
// (isCommandName of its base); the link search (gate/links.go) covers
// the other names of files of protected places, not of a file of the
// roots that a name rule (EndRule) protects.
func TestRedteam17_HardLinkOfACommandNamedFileIsProtected(t *testing.T) {
	root, p := r17unknown(t)
	must(t, os.WriteFile(filepath.Join(root, "tools", "r17cmd"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Link(filepath.Join(root, "tools", "r17cmd"), filepath.Join(root, "notes.txt")))
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "notes.txt"))); c != ClassProtected {
		t.Errorf("a write of notes.txt (another name of tools/r17cmd) is %v, want protected", c)
	}
}

// r17foldOS is the host's file system on a volume that folds case (an
// ext4 casefold directory, a vfat stick, macOS's default APFS).
type r17foldOS struct{ InodeFS }

func (r17foldOS) CaseInsensitive(string) bool { return true }

// r17foldPolicy is the unknown PATH's policy on such a volume, with the
// command name a command of a PATH directory.
func r17foldPolicy(t *testing.T, name string) (string, *Policy) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, bin := filepath.Join(base, "root"), filepath.Join(base, "bin")
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), 0o755))
	fsys := r17foldOS{OS.(InodeFS)}
	return root, Places{Roots: []string{root}, PathDirs: []string{bin}, PathUnknown: true}.Policy(fsys)
}

// Attack (target 1b): on a volume that folds case, the agent writes
// tools/ſſh (U+017F, the long s, whose case folding is s: ext4's
// casefold and the gate's own foldName take it for s), which the
// volume opens when the user's shell looks for ssh in tools.
// THROUGH (severity low: a case-folding workspace volume on Linux is
// rare; macOS's APFS folds by its own table): the write is Inside (the
// control, tools/SSH, is protected).
// Root cause: gate/policy.go Policy.isCommandName compares with
// strings.ToLower, not the gate's foldName (gate/fold.go) that every
// other name comparison on such a volume uses (names.part).
func TestRedteam17_CaseFoldedCommandNameByTheLongS(t *testing.T) {
	root, p := r17foldPolicy(t, "ssh")
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "SSH"))); c != ClassProtected {
		t.Fatalf("control: a write of tools/SSH is %v", c)
	}
	if foldName("ſſh") != foldName("ssh") {
		t.Fatal("control: the gate's folding does not take ſ for s")
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "ſſh"))); c != ClassProtected {
		t.Errorf("THROUGH: a write of tools/ſſh (ssh on a folding volume) is %v", c)
	}
}
