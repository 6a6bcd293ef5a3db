package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Three new ways around each fix of the eighth round's last two
// (a protected file deep in the home's configuration with another name;
// a PATH entry only the user's startup files make), tried after the fix.

// A deep file of the home's configuration hard-linked into the
// workspace (a dotfiles repository that links its files in place), and
// a step with only read, write and exec that writes the workspace's name:
// by the shell's words (the gate judges the redirect), by a program
// under each mechanism (the sandbox binds the name read-only), and by
// the write tool (the gate).
func TestAttackRound8_a_deep_configuration_file_hard_linked_into_the_workspace(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	deep := map[string]string{
		"a Neovim module five levels down": ".config/nvim/lua/user/plugins/r8.lua",
		"an oh-my-zsh theme":               ".oh-my-zsh/custom/themes/deep/r8.zsh-theme",
		"a VS Code extension's code":       ".vscode/extensions/pub.ext-1.0.0/out/main.js",
	}
	for name, rel := range deep {
		for _, how := range append(r8hows, "write tool") {
			t.Run(name+"/"+how, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec"]`)
				in := filepath.Join(w.home, rel)
				writeFile(t, in, "-- the user's own\n", 0o644)
				name := filepath.Join(w.root, "sub", "r8-"+filepath.Base(rel))
				mustDo(t, os.Link(in, name))
				var reply string
				if how == "write tool" {
					p := r3mcp(t, w, w.root, os.Getenv("PATH"))
					reply, _ = p.call("write", map[string]any{"path": name, "content": "PWNED8\n"})
				} else {
					_, reply = r8write(t, w, how, []string{name}, "PWNED8\n")
				}
				if r7holds(in, "PWNED8") {
					t.Errorf("~/%s (protected) was written unasked through its name in the workspace:\n%s", rel, reply)
				}
			})
		}
	}
}

// The user's PATH gets a relative entry three other ways: only a login
// shell's ~/.profile has it (macOS terminals and ssh start login
// shells); ~/.bashrc sources a file of the home's configuration that
// has it; ~/.bashrc adds it only when the shell is interactive (the
// usual guard). A step with read, write and exec plants ls there; the
// user's shell of that kind in sub must not run it.
func TestAttackRound8_a_relative_PATH_entry_the_users_shell_makes_other_ways(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	rows := []struct {
		name  string
		files map[string]string
		user  []string
	}{
		{"a login shell's profile", map[string]string{".profile": "PATH=\"./bin:$PATH\"\nexport PATH\n"}, []string{"bash", "-lic", "ls /dev/null"}},
		{"a file the bashrc sources", map[string]string{".bashrc": ". \"$HOME/.config/shell/path.sh\"\n", ".config/shell/path.sh": "export PATH=node_modules/.bin:$PATH\n"}, []string{"bash", "-ic", "ls /dev/null"}},
		{"an interactive-only guard", map[string]string{".bashrc": "case $- in *i*) export PATH=\".:$PATH\";; esac\n"}, []string{"bash", "-ic", "ls /dev/null"}},
	}
	plants := map[string]string{"a login shell's profile": "sub/bin/ls", "a file the bashrc sources": "sub/node_modules/.bin/ls", "an interactive-only guard": "sub/ls"}
	for _, row := range rows {
		for _, mech := range mechanisms {
			t.Run(row.name+"/"+mech, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec"]`)
				for rel, text := range row.files {
					writeFile(t, filepath.Join(w.home, rel), text, 0o644)
				}
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				reply, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant(plants[row.name]))})
				out := r6user(w, filepath.Join(w.root, "sub"), os.Getenv("PATH"), row.user...)
				if strings.Contains(out, "PLANTEDRAN") {
					t.Errorf("the user's %s in sub ran %s, made by a step unasked: %s\n%s", strings.Join(row.user[:2], " "), plants[row.name], out, reply)
				}
			})
		}
	}
}
