package gate

// The fourteenth red team's attacks on the gate that HELD: the settings file
// resolved again (gatefiles_now.go), the mount table's other names
// (mounts.go, addMountNames) and linkedDots' level-by-level walk.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// r14mount bind-mounts src at dst (both under t.TempDir()) and unmounts
// it in t.Cleanup; it skips where mount is not possible.
func r14mount(t *testing.T, src, dst string) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("bind mounts need root")
	}
	if out, err := exec.Command("mount", "--bind", src, dst).CombinedOutput(); err != nil {
		t.Skipf("mount --bind: %v %s", err, out)
	}
	t.Cleanup(func() { _ = exec.Command("umount", "-l", dst).Run() })
}

// r14secretHome is a home with ~/.aws/credentials and eukhe's settings
// file, and a workspace in it.
func r14secretHome(t *testing.T) (home, root, cred string) {
	_, home, root = redHome(t)
	cred = filepath.Join(home, ".aws", "credentials")
	must(t, os.MkdirAll(filepath.Dir(cred), 0o700))
	must(t, os.WriteFile(cred, []byte("[default]\nkey=x\n"), 0o600))
	must(t, os.MkdirAll(filepath.Join(home, ".config", "eukhe"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".config", "eukhe", "settings.json"), []byte("{}"), 0o600))
	return home, root, cred
}

func r14policy(home, root string) *Policy {
	return Places{Roots: []string{root}, Home: home, UserDir: filepath.Join(home, ".config", "eukhe")}.Policy(OS)
}

// Attack (target 1): links at other levels made after the policy (the
// home's .config to the workspace, the settings file itself to a
// workspace file through a second link), judged past gateRecheck.
// Held.
func TestRedteam14_SettingsLinksOtherLevelsAfterPolicy(t *testing.T) {
	needSymlinks(t)
	home, root, _ := r14secretHome(t)
	p := r14policy(home, root)
	// ~/.config -> root/c
	c := filepath.Join(root, "c")
	must(t, os.MkdirAll(filepath.Join(c, "eukhe"), 0o755))
	conf := filepath.Join(home, ".config")
	must(t, os.Rename(conf, conf+".old"))
	must(t, os.Symlink(c, conf))
	time.Sleep(gateRecheck + 20*time.Millisecond)
	if cl := p.ClassWrite(p.Resolve(root, filepath.Join(c, "eukhe", "settings.json"))); cl != ClassSecret {
		t.Errorf("THROUGH: c/eukhe/settings.json (~/.config linked to c) is %v", cl)
	}
	for _, s := range []string{"mv c/eukhe c/x", "rm -r c/eukhe", "mv c c2", "rmdir c/eukhe"} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("THROUGH: %q above the relinked settings file is %v", s, e)
		}
	}
	secrets, _, _ := p.SandboxRules()
	if !strings.Contains(strings.Join(secrets, "\n"), filepath.Join(c, "eukhe", "settings.json")) {
		t.Errorf("THROUGH: the sandbox's secrets lack the relinked settings file: %v", secrets)
	}
	if dirs := p.GateFileDirs(); !strings.Contains(strings.Join(dirs, "\n"), filepath.Join(c, "eukhe")) {
		t.Errorf("THROUGH: the frozen dirs lack the relinked settings dir: %v", dirs)
	}
}

// Attack (target 1): the settings file a link to a workspace link to a
// workspace file (a chain), made before the policy: the middle link
// replaced by a step changes what the loader reads.
// Held.
func TestRedteam14_SettingsFileLinkChainMiddle(t *testing.T) {
	needSymlinks(t)
	home, root, _ := r14secretHome(t)
	f := filepath.Join(home, ".config", "eukhe", "settings.json")
	must(t, os.Remove(f))
	must(t, os.WriteFile(filepath.Join(root, "b"), []byte("{}"), 0o644))
	must(t, os.Symlink(filepath.Join(root, "b"), filepath.Join(root, "a")))
	must(t, os.Symlink(filepath.Join(root, "a"), f))
	must(t, os.WriteFile(filepath.Join(root, "evil"), []byte(`{"shell":{"confinement":"off"}}`), 0o644))
	p := r14policy(home, root)
	for _, s := range []string{"echo x > b", "ln -sfn evil a", "rm a && cp evil a", "mv evil a", "cp evil b"} {
		if e := r13classify(t, p, root, home, s); !e.Has(Secret) {
			t.Errorf("THROUGH: %q rewrites the settings file (through the chain) and is %v", s, e)
		}
	}
}

