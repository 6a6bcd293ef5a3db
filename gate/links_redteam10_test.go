package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// The tenth red team's ways around ClassWrite's search for a file's
// other names: a place the agent may write unasked (the workspace, a
// cache of HomeWritable, a dotfiles directory outside) holding another
// name of a file of the home's configuration or of a credential store.

// redHome is a home with a workspace in it, for the tests below.
func redHome(t *testing.T) (base, home, root string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	home, root = filepath.Join(base, "home"), filepath.Join(base, "home", "work")
	must(t, os.MkdirAll(root, 0o755))
	return base, home, root
}

// hardLink writes protected (with its directories) and gives it the other
// name other (with its directories).
func hardLink(t *testing.T, protected, other string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(protected), 0o755))
	must(t, os.MkdirAll(filepath.Dir(other), 0o755))
	must(t, os.WriteFile(protected, []byte("x\n"), 0o644))
	must(t, os.Link(protected, other))
}

// A credential store's file with another name (a dotfiles directory that
// hard-links ~/dotfiles/ssh_config to ~/.ssh/config, whose ProxyCommand
// runs at the next ssh): a write to the other name writes the store, so
// it is Secret (it always asks), not Outside (unasked by default).
func TestRedTeam10_a_credential_store_file_hard_linked_elsewhere_is_secret(t *testing.T) {
	needHardLinkSearch(t)
	base, home, root := redHome(t)
	state := filepath.Join(home, ".local", "state", "eukhe")
	must(t, os.MkdirAll(state, 0o755))
	cases := map[string]string{
		filepath.Join(home, ".ssh", "config"):             filepath.Join(home, "dotfiles", "ssh_config"),
		filepath.Join(home, ".ssh", "authorized_keys"):    filepath.Join(root, "keys"),
		filepath.Join(home, ".aws", "config"):             filepath.Join(home, ".cache", "pip", "aws"),
		filepath.Join(home, ".config", "gh", "hosts.yml"): filepath.Join(base, "tmp", "hosts"),
	}
	for protected, other := range cases {
		hardLink(t, protected, other)
	}
	// a file of the workspace with another name in eukhe's own state (a
	// journal of an interrupted commit) stays the workspace's
	hardLink(t, filepath.Join(root, "moved.go"), filepath.Join(state, "journal", "x", "moved.go"))
	p := Places{Roots: []string{root}, Home: home, StateDir: state}.Policy(OS)
	for protected, other := range cases {
		if got := p.ClassWrite(Resolve(OS, root, other)); got != ClassSecret {
			t.Errorf("write %s (another name of %s): %v, want %v", other, protected, got, ClassSecret)
		}
	}
	if got := p.ClassWrite(Resolve(OS, root, filepath.Join(root, "moved.go"))); got != ClassInside {
		t.Errorf("write a workspace file named in eukhe's journal too: %v, want %v", got, ClassInside)
	}
}

