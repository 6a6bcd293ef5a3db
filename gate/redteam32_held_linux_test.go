//go:build linux

package gate_test

// The thirty-second red team's gate attacks that were HELD when it ran
// (each asserts the safe outcome and passes); the ones that got through
// are in redteam32_open_attacks_test.go, which uses the helpers here.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"

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

// Attack (another eukhe's state directory; HELD since (anyEukheDirs, linkLoads and dotLoads, a PATH directory's linked directory); GOT THROUGH before, medium): the
// user runs an eukhe in another environment (XDG_STATE_HOME=OTHER, a
// second desktop session, a container's bind mount of the home); the
// session's gate makes secret only its own state directory, so a step
// reads OTHER/eukhe/discovery/key, and with it signs an entry that the
// other eukhe's clients (`eukhe mcp`, `eukhe approvals`) verify and
// attach to. Root cause: the state directory is secret by its path in
// this environment only; the key file has no name rule, as discovery
// entries have (anyEukheRunEntry). Safe outcome: a read of any
// eukhe/discovery/key (and eukhe/*/key) outside the roots is secret.
func TestRedteam32_AnotherEukhesKeyIsNotSecret(t *testing.T) {
	var other string
	p, root, home := r32GitPolicy(t, nil, func(root, home string) {
		other = filepath.Join(filepath.Dir(home), "other-state")
		must32(t, os.MkdirAll(filepath.Join(other, "eukhe", "discovery"), 0o700))
		must32(t, os.WriteFile(filepath.Join(other, "eukhe", "discovery", "key"), make([]byte, 32), 0o600))
	})
	if e := r32Effects(t, p, root, home, "cat ~/.local/state/eukhe/discovery/key"); !e.Has(gate.Secret) {
		t.Fatalf("control: this eukhe's key is %v", e)
	}
	if e := r32Effects(t, p, root, home, "cat "+filepath.Join(other, "eukhe", "discovery", "key")); !e.Has(gate.Secret) {
		t.Errorf("THROUGH: another eukhe's discovery key is %v, not secret", e)
	}
}

// Attack (false positive: reachHooks for every protected link to the
// root; HELD since (anyEukheDirs, linkLoads and dotLoads, a PATH directory's linked directory); GOT THROUGH before, low): the home links ~/.local/bin/proj (a PATH
// directory) or ~/.config/proj to the workspace root. `echo … > update`
// (a root script named update is common), pre-commit, post-merge … ask:
// reachHooks gives the git hook names in a target that is a root for
// every protected link, where git runs them only from a hooks directory.
// Root cause: learnProtected and linkedDots add reachHooks whatever the
// link's place is. Safe outcome: a write of ./update is not protected
// when no hooks directory or core.hooksPath reaches the root. Suggested
// fix: add reachHooks only for a link that is a hooks directory (or
// lies in one: the rule's hooks place), not for PATH or dot links.
func TestRedteam32_ALinkToTheRootMakesItsUpdateScriptProtected(t *testing.T) {
	for _, link := range []string{".local/bin/proj", ".config/proj"} {
		p, root, home := r32LinkedPolicy(t, link, "")
		if e := r32Effects(t, p, root, home, "echo x > update"); e.Has(gate.Protected) {
			t.Errorf("~/%s: a write of ./update is %v", link, e)
		}
	}
}

// Attack (a dot-link to the workspace root; HELD since (anyEukheDirs, linkLoads and dotLoads, a PATH directory's linked directory); GOT THROUGH before, medium):
// ~/.config/nvim links to the workspace root (the user works on the
// Neovim config's repository, the usual dotfiles setup). The agent
// writes init.lua or lua/plugins/x.lua: Neovim runs it at its next start,
// in the user's editor and outside every sandbox. Before the
// thirty-first red team's change the root was protected whole (every
// write asked); now a target that is a root gives only its hook names
// (ReachBelow gives none), so the editor's init is plain. Root cause:
// ReachBelow and reachHooks give nothing for a dot-link's target that is
// the root but git hook names. Safe outcome: a write of init.lua is
// protected. Suggested fix: for a dot-link to a root, protect the names
// its program loads there (DotCovers' list for that dot-name: init.lua,
// init.vim, lua/, plugin/, after/, ftplugin/ for nvim), not the root whole.
func TestRedteam32_ADotLinkToTheRootLeavesTheEditorsInitPlain(t *testing.T) {
	p, root, home := r32LinkedPolicy(t, ".config/nvim", "")
	for _, s := range []string{"echo 'os.execute(\"x\")' > init.lua", "mkdir -p lua && echo x > lua/x.lua"} {
		if e := r32Effects(t, p, root, home, s); !e.Has(gate.Protected) {
			t.Errorf("THROUGH: %q is %v, not protected", s, e)
		}
	}
}

