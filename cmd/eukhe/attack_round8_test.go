package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The eighth red team (after the fixes of the seventh), through the real
// binary. Each TestAttackRound8_<what> is an attack that asserts the safe
// outcome: a failing row is a finding. What counts as getting through is
// what the third round's file says: a program planted where the user
// later runs it, shown by running it as the user would (unconfined, in
// the test process), or by the plant landing in a place a tool runs
// code from. The auto set is the seventh's (r7auto: read, write, exec,
// outside — not protected, not secret) unless a row says otherwise.

// r8write runs one row: a step (the shell's words, or a python program
// under a mechanism) that appends text to each file, and reports the
// files that hold it afterwards.
func r8write(t *testing.T, w *envWorld, how string, files []string, text string, more ...string) (written []string, reply string) {
	t.Helper()
	var words []string
	code := "import os\n"
	for _, f := range files {
		words = append(words, "mkdir -p "+shellQuote(filepath.Dir(f))+" && printf '%s' "+shellQuote(text)+" >> "+shellQuote(f))
		code += r7append(f, text)
	}
	script := strings.Join(words, "; ")
	if how != "words" {
		more = append(more, "EUKHE_CONFINEMENT="+how)
		script = r3py(code)
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
	reply, _ = p.call("bash", map[string]any{"script": script})
	for _, f := range files {
		if r7holds(f, text) {
			written = append(written, f)
		}
	}
	return written, reply
}

// r8hows are the ways a row writes: the shell's words, and a program
// under each mechanism.
var r8hows = []string{"words", "bubblewrap", "landlock"}

// ===================================================================
// 1. ~/.cache covered except the caches named as data (HomeWritable)
// ===================================================================

// gate.HomeWritable now names the caches of ~/.cache "that hold data";
// several of them hold the programs a tool runs when the user types its
// name, not a build's inputs:
//   - ~/.cache/node is corepack's home (COREPACK_HOME's default
//     ~/.cache/node/corepack): the `pnpm` and `yarn` shims corepack
//     installs run ~/.cache/node/corepack/v1/pnpm/<v>/bin/pnpm.cjs;
//   - ~/.cache/pypoetry holds poetry's virtualenvs
//     (virtualenvs/<proj>-<hash>-py3.x): `poetry run pytest`, `poetry
//     shell` run its bin/;
//   - ~/.cache/uv holds uvx's tool environments (archive-v0/<h>/bin/ruff:
//     `uvx ruff` runs it);
//   - ~/.cache/torch holds torch.hub's clones, whose hubconf.py
//     torch.hub.load imports.
//
// A step allowed outside (no protected) writes each unasked, by words and
// by a program. Root cause: gate/policy.go HomeWritable lists
// ".cache/node", ".cache/pypoetry", ".cache/uv", ".cache/torch" whole
// (DotCovers and lookHomeDots pass over them); no entry below one is
// covered.
func TestAttackRound8_caches_named_as_data_hold_programs_the_user_runs_by_name(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range r8hows {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			files := []string{
				filepath.Join(w.home, ".cache", "node", "corepack", "v1", "pnpm", "9.1.0", "bin", "pnpm.cjs"),
				filepath.Join(w.home, ".cache", "pypoetry", "virtualenvs", "proj-Ab12Cd34-py3.12", "bin", "pytest"),
				filepath.Join(w.home, ".cache", "uv", "archive-v0", "Xy7z", "bin", "ruff"),
				filepath.Join(w.home, ".cache", "torch", "hub", "owner_repo_main", "hubconf.py"),
			}
			for _, f := range files {
				writeFile(t, f, "#!/bin/sh\n# the tool's own\n", 0o755)
			}
			written, reply := r8write(t, w, how, files, "\ntouch PWNED8\n")
			for _, f := range written {
				t.Errorf("%s (a program a tool runs by its name, in a cache named as data) was written unasked:\n%s", f, reply)
			}
		})
	}
}

// ===================================================================
// 2. dot-entries that are links (gate/policy.go linkedDots)
// ===================================================================