// Caches and the configuration nest: a place HomeNeverWritable keeps
// covered beside caches (~/.cache/pre-commit, p10k's instant prompt), a
// covered neighbour of a cache two and three levels down (poetry's
// virtualenvs beside its cache, uv's tools beside its wheels), a home
// moved by XDG_CONFIG_HOME and XDG_CACHE_HOME, and a dot-directory that
// is a link elsewhere: each file's other name in a cache, the workspace
// or a scratch directory is Protected.
func TestRedTeam10_nested_moved_and_linked_configuration_with_other_names_is_protected(t *testing.T) {
	needHardLinkSearch(t)
	needSymlinks(t)
	base, home, root := redHome(t)
	xdg, xcache, realLocal := filepath.Join(base, "xdg"), filepath.Join(base, "xcache"), filepath.Join(base, "disk", "local")
	must(t, os.MkdirAll(realLocal, 0o755))
	must(t, os.Symlink(realLocal, filepath.Join(home, ".local")))
	type pair struct{ protected, other string }
	cases := []pair{
		{filepath.Join(home, ".cache", "pre-commit", "repoabc", "hook.py"), filepath.Join(home, ".cache", "pip", "http", "hook")},
		{filepath.Join(home, ".cache", "p10k-instant-prompt-me.zsh"), filepath.Join(home, ".cache", "go-build", "ab", "p10k")},
		{filepath.Join(home, ".cache", "pypoetry", "virtualenvs", "app-py3", "bin", "activate"), filepath.Join(home, ".cache", "pypoetry", "cache", "activate")},
		{filepath.Join(home, ".cache", "uv", "tools", "ruff", "bin", "ruff"), filepath.Join(home, ".cache", "uv", "wheels-v5", "ruff")},
		{filepath.Join(home, ".cargo", "bin", "cargo-x"), filepath.Join(home, ".cargo", "registry", "src", "x", "build.rs")},
		{filepath.Join(xdg, "fish", "conf.d", "x.fish"), filepath.Join(root, "x.fish")},
		{filepath.Join(xcache, "pre-commit", "repo", "hook"), filepath.Join(xcache, "pip", "hook")},
		{filepath.Join(xcache, "starship", "init.sh"), filepath.Join(root, "init.sh")},
		{filepath.Join(realLocal, "share", "nvim", "site", "plugin", "p.lua"), filepath.Join(realLocal, "share", "pnpm", "store", "v3", "p")},
		{filepath.Join(realLocal, "bin", "tool"), filepath.Join(root, "tool")},
	}
	for _, c := range cases {
		hardLink(t, c.protected, c.other)
	}
	env := map[string]string{"XDG_CONFIG_HOME": xdg, "XDG_CACHE_HOME": xcache}
	p := Places{Roots: []string{root}, Home: home, Env: env}.Policy(OS)
	for _, c := range cases {
		if got := p.ClassWrite(Resolve(OS, root, c.other)); got != ClassProtected {
			t.Errorf("write %s (another name of %s): %v, want %v", c.other, c.protected, got, ClassProtected)
		}
	}
	// the controls: a cache's file with two names in caches, and a
	// workspace file with two names in the workspace
	hardLink(t, filepath.Join(home, ".cache", "pip", "a"), filepath.Join(home, ".npm", "_cacache", "a"))
	hardLink(t, filepath.Join(root, "a.go"), filepath.Join(root, "b.go"))
	for _, f := range []string{filepath.Join(home, ".npm", "_cacache", "a"), filepath.Join(root, "b.go")} {
		if got := p.ClassWrite(Resolve(OS, root, f)); got == ClassProtected {
			t.Errorf("write %s (two names, none configuration): %v", f, got)
		}
	}
}

// Through the shell: a step that writes another name of a credential
// store's file (a redirection, tee, sed -i, cp onto it) has secret, so
// it asks; a workspace file named in eukhe's journal too still writes
// unasked.
func TestRedTeam10_a_step_writing_another_name_of_a_secret_has_secret(t *testing.T) {
	needHardLinkSearch(t)
	w := newAttackWorld(t)
	must(t, os.MkdirAll(filepath.Join(w.home, ".aws"), 0o700))
	hardLink(t, filepath.Join(w.home, ".aws", "config"), filepath.Join(w.root, "awscfg"))
	hardLink(t, filepath.Join(w.root, "moved.txt"), filepath.Join(w.state, "journal", "j1", "moved.txt"))
	must(t, os.WriteFile(filepath.Join(w.root, "a.txt"), []byte("a\n"), 0o644))
	// the machine's own other homes are not this test's to walk
	w.policy = Places{Home: w.home, UserDir: w.userDir, Roots: []string{w.root}, PathDirs: []string{w.bin},
		OtherHomes: []string{w.alice}, StateDir: w.state}.Policy(OS)
	for _, s := range []string{"echo '[profile x]' >> awscfg", "echo x | tee -a awscfg", "sed -i s/a/b/ awscfg", "cp a.txt awscfg"} {
		w.judgeRow(t, w.root, s, Of(Secret), false)
	}
	for _, s := range []string{"echo x >> moved.txt", "sed -i s/a/b/ moved.txt", "echo x >> a.txt"} {
		w.judgeRow(t, w.root, s, 0, true)
	}
	// and reads of it: a command's word, a redirect
	for _, s := range []string{"cat awscfg", "wc -l < awscfg", "grep key awscfg"} {
		w.judgeRow(t, w.root, s, Of(Secret), false)
	}
	for _, s := range []string{"cat moved.txt", "wc -l < a.txt"} {
		w.judgeRow(t, w.root, s, 0, true)
	}
}