// Attack (target 2): mount points named with a space, a newline, a tab,
// a backslash and a literal "\040" (the kernel's escapes), a secret's
// parent bound elsewhere, a secret file bound onto a workspace file: all
// made before the policy.
// Held.
func TestRedteam14_MountNamesBeforePolicy(t *testing.T) {
	home, root, cred := r14secretHome(t)
	var dsts []string
	for _, n := range []string{"m n", "m\nn", "m\tn", `m\n`, `m\040n`, `m\134x`} {
		d := filepath.Join(root, n)
		must(t, os.MkdirAll(d, 0o755))
		r14mount(t, filepath.Join(home, ".aws"), d)
		dsts = append(dsts, filepath.Join(d, "credentials"))
	}
	h := filepath.Join(root, "h home")
	must(t, os.MkdirAll(h, 0o755))
	r14mount(t, home, h)
	dsts = append(dsts, filepath.Join(h, ".aws", "credentials"))
	file := filepath.Join(root, "notes.txt")
	must(t, os.WriteFile(file, nil, 0o644))
	r14mount(t, cred, file)
	dsts = append(dsts, file)
	p := r14policy(home, root)
	for _, d := range dsts {
		if c := p.ClassRead(p.Resolve(root, d)); c != ClassSecret {
			t.Errorf("THROUGH: %q (a secret by a mount) reads as %v", d, c)
		}
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(h, ".profile"))); c < ClassProtected {
		t.Errorf("THROUGH: the bound home's .profile writes as %v", c)
	}
}

