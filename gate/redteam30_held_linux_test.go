//go:build linux

package gate

// The thirtieth red team's attacks. Those marked HELD were held when
// the red team ran; those that GOT THROUGH are held since the stop that
// received them: a program of a step approved for one secret or
// protected place runs without secret and protected unless its own
// judgment has them (check.go programAllowance); a listing, a stat or an
// access test of a place no question named gets no secret or protected
// (allowedAtPath, stat, access); a symlink in a secret place has its
// target learned as a secret entry once a path is resolved through it
// (gate: Policy.learnSecret), so a cd through it keeps what it reaches
// secret; a link above a protected entry gives the paths through it
// nothing (gate: viaClass); the freeze counts an ended child it never saw
// as a fork and reads no known zombie twice (kernelTree).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 2, RealPath.Via; HELD): links into and out of ~/.ssh
// made after the policy (so linkedOutOf does not know their targets):
// ~/.ssh/config → a dotfiles file, ~/.ssh/keys → a dotfiles directory;
// in the workspace S → ~/.ssh, a relative link R → ../.ssh, H → the home.
// Each path reaches a store entry through a link in the middle, a
// relative link, ".." after a link (the real parent), a link whose own
// location is reached through another link, or a glob: each must be
// secret. HELD: the walk records every link it follows, at its real
// location, and a link that lies in the store makes the path the
// store's.
func TestRedteam30_ViaRecordsEveryLinkOnTheWay(t *testing.T) {
	_, home, root := redHome(t)
	base := filepath.Dir(home)
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(filepath.Join(base, "dotfiles", "keys"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "dotfiles", "keys", "id_work"), []byte("k"), 0o600))
	must(t, os.WriteFile(filepath.Join(base, "dotfiles", "ssh_config"), []byte("k"), 0o600))
	p := r14policy(home, root)
	must(t, os.Symlink(filepath.Join(base, "dotfiles", "keys"), filepath.Join(home, ".ssh", "keys")))
	must(t, os.Symlink(filepath.Join(base, "dotfiles", "ssh_config"), filepath.Join(home, ".ssh", "config")))
	must(t, os.Symlink(filepath.Join(home, ".ssh", "keys"), filepath.Join(root, "L")))
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "S")))
	must(t, os.Symlink("../.ssh", filepath.Join(root, "R")))
	must(t, os.Symlink(home, filepath.Join(root, "H")))
	for _, s := range []string{
		"cat L/id_work", "ls L", "grep -r x L", "find L", "cp -r L out", "cat S/config", "cat S/keys/id_work",
		"cat R/config", "cat H/.ssh/keys/../ssh_config", "cat S/keys/../ssh_config", "cat H/.ssh/../.ssh/config",
		"cd S && cat config", "rg x L", "rg -L x .", "grep -R x .", "tar cf - L", "du -a L", "cat L/*",
		"ls -la S/keys/", "stat L/id_work", "cat /proc/self/cwd/L/id_work", "echo x > S/config",
		"sed -i s/a/b/ L/id_work", "cat ~/.ssh/config",
	} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("THROUGH: %q is %v, not secret", s, e)
		}
	}
	if c := p.Class(p.Resolve(root, "R/keys/id_work")); c != ClassSecret {
		t.Errorf("THROUGH: R/keys/id_work (two links, the first relative) is %v", c)
	}
}

// Attack (target 4, the refusal's next step; HELD): the setting a
// refusal names holds only the effects the auto set lacks, never secret
// (which no setting grants), and an auto set that lacks none of them
// names them all rather than nothing. HELD.
func TestRedteam30_RefusalNamesOnlyTheMissingEffects(t *testing.T) {
	for _, c := range []struct {
		effs, auto Effects
		want, not  string
	}{
		{Of(Write, Outside, Protected), Of(Read, Write), "add outside and protected to", "add write"},
		{Of(Read, Exec, Net), Of(Read, Exec), "add net to", "add read"},
		{Of(Read, Write, Secret), Of(Read), "", "shell.autoEffects"},
		{Of(Write, Outside), Of(Read, Write, Outside), "add write and outside to", "add  to"},
	} {
		got := (&Refusal{Verb: "step 1 (x)", Effects: c.effs, Answer: Unanswered, Auto: c.auto}).Error()
		if c.want != "" && !strings.Contains(got, c.want) || strings.Contains(got, c.not) || strings.Contains(got, "add secret") {
			t.Errorf("%v with auto %v:\n%s", c.effs, c.auto, got)
		}
	}
}

