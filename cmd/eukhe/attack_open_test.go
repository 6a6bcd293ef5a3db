//go:build open_attacks

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The attacks still open: each got through when it was written and still
// does; the closing note of the stop that found it says why it is not
// fixed yet. They build only with the tag open_attacks
// (go test -tags open_attacks -run TestAttackOpen ./cmd/eukhe), so CI
// stays green while they are kept where the next person finds them; the
// helpers they call are in the round's own file. Fixing one moves it back
// to its round's file.

// The eighth red team's, open: the search for other names of the home's
// configuration looks two levels into a dot-directory (a deeper file's
// names are not searched for each process), and eukhe knows only its own
// PATH, not the one the user's rc files make.

// The search for other names of the protected files walks the home's
// configuration two levels deep (dotTops) and .git one level; a protected
// file deeper than that whose other name is outside the home and the
// roots is never "wanted", so it is never unfound, and the process that
// may write outside runs: it writes Neovim's plugin
// (~/.local/share/nvim/site/plugin, depth 4 in .local), an oh-my-zsh
// custom plugin (depth 4 in .oh-my-zsh) and the repository's pre-commit
// hook (.git/hooks/pre-commit, shared from a team's hooks directory by
// ln) through their other names. Neovim's and oh-my-zsh's got through
// under both mechanisms; the hook held (.git's files are searched). Root
// cause: gate/links.go Policy.dotTops (depth 2) and
// protectedTops (a Named rule's depth), with LinkCache.Search reporting
// Unfound only for files the bounded walk met.
func TestAttackOpen_a_protected_file_deeper_than_the_search_hard_linked_from_outside_is_written(t *testing.T) {
	needEdgeTools(t)
	rows := map[string]string{
		"nvim plugin":       ".local/share/nvim/site/plugin/r8.lua",
		"oh-my-zsh plugin":  ".oh-my-zsh/custom/plugins/r8/r8.plugin.zsh",
		"a repository hook": "proj/.git/hooks/pre-commit",
	}
	for name, rel := range rows {
		for _, mech := range mechanisms {
			t.Run(name+"/"+mech, func(t *testing.T) {
				w, o, reply := r8hardLinked(t, mech, rel, func(w *envWorld) string {
					return filepath.Join(w.base, "shared", strings.ReplaceAll(rel, "/", "_"))
				})
				if r7holds(o, "PWNED8") {
					t.Errorf("~/%s (protected) was written unasked through its other name %s:\n%s", rel, o, reply)
				}
				if strings.HasPrefix(rel, "proj/") {
					out, _ := r3gitTry(w.home, w.root, "-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "--allow-empty", "-m", "x")
					if r3exists(filepath.Join(w.root, "PWNED8")) {
						t.Errorf("the user's git commit ran the pre-commit hook a step wrote through its other name: %s", out)
					}
				}
			})
		}
	}
}

// The refusal and the shadow rule read eukhe's own PATH. The PATH the
// user types commands in is the one their ~/.bashrc makes: a line
// `export PATH=./bin:$PATH` (or node_modules/.bin, or ".") there, while the
// agent's client started eukhe with the login's PATH (a desktop
// session, an editor launched from a menu, before the line was added).
// A step's program makes sub/bin/ls, sub/node_modules/.bin/ls and sub/ls
// unasked (with read and write only: the workspace); the user's
// interactive bash in sub runs the plant for ls. Root cause:
// gate/settings/paths.go takes PathDirs from the environment's PATH only;
// agent/shell/sandbox.go places and setShadow never see the PATH of the
// user's startup files (which eukhe already protects as code).
func TestAttackOpen_a_relative_PATH_entry_of_the_users_bashrc_is_unknown(t *testing.T) {
	needEdgeTools(t)
	rows := map[string]string{"./bin": "sub/bin/ls", "node_modules/.bin": "sub/node_modules/.bin/ls", ".": "sub/ls"}
	for entry, plant := range rows {
		for _, mech := range mechanisms {
			t.Run(entry+"/"+mech, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec"]`)
				writeFile(t, filepath.Join(w.home, ".bashrc"), "export PATH="+entry+":$PATH\n", 0o644)
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				reply, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant(plant))})
				out := r6user(w, filepath.Join(w.root, "sub"), os.Getenv("PATH"), "bash", "-ic", "ls /dev/null")
				if strings.Contains(out, "PLANTEDRAN") {
					t.Errorf("the user's interactive bash (~/.bashrc: PATH=%s:$PATH) in sub ran %s, made by a step unasked: %s\n%s", entry, plant, out, reply)
				}
			})
		}
	}
}

// r8hardLinked makes the file at rel (below the home, or the root when
// rel starts with "proj/") a second name of other (outside the home and
// the roots), and has a step's program append to other.
func r8hardLinked(t *testing.T, mech, rel string, other func(w *envWorld) string) (*envWorld, string, string) {
	w := newEnvWorld(t, r7auto)
	o := other(w)
	writeFile(t, o, "#!/bin/sh\n# the user's own\n", 0o755)
	in := filepath.Join(w.home, rel)
	mustDo(t, os.MkdirAll(filepath.Dir(in), 0o755))
	os.Remove(in)
	mustDo(t, os.Link(o, in))
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
	reply, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r7append(o, "\ntouch PWNED8\n"))})
	return w, o, reply
}