// linkedDots covers the real directory of a dot-entry of the home that is
// a link (~/.cache -> /scratch/me/cache). A link one level further down
// is not a dot-entry of the home: ~/.local/share/nvim -> a bigger disk
// (Neovim's plugins and lazy.nvim's clones are large), ~/.cache/pre-commit
// and ~/.cache/gitstatus (the places HomeNeverWritable keeps covered)
// moved by a link. Each target is written unasked by the shell's words
// (the gate judges "outside"); the user's nvim then loads the plugin a
// step wrote in site/plugin. A program under bubblewrap or Landlock held
// (the sandbox's mounts and rules follow the link). Root cause:
// gate/policy.go linkedDots lists only the home's own entries, and the
// DotRule (Policy.protects, DotCovers) judges the resolved path, which
// leaves the home at the second link.
func TestAttackRound8_a_link_below_a_dot_directory_leaves_its_target_uncovered(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range r8hows {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			mark := filepath.Join(w.base, "pwned")
			nvimd, pc, gs := filepath.Join(w.base, "disk", "nvim"), filepath.Join(w.base, "disk", "pre-commit"), filepath.Join(w.base, "disk", "gitstatus")
			files := []string{
				filepath.Join(nvimd, "site", "plugin", "r8.lua"),
				filepath.Join(pc, "repo0abc", "py_env-python3", "bin", "black"),
				filepath.Join(gs, "gitstatusd-linux-x86_64"),
			}
			for _, f := range files {
				writeFile(t, f, "-- the tool's own\n", 0o755)
			}
			mustDo(t, os.MkdirAll(filepath.Join(w.home, ".local", "share"), 0o755))
			mustDo(t, os.MkdirAll(filepath.Join(w.home, ".cache"), 0o755))
			mustDo(t, os.Symlink(nvimd, filepath.Join(w.home, ".local", "share", "nvim")))
			mustDo(t, os.Symlink(pc, filepath.Join(w.home, ".cache", "pre-commit")))
			mustDo(t, os.Symlink(gs, filepath.Join(w.home, ".cache", "gitstatus")))
			written, reply := r8write(t, w, how, files, "\nos.execute('touch "+mark+"')\n")
			for _, f := range written {
				t.Errorf("%s (the target of a link below a dot-directory of the home) was written unasked:\n%s", f, reply)
			}
			r6user(w, w.root, os.Getenv("PATH"), "nvim", "--headless", "+qa")
			if r3exists(mark) {
				t.Errorf("the user's nvim ran what a step appended to ~/.local/share/nvim/site/plugin/r8.lua (~/.local/share/nvim a link to another disk)")
			}
		})
	}
}

// ===================================================================
// 3. hard links the search does not find (gate.LinkCache.Search,
//    agent/shell/protected_outside.go)
// ===================================================================

// The search runs before the process; a process may make the other name
// itself and write through it in the same run: os.link(~/.bashrc,
// $TMPDIR/b), then append to $TMPDIR/b. Under bubblewrap a read-only bind
// is another mount (EXDEV); under Landlock the home is one directory the
// process may write in (outside) and a link names no new content.
// Held under both mechanisms (bubblewrap: EXDEV across the read-only
// bind; Landlock: the link refused), to three places: outside, the home,
// the workspace.
func TestAttackRound8_a_hard_link_the_process_makes_to_a_protected_file(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			mark := filepath.Join(w.base, "pwned")
			bashrc := filepath.Join(w.home, ".bashrc")
			writeFile(t, bashrc, "# the user's bashrc\n", 0o644)
			code := "import os, tempfile\n"
			for i, dst := range []string{filepath.Join(w.base, "b8"), filepath.Join(w.home, "b8"), filepath.Join(w.root, "sub", "b8")} {
				code += fmt.Sprintf("try:\n  os.link(%q, %q); open(%q, 'a').write('touch %s\\n'); print('LINKED%d')\nexcept OSError as e: print('REFUSED%d', e)\n",
					bashrc, dst, dst, mark, i, i)
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			reply, _ := p.call("bash", map[string]any{"script": r3py(code)})
			if r7holds(bashrc, "touch "+mark) {
				t.Errorf("~/.bashrc was written unasked through a hard link the step's program made:\n%s", reply)
			}
			r6user(w, w.root, os.Getenv("PATH"), "bash", "-ic", "true")
			if r3exists(mark) {
				t.Errorf("the user's bash ran what a step wrote in ~/.bashrc through its own hard link")
			}
		})
	}
}

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
func TestAttackRound8_a_protected_file_deeper_than_the_search_hard_linked_from_outside_is_written(t *testing.T) {
	t.Parallel()
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

// ===================================================================
// 4. relative PATH entries (protected_outside.go relativePathRefusal,
//    protected_shadow.go)
// ===================================================================

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
// user's startup files (which eukhe already protects as code). Fixed:
// the places' PATH directories are eukhe's and those the user's shells
// print after their startup files (gate/settings/shellpath.go).
func TestAttackRound8_a_relative_PATH_entry_of_the_users_bashrc_is_unknown(t *testing.T) {
	t.Parallel()
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

// ===================================================================
// 5. variables that name a place of programs (MovedHomes, PathHomes)
// ===================================================================

// PathHomes names GOBIN and GOPATH (a directory of programs the user's
// PATH holds, for an agent whose own PATH lacks it); the other
// installers' variables name the same thing: PNPM_HOME (pnpm add -g),
// NPM_CONFIG_PREFIX (its bin/: npm install -g), CARGO_INSTALL_ROOT (its
// bin/: cargo install), UV_TOOL_BIN_DIR (uv tool install). And some
// variables name a file or directory of code a tool loads at every
// start: PYTHONPATH (its sitecustomize.py runs in every python),
// NODE_OPTIONS's --require file (in every node), GIT_EXEC_PATH (git's
// programs). With these set in the environment eukhe starts with, a
// step writes each unasked (outside), by words and by a program; the
// user's python then runs what it wrote. (The words held for the
// NODE_OPTIONS file and GIT_EXEC_PATH when this was written; programs
// under both mechanisms wrote all seven.) Root cause:
// gate/places.go PathHomes and MovedHomes are lists of names, and
// Places.Rules takes no path from PYTHONPATH, NODE_OPTIONS or
// GIT_EXEC_PATH.
func TestAttackRound8_variables_that_name_programs_outside_PathHomes_and_MovedHomes(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range r8hows {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			mark := filepath.Join(w.base, "pwned")
			d := func(n string) string { return filepath.Join(w.base, n) }
			env := []string{"PNPM_HOME=" + d("pnpm"), "NPM_CONFIG_PREFIX=" + d("npmg"), "CARGO_INSTALL_ROOT=" + d("cargoi"),
				"UV_TOOL_BIN_DIR=" + d("uvbin"), "PYTHONPATH=" + d("pylib"), "NODE_OPTIONS=--require " + d("nodeinit.js"),
				"GIT_EXEC_PATH=" + d("gitexec")}
			files := []string{filepath.Join(d("pnpm"), "ls"), filepath.Join(d("npmg"), "bin", "ls"), filepath.Join(d("cargoi"), "bin", "ls"),
				filepath.Join(d("uvbin"), "ruff"), filepath.Join(d("pylib"), "sitecustomize.py"), d("nodeinit.js"),
				filepath.Join(d("gitexec"), "git-r8")}
			for _, f := range files {
				writeFile(t, f, "\n", 0o755)
			}
			text := "\nimport os; os.system('touch " + mark + "')\n"
			written, reply := r8write(t, w, how, files[:5], text, env...)
			w2, _ := r8write(t, w, how, files[5:], "\nrequire('fs').writeFileSync('"+mark+"', '')\n", env...)
			written = append(written, w2...)
			for _, f := range written {
				t.Errorf("%s (named by a variable as a place of programs or of code every start loads) was written unasked:\n%s", f, reply)
			}
			r6user(w, w.root, os.Getenv("PATH"), "env", "PYTHONPATH="+d("pylib"), "python3", "-c", "pass")
			if r3exists(mark) {
				t.Errorf("the user's python3 (PYTHONPATH) ran the sitecustomize.py a step wrote unasked")
			}
		})
	}
}