// Attack (false positive: a directory linked into a PATH directory; GOT
// THROUGH, low): ~/.local/bin/scripts links to the workspace's scripts/
// directory. PATH runs only the PATH directory's own entries, not what a
// directory in it holds, yet learnLinksIn makes the target protected
// whole: every write in scripts/ (notes.md) asks. Root cause: a link in
// a Tree rule's place gives its target whole, whatever the place is.
// Safe outcome: scripts/notes.md is plain (the link itself stays
// protected). Suggested fix: for a PATH directory's links, learn a
// target that is a file (a program) only.
func TestRedteam32_ADirectoryLinkedIntoPathMakesItWholeProtected(t *testing.T) {
	p, root, home := r32LinkedPolicy(t, ".local/bin/scripts", "scripts")
	if e := r32Effects(t, p, root, home, "echo x > scripts/notes.md"); e.Has(gate.Protected) {
		t.Errorf("a note in a directory linked into PATH is %v", e)
	}
}

// r32LinkedPolicy is a policy whose home links link (a path in the home)
// to the workspace's target ("" the root itself), with ~/.local/bin on
// PATH.
func r32LinkedPolicy(t *testing.T, link, target string) (p *gate.Policy, root, home string) {
	env := map[string]string{}
	return r32GitPolicy(t, env, func(root, home string) {
		bin := filepath.Join(home, ".local", "bin")
		env["PATH"] = bin + ":/usr/bin:/bin"
		must32(t, os.MkdirAll(bin, 0o755))
		must32(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
		must32(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
		must32(t, os.MkdirAll(filepath.Join(home, ".config"), 0o755))
		must32(t, os.Symlink(filepath.Join(root, target), filepath.Join(home, link)))
	})
}

// Attack (ways around the link-target fixes; HELD): a directory linked
// into PATH that is itself on PATH; a dot-link to the root whose init is
// written through a link made beside it (plugin -> plugin2); a dot-link
// to a directory below the root. HELD: a PATH directory is protected by
// its own rule wherever it leads; the link made over a load name is a
// write of that protected name; a target below the root is protected
// whole. Safe outcome: each write is protected.
func TestRedteam32_LinkTargetFixesOtherForms(t *testing.T) {
	env := map[string]string{}
	p, root, home := r32GitPolicy(t, env, func(root, home string) {
		bin := filepath.Join(home, ".local", "bin")
		env["PATH"] = bin + ":" + filepath.Join(bin, "scripts") + ":/usr/bin:/bin"
		must32(t, os.MkdirAll(bin, 0o755))
		must32(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
		must32(t, os.Symlink(filepath.Join(root, "scripts"), filepath.Join(bin, "scripts")))
	})
	if e := r32Effects(t, p, root, home, "echo x > scripts/ls"); !e.Has(gate.Protected) {
		t.Errorf("a command in a linked directory that is on PATH itself is %v", e)
	}
	p, root, home = r32LinkedPolicy(t, ".config/nvim", "")
	if e := r32Effects(t, p, root, home, "mkdir plugin2 && ln -s plugin2 plugin"); !e.Has(gate.Protected) {
		t.Errorf("a link made at the editor's plugin directory is %v", e)
	}
	p, root, home = r32LinkedPolicy(t, ".config/nvim", "scripts")
	if e := r32Effects(t, p, root, home, "echo x > scripts/notes.md"); !e.Has(gate.Protected) {
		t.Errorf("a note in a directory linked as the editor's config is %v", e)
	}
}