// Attack (target 2, RealPath.Via; GOT THROUGH, medium: a false positive
// that breaks normal work): the workspace is a symlink (~/proj → a
// directory on another disk; VS Code keeps a folder as opened, and the
// shell's pwd prints the link's path, so the agent names the workspace's
// files by it). Places.Rules adds <root>/.git, <root>/.eukhe and a .git
// and HEAD in every directory above the root as written, so the link
// ~/proj is an ancestor of a protected entry, which protectsAs counts
// protected; every path through it now has ~/proj in Via, and Class
// raises a plain workspace write to Protected. With the careful preset
// ({"shell.autoEffects": ["read", "write"]}) every `echo x > ~/proj/f`,
// `cp a ~/proj/b`, and the write tool's absolute paths ask about
// protected, each time (an approval never covers protected for the
// session). The same for a home reached through a link (/home → a
// mounted disk, with HOME=/home/u: /home is above ~/.ssh). Root cause:
// Policy.classAs classes each Via entry with classOf, whose protected
// test holds every ancestor of an entry; a link that is a directory
// above the protected entries (not one in a protected place) is taken for
// one. Safe outcome: a write to a workspace file named through the
// root's link is write (Inside), as the same file named by its real path
// is. Suggested fix: class a Via link by the rules that cover it as an
// entry (the store, a tree or dot rule it lies in), not by "an ancestor
// of an entry"; or leave out a Via link that resolves to a root or an
// ancestor of one.
// HELD now (this stop): see this file's header.
func TestRedteam30_AWorkspaceNamedThroughItsLinkIsNotProtected_HELD(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home := filepath.Join(base, "home", "u")
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	real := filepath.Join(base, "data", "proj")
	must(t, os.MkdirAll(filepath.Join(real, ".git"), 0o755))
	root := filepath.Join(home, "proj")
	must(t, os.Symlink(real, root))
	p := Places{Roots: []string{root}, Home: home, UserDir: filepath.Join(home, ".config", "eukhe")}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(real, filepath.Join(real, "f"))); c != ClassInside {
		t.Fatalf("the workspace's file by its real path is %v", c)
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "src", "app.go"))); c != ClassInside {
		t.Errorf("a workspace file named through the root's link is %v, not inside", c)
	}
	for _, s := range []string{"echo x > ROOT/f", "cp a ROOT/b", "touch ~/proj/x", "mkdir -p ROOT/src && echo x > ROOT/src/a.go"} {
		script := strings.ReplaceAll(s, "ROOT", root)
		if e := r13classify(t, p, real, home, script); e.Has(Protected) {
			t.Errorf("%q is %v: a plain workspace write asks about protected", s, e)
		}
	}
}

// Attack (target 2, Via lost by cd; GOT THROUGH, high under Landlock and
// wherever programs run unconfined): ~/.ssh/keys links out to a
// directory elsewhere (a dotfiles manager run during the session, or a
// link deeper than linkedOutOf's two levels: the policy does not know its
// target). `cat ~/.ssh/keys/id_work` and `cat L/id_work` (L a workspace
// link to ~/.ssh/keys) are secret: Via names ~/.ssh/keys. But `cd
// ~/.ssh/keys && cat id_work`, `cd L && cat id_work`, `cd L && ls` and
// `cd L && grep -r x .` are read only: the step's directory is kept as
// its real path, and a relative path resolved from it carries no Via.
// Safe outcome: secret. Root cause: Shell's directory after cd (and the
// runtime's hc.Dir) is a plain real path; Via belongs to one Resolve and
// is not kept with the directory it reached. Suggested fix: keep the
// directory as a RealPath (its Via with it) and prepend its Via to every
// path resolved from it; or make the real target of a link in a store a
// secret entry when a walk first follows it.
// HELD now (this stop): see this file's header.
func TestRedteam30_CdThroughALinkInTheStoreLosesVia_HELD(t *testing.T) {
	_, home, root := redHome(t)
	base := filepath.Dir(home)
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(filepath.Join(base, "dotfiles", "keys"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "dotfiles", "keys", "id_work"), []byte("k"), 0o600))
	p := r14policy(home, root)
	// made after the policy
	must(t, os.Symlink(filepath.Join(base, "dotfiles", "keys"), filepath.Join(home, ".ssh", "keys")))
	must(t, os.Symlink(filepath.Join(home, ".ssh", "keys"), filepath.Join(root, "L")))
	for _, s := range []string{"cat L/id_work", "cat ~/.ssh/keys/id_work"} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Fatalf("%q is %v: the held form is no longer secret", s, e)
		}
	}
	for _, s := range []string{
		"cd L && cat id_work", "cd ~/.ssh/keys && cat id_work", "cd L && ls", "cd L && grep -r x .",
		"cd ~/.ssh/keys && head id_work",
	} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("%q is %v: the store's file read after a cd through its link is not secret", s, e)
		}
	}
}