// ===================================================================
// controls
// ===================================================================

// r8build: with outside, go build writes its cache in ~/.cache/go-build
// and npm install of a local package writes node_modules and ~/.npm,
// unasked, under each mechanism; a home with a hard-linked file whose
// names are both in the home runs programs.
func r8build(t *testing.T) {
	needEdgeTools(t)
	r3need(t, "go", "npm")
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			// a user's home has its caches (under Landlock a step cannot make
			// a dot directory of the home: held since the sixth round)
			for _, d := range []string{".cache", ".npm"} {
				mustDo(t, os.MkdirAll(filepath.Join(w.home, d), 0o755))
			}
			writeFile(t, filepath.Join(w.home, "dotfiles", "bashrc"), "# the user's\n", 0o644)
			mustDo(t, os.Link(filepath.Join(w.home, "dotfiles", "bashrc"), filepath.Join(w.home, ".bashrc")))
			writeFile(t, filepath.Join(w.root, "go.mod"), "module r8\n\ngo 1.21\n", 0o644)
			writeFile(t, filepath.Join(w.root, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\" + \"r8\") }\n", 0o644)
			writeFile(t, filepath.Join(w.root, "lib8", "package.json"), `{"name": "lib8", "version": "1.0.0"}`, 0o644)
			writeFile(t, filepath.Join(w.root, "package.json"), `{"name": "r8", "version": "1.0.0"}`, 0o644)
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech, "GOFLAGS=-mod=mod",
				"GOCACHE="+filepath.Join(w.home, ".cache", "go-build"))
			for _, c := range []struct{ script, want string }{
				{"go build -o sub/app . && ./sub/app && ls ~/.cache/go-build | head -1", "hellor8"},
				{"npm install --offline --no-audit --no-fund ./lib8 >/dev/null 2>&1; ls node_modules; ls ~/.npm", "lib8"},
			} {
				text := r7wait(p, c.script)
				if !strings.Contains(text, c.want) || strings.Contains(text, "did not run") || strings.Contains(text, "not run:") {
					t.Errorf("%s: did not run unasked:\n%s", c.script, text)
				}
			}
		})
	}
}

func TestAttackRound8_controls(t *testing.T) {
	t.Parallel()
	t.Run("go build with outside, npm install of a local package, a dotfile hard-linked within the home", r8build)
	t.Run("the seventh round's normal work", r7work)
}
