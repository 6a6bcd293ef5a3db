package gate

// The seventeenth red team's attacks on the gate that HELD (the open ones
// are in redteam17_open_attacks_test.go, build tag open_attacks), kept as
// regression tests.

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// r17unknown is a workspace with a tools directory and a PATH directory
// holding the command r17cmd, and the policy of an unknown PATH there.
func r17unknown(t *testing.T) (root string, p *Policy) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, bin := filepath.Join(base, "root"), filepath.Join(base, "bin")
	must(t, os.MkdirAll(filepath.Join(root, "tools", "sub"), 0o755))
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "r17cmd"), []byte("#!/bin/sh\n"), 0o755))
	return root, Places{Roots: []string{root}, PathDirs: []string{bin}, PathUnknown: true}.Policy(OS)
}

// Attack (target 1b): the name of a write spelled so its last element is
// not the command's: tools/./r17cmd, tools//r17cmd, tools/sub/../r17cmd,
// tools/r17cmd/ (a trailing slash), and through a symbolic link the
// agent made (tools/alias -> r17cmd, a write of tools/alias).
// Held: each is protected (the path is resolved before its base is
// compared: gate Resolve, Policy.protectsAs).
func TestRedteam17_CommandNameSpelledOtherwiseIsStillProtected(t *testing.T) {
	root, p := r17unknown(t)
	for _, w := range []string{"tools/./r17cmd", "tools//r17cmd", "tools/sub/../r17cmd", "tools/r17cmd/"} {
		if c := p.ClassWrite(p.Resolve(root, root+"/"+w)); c != ClassProtected {
			t.Errorf("a write of %s is %v, want protected", w, c)
		}
	}
	needSymlinks(t)
	must(t, os.Symlink("r17cmd", filepath.Join(root, "tools", "alias")))
	if c := p.ClassWrite(p.Resolve(root, root+"/tools/alias")); c != ClassProtected {
		t.Errorf("a write of %s is %v, want protected", "tools/alias", c)
	}
}

// Held (was open): the look's walk takes the unreadable directory of the user's for blind: the look is not complete, so the places outside are walked (gate/linkwalk_unix.go ownBlind)
// Attack (target 2, the strangers look): the user keeps ~/.config/git/config
// hard-linked into the workspace as dotfiles/gitconfig (a dotfiles
// directory). A step of the agent's takes the directory's permissions
// away (chmod 000 dotfiles: a workspace write, unasked). The next
// process's look at the roots cannot open dotfiles, goes on, and finds
// no stranger; the search then walks no place outside, so
// dotfiles/gitconfig is neither found nor reported unfound; that
// process's first command gives the permissions back and writes the
// file (the user's git config: core.pager, a program git runs).
// THROUGH (severity high: a write of the home's configuration, unasked,
// through a name the gate knew of a step before): the search's Links and
// Unfound are empty, and Complete. Before the look (the control: the
// place outside walked) the name was reported Unfound, and the sandbox
// refused the process; the look turns that refusal into nothing.
// Root cause: gate/linkwalk_unix.go walkDirAt (and osFS.walkLinks)
// skip a directory they cannot open (EACCES) as if it were empty, so
// gate/links_strangers.go strangersIn calls a walk that did not see
// everything complete (only EMFILE/ENFILE count as not seen), and
// LinkCache.topsWithoutStrangers then skips the walk outside that would
// have noticed the missing name.
func TestRedteam17_UnreadableDirectoryHidesAStrangerFromTheLook(t *testing.T) {
	needHardLinkSearch(t)
	if !r17withoutDAC(t, "TestRedteam17_UnreadableDirectoryHidesAStrangerFromTheLook") {
		return
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root, conf := filepath.Join(base, "root"), filepath.Join(base, "home", ".config")
	must(t, os.MkdirAll(filepath.Join(conf, "git"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "dotfiles"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "a.txt"), []byte("a"), 0o644))
	must(t, os.WriteFile(filepath.Join(conf, "git", "config"), []byte("[core]\n"), 0o644))
	linked := filepath.Join(root, "dotfiles", "gitconfig")
	must(t, os.Link(filepath.Join(conf, "git", "config"), linked))
	// control: with the directory readable the name is found
	if r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{conf}, []int{-1}, []string{root}, []string{root}, nil); !slices.Contains(r.Links, linked) {
		t.Fatalf("control: the readable link is not found: %+v", r)
	}
	must(t, os.Chmod(filepath.Join(root, "dotfiles"), 0))
	t.Cleanup(func() { os.Chmod(filepath.Join(root, "dotfiles"), 0o755) })
	r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{conf}, []int{-1}, []string{root}, []string{root}, nil)
	if !slices.Contains(r.Links, linked) && len(r.Unfound) == 0 && r.Complete {
		t.Errorf("THROUGH: with dotfiles unreadable, the search of the roots neither finds nor misses the home's git config's name: %+v", r)
	}
	// control: a search that walks the place outside (scopes other than
	// the roots: no look) reports the name unfound, and the sandbox
	// refuses the process (agent/shell unfoundLinksRefusal)
	if r := (&LinkCache{}).SearchFrom(OS.(InodeFS), []string{conf}, []int{-1}, []string{root, filepath.Join(base, "elsewhere")}, []string{root}, nil); len(r.Unfound) == 0 {
		t.Errorf("control: the walk of the place outside does not miss the name either: %+v", r)
	}
}

// r17withoutDAC is testkit.RunWithoutDAC (a shut directory needs a
// process root's permission override does not reach).
func r17withoutDAC(t *testing.T, name string) bool {
	t.Helper()
	return testkit.RunWithoutDAC(t, name)
}

// Held (was open): isCommandName lists the PATH directories again when one changed (its change time, racy within changedSlack)
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
func TestRedteam17_CommandInstalledDuringTheSessionIsACommandToTheGate(t *testing.T) {
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
	time.Sleep(2 * commandsFresh) // a look at the directories stands this long
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r17new"))); c != ClassProtected {
		t.Errorf("THROUGH: after r17new is installed, a write of tools/r17new is %v", c)
	}
}

// Held (was open): isCommandName folds with the gate's foldName
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

// r17foldOS is the host's file system on a volume that folds case (an
// ext4 casefold directory, a vfat stick, macOS's default APFS).
type r17foldOS struct{ InodeFS }

// CommandNames lists a PATH directory as the host's file system does
// for the gate's command names (commandNamesOf: on Windows not its
// InodeFS's Names, which list nothing there).
func (f r17foldOS) CommandNames(dir string) ([]string, error) {
	return commandNamesOf(f.InodeFS)(dir)
}