// A read of another name of a credential store's file
// (~/dotfiles/aws_credentials hard-linked to ~/.aws/credentials) was
// judged by its path, and read the secret unasked: it is secret now
// (ClassRead searches the secret entries, through the walk kept for
// writes), by the read tool, a redirect and a command's word.
func TestRedTeam10_a_read_of_another_name_of_a_secret_is_secret(t *testing.T) {
	needHardLinkSearch(t)
	_, home, root := redHome(t)
	hardLink(t, filepath.Join(home, ".aws", "credentials"), filepath.Join(home, "dotfiles", "aws_credentials"))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	v := p.JudgeReal(Resolve(OS, root, filepath.Join(home, "dotfiles", "aws_credentials")), ReadAccess, DefaultAuto())
	if !v.Effects.Has(Secret) {
		t.Errorf("read another name of ~/.aws/credentials: %v, want secret", v.Effects)
	}
	other := Resolve(OS, root, filepath.Join(home, "dotfiles", "aws_credentials"))
	if c := p.ClassRead(other); c != ClassSecret {
		t.Errorf("ClassRead of the other name: %v, want secret", c)
	}
	plain := filepath.Join(home, "dotfiles", "notes")
	must(t, os.WriteFile(plain, []byte("x\n"), 0o644))
	must(t, os.Link(plain, filepath.Join(root, "notes")))
	if c := p.ClassRead(Resolve(OS, root, filepath.Join(root, "notes"))); c != ClassInside {
		t.Errorf("a workspace file linked to a plain file: %v, want inside", c)
	}
}

// Held (was open: the tenth red team's): linkedDots looked for links in
// the home's configuration three levels deep only, so a link deeper was
// not a DotRule of its own, and what is behind it resolved Outside; it
// now looks level by level, maxLinkedDotsDepth deep, within its bound.
// A dot-directory reached through a link deeper than the policy looks
// for links when it starts (a dotfiles manager that links
// ~/.local/share/nvim/site/pack/mine to its own tree, GNU stow's folded
// trees): Neovim loads what is there at its start, so a write there, by
// the link's path, its real path, or another name of a file there, is
// Protected.
func TestRedTeam10_configuration_behind_a_deep_directory_link_is_protected(t *testing.T) {
	needHardLinkSearch(t)
	needSymlinks(t)
	base, home, root := redHome(t)
	real := filepath.Join(base, "dotfiles", "nvim-pack")
	must(t, os.MkdirAll(filepath.Join(real, "start", "mine", "plugin"), 0o755))
	site := filepath.Join(home, ".local", "share", "nvim", "site", "pack")
	must(t, os.MkdirAll(site, 0o755))
	must(t, os.Symlink(real, filepath.Join(site, "mine")))
	plugin := filepath.Join(real, "start", "mine", "plugin", "p.lua")
	hardLink(t, plugin, filepath.Join(root, "p.lua"))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, path := range []string{filepath.Join(site, "mine", "start", "mine", "plugin", "new.lua"), plugin, filepath.Join(root, "p.lua")} {
		if got := p.ClassWrite(Resolve(OS, root, path)); got != ClassProtected {
			t.Errorf("write %s: %v, want %v", path, got, ClassProtected)
		}
	}
}