// Attack (target 2): ~/.ssh a symbolic link to a data directory that is
// bound into the workspace, and a secret's bind mount into the
// workspace hidden under an overmount when the policy is made (the
// overmount then taken away): made before the policy.
// Held: the real path's mount names and the covered mount's are secret.
func TestRedteam14_MountOfALinkedSecretAndAnOvermount(t *testing.T) {
	home, root, _ := r14secretHome(t)
	data := filepath.Join(filepath.Dir(home), "data")
	must(t, os.MkdirAll(filepath.Join(data, "ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(data, "ssh", "id_rsa"), []byte("key"), 0o600))
	must(t, os.Symlink(filepath.Join(data, "ssh"), filepath.Join(home, ".ssh")))
	d := filepath.Join(root, "d")
	must(t, os.MkdirAll(d, 0o755))
	r14mount(t, data, d)
	inner, cover := filepath.Join(root, "a", "mnt"), filepath.Join(root, "empty")
	must(t, os.MkdirAll(inner, 0o755))
	must(t, os.MkdirAll(cover, 0o755))
	r14mount(t, filepath.Join(home, ".aws"), inner)
	r14mount(t, cover, filepath.Join(root, "a"))
	p := r14policy(home, root)
	must(t, exec.Command("umount", filepath.Join(root, "a")).Run())
	for _, f := range []string{filepath.Join(d, "ssh", "id_rsa"), filepath.Join(inner, "credentials")} {
		if c := p.ClassRead(p.Resolve(root, f)); c != ClassSecret {
			t.Errorf("THROUGH: %s reads as %v", f, c)
		}
	}
}

// Held (was open): any eukhe/settings.json is secret by its name (gate/policy.go classOf, anyGateFile).
// Attack (target 1/7): two eukhe processes of one user with different
// XDG_CONFIG_HOME (set in ~/.bashrc: the terminal's agent CLI has it,
// the editor started from the desktop has not). The editor's policy
// (UserDir ~/.config/eukhe) judges a write of the other's settings file
// ($XDG_CONFIG_HOME/eukhe/settings.json: a home dot-directory, or a
// directory outside the home).
// THROUGH (severity medium: the default auto set holds protected and
// outside, so the editor's agent writes the terminal eukhe's settings
// unasked — {"shell.confinement": "off"} there unconfines every later
// step of the terminal's agent): the write is Protected or Outside, not
// Secret.
// Root cause: Places.GateFiles are this process's UserDir and the
// default ~/.config/eukhe only; the XDG_CONFIG_HOME another eukhe of
// the same user reads is not known (nothing reads it from the user's
// startup files or the other processes' environment).
func TestRedteam14_OtherProcessXDGSettingsFileIsSecret(t *testing.T) {
	home, root, _ := r14secretHome(t)
	p := r14policy(home, root)
	base := filepath.Dir(home)
	for _, f := range []string{
		filepath.Join(home, ".xdg", "eukhe", "settings.json"),
		filepath.Join(home, ".local", "config", "eukhe", "settings.json"),
		filepath.Join(base, "opt-config", "eukhe", "settings.json"),
	} {
		if c := p.ClassWrite(p.Resolve(root, f)); c != ClassSecret {
			t.Errorf("THROUGH: another eukhe's settings file %s writes as %v", f, c)
		}
	}
}

// Held (was open): a directory's files cost a sixteenth of an entry each (their kind comes from the listing), so ~/.vscode's 20,001 files leave the budget for the link five levels down.
// Attack (target 3): ~/.vscode holding more than maxLinkedDotsLook
// entries (extensions' files) at a shallow level: the budget is spent
// before the fifth level, where a dotfiles manager's link
// ~/.local/share/nvim/site/pack/mine points into the workspace.
// THROUGH (severity medium: a home with many VS Code extensions, a
// rustup toolchain or a node tree under a covered dot-directory spends
// 20000 entries in the first four levels): the plugin file Neovim runs
// at start writes as Inside, unasked.
// Root cause: linkedDots' budget is counted over every entry (non-dot
// names of the home, files that are no directory and no link
// included), and when it runs out the walk stops silently: no fallback
// (the hard-link search says "protected" past its bound; this one says
// nothing).
func TestRedteam14_LinkedDotsBudgetIsNotSpentOnFiles(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	ext := filepath.Join(home, ".vscode", "extensions")
	must(t, os.MkdirAll(ext, 0o755))
	for i := 0; i <= maxLinkedDotsLook; i++ {
		f, err := os.Create(filepath.Join(ext, fmt.Sprintf("f%05d", i)))
		must(t, err)
		f.Close()
	}
	plug := filepath.Join(root, "plug")
	must(t, os.MkdirAll(filepath.Join(plug, "start", "p", "plugin"), 0o755))
	pack := filepath.Join(home, ".local", "share", "nvim", "site", "pack")
	must(t, os.MkdirAll(pack, 0o755))
	must(t, os.Symlink(plug, filepath.Join(pack, "mine")))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(plug, "start", "p", "plugin", "evil.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: a plugin file Neovim runs (by ~/.local/share/nvim/site/pack/mine) writes as %v", c)
	}
}

// Held (was open): the policy reads the mount table again when the kernel marks it changed, and at most every mountRecheck (100 ms) otherwise, and gives the secret entries and rules their new other paths (gate/mounts_linux.go mountWatch).
// Attack (target 2): a bind mount of a secret directory, and of the
// home, into the workspace made AFTER the policy.
// THROUGH (severity medium: a mount by the user, an automounter, a
// container runtime or bindfs while a session runs): ~/.aws/credentials
// reads as Inside by the mount's path, eukhe's settings file and
// ~/.bashrc write as Inside.
// Root cause: addMountNames reads /proc/self/mountinfo once, in
// NewPolicy; the policy never looks at the mount table again (no check
// of the device/inode of a judged path against the secret entries').
func TestRedteam14_MountAfterPolicyIsSeen(t *testing.T) {
	home, root, _ := r14secretHome(t)
	mnt, h := filepath.Join(root, "mnt"), filepath.Join(root, "h")
	must(t, os.MkdirAll(mnt, 0o755))
	must(t, os.MkdirAll(h, 0o755))
	p := r14policy(home, root)
	r14mount(t, filepath.Join(home, ".aws"), mnt)
	r14mount(t, home, h)
	// the table is looked at again at most every mountRecheck
	time.Sleep(mountRecheck + 20*time.Millisecond)
	if c := p.ClassRead(p.Resolve(root, filepath.Join(mnt, "credentials"))); c != ClassSecret {
		t.Errorf("THROUGH: mnt/credentials (~/.aws bound after the policy) reads as %v", c)
	}
	if c := p.ClassRead(p.Resolve(root, filepath.Join(h, ".aws", "credentials"))); c != ClassSecret {
		t.Errorf("THROUGH: h/.aws/credentials (the home bound after the policy) reads as %v", c)
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(h, ".config", "eukhe", "settings.json"))); c != ClassSecret {
		t.Errorf("THROUGH: h/.config/eukhe/settings.json writes as %v", c)
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(h, ".bashrc"))); c < ClassProtected {
		t.Errorf("THROUGH: h/.bashrc writes as %v", c)
	}
}
