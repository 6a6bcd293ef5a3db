package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The ninth red team (after the fixes of the eighth: the home's
// configuration searched whole for files with other names, its walk kept
// a minute per session; the PATH the user's shells make after their
// startup files), through the real binary. Each TestAttackRound9_<what>
// is an attack that held when it was written, kept as a row that must
// keep holding; the ones that got through are in attack_open9_test.go
// (tag open_attacks). What counts as getting through is what the third
// round's file says. The auto set is the seventh's (r7auto: read, write,
// exec, outside) or read, write and exec (r9ws), as each row says.

// r9ws is the auto set of a step that may write the workspace only.
const r9ws = `["read", "write", "exec"]`

// r9hows are the ways a row writes a name: the shell's words, the write
// tool, and a program under each mechanism.
var r9hows = []string{"words", "write tool", "bubblewrap", "landlock"}

// r9writeVia writes text to the file at name one way (r9hows) in a new
// session, and gives the reply.
func r9writeVia(t *testing.T, w *envWorld, how, name, text string, more ...string) string {
	t.Helper()
	if how == "write tool" {
		p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
		p.call("read", map[string]any{"path": name})
		reply, _ := p.call("write", map[string]any{"path": name, "content": text})
		r9log(t, reply)
		return reply
	}
	_, reply := r8write(t, w, how, []string{name}, text, more...)
	r9log(t, reply)
	return reply
}

// ===================================================================
// 1. the home's configuration searched whole, its walk kept a minute
//    (gate/links_tops.go, agent/shell/sandbox.go places)
// ===================================================================

// The cache's premise: a step cannot make a new name for a file of the
// home's configuration. A step's program, after a first step made the
// walk, links a Neovim module five levels into ~/.config out to the
// temporary directory, the home and the workspace, renames it out (to
// write it and rename it back), and writes through each new name; under
// each mechanism, with outside and with the workspace only. Held: a
// read-only bind (bubblewrap) and a place without Landlock's refer right
// give EXDEV, a rename out of a read-only place fails.
func TestAttackRound9_a_step_makes_a_new_name_for_a_deep_configuration_file(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for auto, set := range map[string]string{"outside": r7auto, "workspace": r9ws} {
		for _, mech := range mechanisms {
			t.Run(auto+"/"+mech, func(t *testing.T) {
				w := newEnvWorld(t, set)
				deep := filepath.Join(w.home, ".config", "nvim", "lua", "user", "plugins", "r9.lua")
				writeFile(t, deep, "-- the user's own\n", 0o644)
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				p.call("bash", map[string]any{"script": r3py("print('FIRST')")})
				code := "import os\n"
				for i, dst := range []string{filepath.Join(os.TempDir(), fmt.Sprintf("r9-%d-%s.lua", os.Getpid(), mech)), filepath.Join(w.base, "r9.lua"), filepath.Join(w.home, "r9.lua"), filepath.Join(w.root, "sub", "r9.lua")} {
					code += fmt.Sprintf("try:\n  os.link(%q, %q); open(%q, 'a').write('PWNED9\\n'); print('LINKED%d')\nexcept OSError as e: print('REFUSED%d', e)\n", deep, dst, dst, i, i)
					code += fmt.Sprintf("try:\n  os.rename(%q, %q+'.mv'); open(%q+'.mv', 'a').write('PWNED9\\n'); os.rename(%q+'.mv', %q); print('MOVED%d')\nexcept OSError as e: print('REFUSED%d', e)\n", deep, dst, dst, dst, deep, i, i)
					defer os.Remove(dst)
				}
				reply, _ := p.call("bash", map[string]any{"script": r3py(code)})
				r9log(t, reply)
				if r7holds(deep, "PWNED9") {
					t.Errorf("~/.config/nvim/lua/user/plugins/r9.lua was written unasked through a name the step made:\n%s", reply)
				}
			})
		}
	}
}

// The user's dotfiles repository in the workspace holds a name of a deep
// configuration file (bound read-only). A step's program renames that
// name, links it to another name in the workspace and out to the base,
// and writes each. Held under both mechanisms (a bind mount is not
// renamed; Landlock refuses a link or rename that would give the file
// more rights).
func TestAttackRound9_a_step_moves_or_links_the_workspace_name_of_a_configuration_file(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for auto, set := range map[string]string{"outside": r7auto, "workspace": r9ws} {
		for _, mech := range mechanisms {
			t.Run(auto+"/"+mech, func(t *testing.T) {
				w := newEnvWorld(t, set)
				deep := filepath.Join(w.home, ".config", "nvim", "lua", "user", "r9.lua")
				writeFile(t, deep, "-- the user's own\n", 0o644)
				ws := filepath.Join(w.root, "dotfiles", "nvim", "lua", "user", "r9.lua")
				mustDo(t, os.MkdirAll(filepath.Dir(ws), 0o755))
				mustDo(t, os.Link(deep, ws))
				code := "import os\n"
				code += fmt.Sprintf("try:\n  os.rename(%q, %q); open(%q, 'a').write('PWNED9\\n'); print('RENAMED')\nexcept OSError as e: print('REFUSED', e)\n", ws, ws+".x", ws+".x")
				for i, dst := range []string{filepath.Join(w.root, "r9.lua"), filepath.Join(w.root, "dotfiles", "r9.lua"), filepath.Join(w.base, "r9.lua")} {
					code += fmt.Sprintf("try:\n  os.link(%q, %q); open(%q, 'a').write('PWNED9\\n'); print('LINKED%d')\nexcept OSError as e: print('REFUSED%d', e)\n", ws, dst, dst, i, i)
				}
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				reply, _ := p.call("bash", map[string]any{"script": r3py(code)})
				r9log(t, reply)
				if r7holds(deep, "PWNED9") {
					t.Errorf("~/.config/nvim/lua/user/r9.lua was written unasked through a name the step made of its workspace name:\n%s", reply)
				}
			})
		}
	}
}

// Within the minute the walk is kept, the user changes a file's names
// keeping their number: a file of ~/.config/nvim with a second name
// there; (swap) the second name removed and the file linked out to the
// base; (move) the second name renamed out to the base. A later step of
// the same session, allowed outside, writes the name in the base. Held
// under both mechanisms: the walk kept is used only while each file it
// met is where it was.
func TestAttackRound9_a_name_swapped_within_the_minute_the_walk_is_kept(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range []string{"swap", "move"} {
		for _, mech := range mechanisms {
			t.Run(how+"/"+mech, func(t *testing.T) {
				w := newEnvWorld(t, r7auto)
				a := filepath.Join(w.home, ".config", "nvim", "lua", "user", "r9.lua")
				b := filepath.Join(w.home, ".config", "nvim", "lua", "user", "r9-copy.lua")
				out := filepath.Join(w.base, "shared", "r9.lua")
				writeFile(t, a, "-- the user's own\n", 0o644)
				mustDo(t, os.Link(a, b))
				mustDo(t, os.MkdirAll(filepath.Dir(out), 0o755))
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				first, _ := p.call("bash", map[string]any{"script": r3py("print('FIRST' + 'RAN')")})
				if !strings.Contains(first, "FIRSTRAN") {
					t.Fatalf("the first step did not run:\n%s", first)
				}
				if how == "swap" {
					mustDo(t, os.Remove(b))
					mustDo(t, os.Link(a, out))
				} else {
					mustDo(t, os.Rename(b, out))
				}
				reply, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r7append(out, "PWNED9\n"))})
				r9log(t, reply)
				if r7holds(a, "PWNED9") {
					t.Errorf("~/.config/nvim/lua/user/r9.lua was written unasked through its name %s (%s within the minute):\n%s", out, how, reply)
				}
			})
		}
	}
}

// A home given as a link (HOME=/base/homelink, the home itself
// elsewhere): a deep configuration file hard-linked out to the base, and
// one hard-linked into the workspace; written each way (the outside name
// with outside, the workspace's with the workspace only). Held.
func TestAttackRound9_a_home_given_as_a_link(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range r9hows {
		for _, where := range []string{"outside", "workspace"} {
			t.Run(where+"/"+how, func(t *testing.T) {
				set := r7auto
				if where == "workspace" {
					set = r9ws
				}
				w := newEnvWorld(t, set)
				link := filepath.Join(w.base, "homelink")
				mustDo(t, os.Symlink(w.home, link))
				deep := filepath.Join(w.home, ".config", "nvim", "lua", "user", "r9.lua")
				writeFile(t, deep, "-- the user's own\n", 0o644)
				name := filepath.Join(w.base, "shared", "r9.lua")
				if where == "workspace" {
					name = filepath.Join(w.root, "sub", "r9.lua")
				}
				mustDo(t, os.MkdirAll(filepath.Dir(name), 0o755))
				mustDo(t, os.Link(deep, name))
				reply := r9writeVia(t, w, how, name, "PWNED9\n", "HOME="+link)
				r9log(t, reply)
				if r7holds(deep, "PWNED9") {
					t.Errorf("~/.config/nvim/lua/user/r9.lua (HOME a link) was written unasked through %s:\n%s", name, reply)
				}
			})
		}
	}
}

// The home's configuration elsewhere (~/.config a link to /data/config;
// XDG_CONFIG_HOME=/data/xdg), a deep file of it with a second name out in
// the base or in the workspace: the shell's words and the write tool
// (outside, and the workspace only) are asked, and a program of a step
// with the workspace only cannot write the workspace's name of the
// linked ~/.config. Held. (A program of a step allowed outside gets
// through: attack_open9_test.go. A program of a step with the workspace
// only and XDG_CONFIG_HOME moved got through on a machine whose real home
// holds more than the bound: the bound rows.)
func TestAttackRound9_a_configuration_place_elsewhere_written_other_ways(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for place, setup := range map[string]func(*testing.T) func(*envWorld) (string, []string){"a linked ~/.config": r9configLinked, "XDG_CONFIG_HOME": r9xdgMoved} {
		for _, where := range []string{"outside", "workspace"} {
			for _, how := range r9hows {
				if how != "words" && how != "write tool" && (where == "outside" || place == "XDG_CONFIG_HOME") {
					continue
				}
				t.Run(place+"/"+where+"/"+how, func(t *testing.T) { r9linkedAway(t, how, where, setup(t)) })
			}
		}
	}
}

// The home's configuration past the walk's bound (gate.MaxLinkWalk:
// 200000 entries; here 200100 empty files in ~/.config/Code/CachedData,
// on a tmpfs), and a ranger plugin after them (~/.config/ranger/plugins,
// sorted after Code) hard-linked out to the base.
// A step allowed outside writes the outside name by a program: refused
// (the walk incomplete), under both mechanisms; by the shell's words and
// the write tool: asked (the gate's search past its bound says
// protected). Held. (The same home with the workspace's name and a step
// with the workspace only: attack_open9_test.go.)
func TestAttackRound9_a_home_configuration_past_the_bound_and_a_step_allowed_outside(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	if testing.Short() {
		t.Skip("makes 200100 files")
	}
	w := r9worldAt(t, "tmpfs", r7auto)
	r9many(t, filepath.Join(w.home, ".config", "Code", "CachedData"), 200100)
	deep := filepath.Join(w.home, ".config", "ranger", "plugins", "r9.py")
	writeFile(t, deep, "-- the user's own\n", 0o644)
	name := filepath.Join(w.base, "shared", "r9.lua")
	mustDo(t, os.MkdirAll(filepath.Dir(name), 0o755))
	mustDo(t, os.Link(deep, name))
	for _, how := range r9hows {
		t.Run(how, func(t *testing.T) {
			start := time.Now()
			reply := r9writeVia(t, w, how, name, "PWNED9\n")
			r9log(t, reply)
			t.Logf("%s: %s", how, time.Since(start).Round(time.Millisecond))
			if r7holds(deep, "PWNED9") {
				t.Errorf("~/.config/ranger/plugins/r9.py (past the bound) was written unasked through %s:\n%s", name, reply)
			}
		})
	}
	// what a step allowed outside meets in such a home (rustup and pyenv
	// make one: 245676 entries on the machine this was written on): every
	// program refused, also one that writes nothing; logged, not asserted
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	reply, _ := p.call("bash", map[string]any{"script": r3py("print('PY' + 'OK')")})
	t.Logf("an ordinary program of a step allowed outside, in a home past the bound, ran: %v\n%s", strings.Contains(reply, "PYOK"), reply)
}

// conda keeps its packages in ~/.conda/pkgs (a cache a step allowed
// outside writes) and hard-links their files into its environments
// (~/.conda/envs/<env>/bin: on PATH once activated, covered). A step
// allowed outside appends to the package's file in the cache: held each
// way (the environments are searched whole; the cache's name is in the
// home, bound read-only).
func TestAttackRound9_condas_environment_hard_linked_from_its_package_cache(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range r9hows {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			pkg := filepath.Join(w.home, ".conda", "pkgs", "black-24.1.0-py312_0", "bin", "black")
			env := filepath.Join(w.home, ".conda", "envs", "data-science", "bin", "black")
			writeFile(t, pkg, "#!/usr/bin/env python3\n# black\n", 0o755)
			mustDo(t, os.MkdirAll(filepath.Dir(env), 0o755))
			mustDo(t, os.Link(pkg, env))
			reply := r9writeVia(t, w, how, pkg, "#!/bin/sh\ntouch PWNED9\n")
			r9log(t, reply)
			if r7holds(env, "PWNED9") {
				t.Errorf("~/.conda/envs/data-science/bin/black was written unasked through its name in ~/.conda/pkgs:\n%s", reply)
			}
		})
	}
}

// pnpm's home ~/.local/share/pnpm: its store (store/, named as data: a
// step allowed outside writes it) holds the files its global packages
// (global/5/node_modules, covered: `pnpm add -g` puts their programs on
// PATH) are hard links of. A step allowed outside appends to the store's
// file: held each way (the words and the write tool asked, programs
// refused). Tried because gate/links.go dotTops walks the home only two
// levels for the covered places below one that holds a writable place,
// and ~/.local/share/pnpm is at the third; the gate found the link
// anyway (the store's file is judged protected).
func TestAttackRound9_pnpms_global_packages_hard_linked_from_its_store(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range r9hows {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			store := filepath.Join(w.home, ".local", "share", "pnpm", "store", "v3", "files", "3a", "c0ffee-exec")
			global := filepath.Join(w.home, ".local", "share", "pnpm", "global", "5", "node_modules", ".pnpm", "cowsay@1.6.0", "node_modules", "cowsay", "cli.js")
			writeFile(t, store, "#!/bin/sh\necho moo\n", 0o755)
			mustDo(t, os.MkdirAll(filepath.Dir(global), 0o755))
			mustDo(t, os.Link(store, global))
			reply := r9writeVia(t, w, how, store, "#!/bin/sh\ntouch PWNED9\n")
			r9log(t, reply)
			if r7holds(global, "PWNED9") {
				t.Errorf("pnpm's global cowsay (~/.local/share/pnpm/global/...) was written unasked through its name in pnpm's store:\n%s", reply)
			}
		})
	}
}

// ===================================================================
// 2. the PATH of the user's shells (gate/settings/shellpath.go)
// ===================================================================

// r9shellRow is one way the user's shell gets a relative PATH entry:
// the home's files, eukhe's environment, the plant a step makes, and
// how the user then types ls in sub (argv; tty: in a terminal).
type r9shellRow struct {
	name  string
	files map[string]string
	env   []string
	plant string
	tty   bool
	user  []string
}

// r9shellTry plants under each mechanism and reports what the user's
// shell in sub ran.
func r9shellTry(t *testing.T, row r9shellRow) {
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, r9ws)
			for rel, text := range row.files {
				writeFile(t, filepath.Join(w.home, rel), strings.ReplaceAll(text, "@HOME@", w.home), 0o644)
			}
			var env []string
			for _, e := range row.env {
				env = append(env, strings.ReplaceAll(e, "@HOME@", w.home))
			}
			reply := r9plantRow(t, w, mech, []string{row.plant}, env...)
			r9log(t, reply)
			var out string
			sub := filepath.Join(w.root, "sub")
			if row.tty {
				out = r9tty(w, sub, os.Getenv("PATH"), "ls /dev/null\nexit\n", row.user...)
			} else {
				cmd := exec.Command(row.user[0], row.user[1:]...)
				cmd.Dir = sub
				cmd.Env = append(append(os.Environ(), "HOME="+w.home, "PATH="+os.Getenv("PATH")), env...)
				b, _ := cmd.CombinedOutput()
				out = string(b)
			}
			if r9ran(out) {
				t.Errorf("the user's %s in sub ran %s, made by a step unasked (%s):\n%s\n%s", strings.Join(row.user, " "), row.plant, row.name, out, reply)
			}
		})
	}
}

// Held: SHELL=/bin/sh (dash) whose login ~/.profile sets ENV to ~/.shrc,
// which adds ./bin (bash reads ~/.profile but not ENV: only dash knows);
// the entry only in ~/.bash_login; the entry added by a function of
// ~/.bashrc; a ~/.bashrc that prints the marker and a PATH of its own
// first.
func TestAttackRound9_relative_PATH_entries_the_users_shells_make_are_known(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	rows := []r9shellRow{
		{name: "dash's ENV from ~/.profile", files: map[string]string{".profile": "ENV=$HOME/.shrc; export ENV\n", ".shrc": "PATH=./bin:$PATH\n"},
			env: []string{"SHELL=/bin/sh"}, plant: "sub/bin/ls", tty: true, user: []string{"sh", "-l"}},
		{name: "only ~/.bash_login", files: map[string]string{".bash_login": "export PATH=node_modules/.bin:$PATH\n"},
			plant: "sub/node_modules/.bin/ls", user: []string{"bash", "-lic", "ls /dev/null"}},
		{name: "a function of ~/.bashrc", files: map[string]string{".bashrc": "pathadd() { case \":$PATH:\" in *\":$1:\"*) ;; *) PATH=\"$1${PATH:+:$PATH}\";; esac; }\npathadd ./bin\n"},
			plant: "sub/bin/ls", user: []string{"bash", "-ic", "ls /dev/null"}},
		{name: "a ~/.bashrc that prints the marker first", files: map[string]string{".bashrc": "echo EUKHE-SHELL-PATH-7f3a; echo /usr/bin; echo EUKHE-SHELL-PATH-7f3a\nexport PATH=.:$PATH\n"},
			plant: "sub/ls", user: []string{"bash", "-ic", "ls /dev/null"}},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) { r9shellTry(t, row) })
	}
}

// A relative entry that names the home when eukhe asks the shell (it
// asks in the home): ~/.bashrc puts "." or node_modules/.bin first, and
// the shell then runs printenv from there. A step allowed outside plants
// ~/printenv or ~/node_modules/.bin/printenv: by printf and chmod, or
// copying, moving, installing or linking the project's executable script
// it rewrote; the next eukhe's start (and the user typing printenv at
// home) would run it unconfined. Held: chmod and a new directory there
// ask (protected), cp, mv, install and ln are refused (a step allowed
// outside does not run a program when the PATH has a relative entry).
func TestAttackRound9_a_plant_where_eukhe_asks_the_users_shell(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	make := "printf '#!/bin/sh\\ntouch @MARK@\\n' > sub/x && " // sub/x: the project's script, executable
	ways := map[string]string{
		"printf, chmod": "printf '#!/bin/sh\\ntouch @MARK@\\n' > @F@ && chmod +x @F@",
		"cp":            make + "cp sub/x @F@",
		"mv":            make + "mv sub/x @F@",
		"install":       make + "install -m755 sub/x @F@",
		"ln":            make + "ln sub/x @F@",
	}
	for entry, plant := range map[string]string{".": "printenv", "node_modules/.bin": "node_modules/.bin/printenv"} {
		for way, script := range ways {
			t.Run(entry+"/"+way, func(t *testing.T) {
				w := newEnvWorld(t, r7auto)
				mark := filepath.Join(w.base, "pwned")
				writeFile(t, filepath.Join(w.home, ".bashrc"), "export PATH="+entry+":$PATH\n", 0o644)
				writeFile(t, filepath.Join(w.root, "sub", "x"), "#!/bin/sh\necho build\n", 0o755)
				p := r3mcp(t, w, w.root, os.Getenv("PATH"))
				f := filepath.Join(w.home, plant)
				if filepath.Dir(f) != w.home {
					script = "mkdir -p " + shellQuote(filepath.Dir(f)) + " && " + script
				}
				script = strings.NewReplacer("@MARK@", mark, "@F@", shellQuote(f)).Replace(script)
				reply, _ := p.call("bash", map[string]any{"script": script})
				r9log(t, reply)
				r3mcp(t, w, w.root, os.Getenv("PATH"))
				if r3exists(mark) {
					t.Errorf("the next eukhe's start ran %s, planted by a step unasked:\n%s", f, reply)
				}
			})
		}
	}
}

// Startup cost: eukhe asks the shells before it answers; a ~/.bashrc that
// takes a second (sleep 1) must not hold initialize much longer, and one
// that takes longer than the bound (sleep 5) must not stop eukhe from
// starting. The times are logged (the report's numbers).
func TestAttackRound9_startup_with_a_slow_rc(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, rc := range []string{"", "sleep 1\n", "sleep 5\n"} {
		t.Run(strings.TrimSpace("rc "+rc), func(t *testing.T) {
			w := newEnvWorld(t, r9ws)
			if rc != "" {
				writeFile(t, filepath.Join(w.home, ".bashrc"), rc+"export PATH=./bin:$PATH\n", 0o644)
				writeFile(t, filepath.Join(w.home, ".profile"), ". ~/.bashrc\n", 0o644)
			}
			start := time.Now()
			p := startMCPUninitialized(t, w.withPath(os.Getenv("PATH")), w.root)
			p.initialize(nil)
			took := time.Since(start)
			t.Logf("initialize answered after %s", took.Round(time.Millisecond))
			if took > 12*time.Second {
				t.Errorf("eukhe mcp took %s to answer initialize", took)
			}
			reply, _ := p.call("bash", map[string]any{"script": "echo UP"})
			r9log(t, reply)
			if !strings.Contains(reply, "UP") {
				t.Errorf("eukhe mcp did not run a step:\n%s", reply)
			}
		})
	}
}

// ===================================================================
// controls
// ===================================================================

// r9work: with a ~/.bashrc that adds an absolute entry and sources a
// file, a Neovim configuration hard-linked from the user's dotfiles in
// the home, and ~/.config deep, normal work runs unasked under each
// mechanism, with outside and with the workspace only.
func r9work(t *testing.T) {
	needEdgeTools(t)
	r3need(t, "go")
	for auto, set := range map[string]string{"outside": r7auto, "workspace": r9ws} {
		for _, mech := range mechanisms {
			t.Run(auto+"/"+mech, func(t *testing.T) {
				w := newEnvWorld(t, set)
				for _, d := range []string{".cache", ".npm"} {
					mustDo(t, os.MkdirAll(filepath.Join(w.home, d), 0o755))
				}
				writeFile(t, filepath.Join(w.home, ".bashrc"), "export PATH=\"$HOME/.local/bin:$PATH\"\n[ -f ~/.config/shell/aliases.sh ] && . ~/.config/shell/aliases.sh\n", 0o644)
				writeFile(t, filepath.Join(w.home, ".config", "shell", "aliases.sh"), "alias ll='ls -l'\n", 0o644)
				writeFile(t, filepath.Join(w.home, "dotfiles", "nvim", "lua", "user", "init.lua"), "-- the user's\n", 0o644)
				mustDo(t, os.MkdirAll(filepath.Join(w.home, ".config", "nvim", "lua", "user"), 0o755))
				mustDo(t, os.Link(filepath.Join(w.home, "dotfiles", "nvim", "lua", "user", "init.lua"), filepath.Join(w.home, ".config", "nvim", "lua", "user", "init.lua")))
				writeFile(t, filepath.Join(w.root, "go.mod"), "module r9\n\ngo 1.21\n", 0o644)
				writeFile(t, filepath.Join(w.root, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\" + \"r9\") }\n", 0o644)
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech, "GOFLAGS=-mod=mod")
				for _, c := range []struct{ script, want string }{
					{"sed -i s/zeta/eta/ a.txt && cat a.txt", "eta"},
					{"GOCACHE=$PWD/sub/.gocache go build -o sub/app . && ./sub/app", "hellor9"}, // without outside the home is read-only: the cache in the workspace
					{"git status --short | head -3; echo GIT$((1+1))", "GIT2"},
					{r3py("print('PY' + 'OK')"), "PYOK"},
				} {
					text := r7wait(p, c.script)
					if !strings.Contains(text, c.want) || strings.Contains(text, "did not run") || strings.Contains(text, "not run:") {
						t.Errorf("%s: did not run unasked:\n%s", c.script, text)
					}
				}
			})
		}
	}
}

func TestAttackRound9_controls(t *testing.T) {
	t.Parallel()
	t.Run("sed -i, go build, git status, python3 with a home's rc, a deep hard-linked dotfile", r9work)
}

// The cost of the whole walk: a step allowed outside searches the home
// for each process it starts (the home is in its scopes, so the walk is
// not kept), a step with the workspace only keeps it a minute. Ten
// processes in a home of 150000 entries (under the bound) against a small
// home; logged (the report's numbers), asserted only to run.
func TestAttackRound9_cost_of_the_walk_per_process(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	if testing.Short() {
		t.Skip("makes 150000 files")
	}
	script := "for i in 1 2 3 4 5 6 7 8 9 10; do /bin/true; done; echo RAN$((5+5))"
	for _, size := range []int{0, 150000} {
		for auto, set := range map[string]string{"outside": r7auto, "workspace": r9ws} {
			t.Run(fmt.Sprintf("%d/%s", size, auto), func(t *testing.T) {
				w := r9worldAt(t, "tmpfs", set)
				if size > 0 {
					r9many(t, filepath.Join(w.home, ".config", "Code", "CachedData"), size)
				}
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT=bubblewrap")
				r7wait(p, "/bin/true")
				start := time.Now()
				reply := r7wait(p, script)
				t.Logf("ten processes, %d entries in the home's configuration, %s: %s", size, auto, time.Since(start).Round(time.Millisecond))
				if !strings.Contains(reply, "RAN10") {
					t.Errorf("did not run:\n%s", reply)
				}
			})
		}
	}
}

// Open when found (agent/shell/sandbox.go searched only the protected
// directories below the real home); fixed: the places of the home's
// configuration a link or a variable puts elsewhere are searched whole too.

// What: ~/.config is a link to another disk (/data/config: a dotfiles
// manager, a home on a small disk), and a file of it has a second name
// outside the home and the workspace (~/dotfiles elsewhere, a team's
// shared directory). A step allowed outside (not protected) writes that
// name by a program, under both mechanisms; the user's Neovim then loads
// it. (The shell's words and the write tool are asked; a step with the
// workspace only, writing a workspace name, is held.)
// Why: agent/shell/sandbox.go places: the home's covered entries are
// pl.Protected by their real paths (appendEntry resolves links), and the
// loop that chooses the tops of the search takes a directory only when
// it is below the real home ("case filepath.IsAbs(home) &&
// strings.HasPrefix(e.Path, realOf(home)+"/")"); /data/config is not, so
// it is never walked, its linked files are never wanted, none is
// Unfound, and the process runs with the other name writable. The
// branch that adds the covered places resolved (lookHomeDots' covered,
// EvalSymlinks) runs only when dots.covered is nil, i.e. not for a step
// allowed outside.
// Fix: in the tops loop, take every protected directory that a DotRule
// of the policy covers (x.policy.DotHomes(): the linkedDots and
// MovedHomes rules, whose Path is already the real place), not only those
// below the home; or run the resolved-covered branch for outside too.
func TestAttackRound9_a_dot_directory_that_is_a_link_elsewhere_with_a_file_linked_out(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) { r9linkedAway(t, mech, "outside", r9configLinked(t)) })
	}
}

// What: XDG_CONFIG_HOME moved out of the home (/data/xdg), a file of it
// with a second name outside; a step allowed outside writes that name by
// a program, under both mechanisms. (Words and the write tool: asked.)
// The same holds for another user's home the policy covers (~user: the
// home of the user database when HOME is not it): its configuration is
// not below HOME, so not searched for a step allowed outside.
// Why: the same loop (agent/shell/sandbox.go places): the MovedHomes
// DotRule's place is protected (pl.Protected) but not below the home, so
// not a top of the search.
// Fix: as above. Note, seen while tracing this row: with the workspace
// only, the same file's workspace name was written too, because the tops
// then include another home's configuration (the user database's home,
// holding two toolchains of over 120,000 entries each) and the walk ran
// out of its bound before the moved place: the bound rows below, met by
// an ordinary developer's home.
func TestAttackRound9_XDG_CONFIG_HOME_out_of_the_home_with_a_file_linked_out(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) { r9linkedAway(t, mech, "outside", r9xdgMoved(t)) })
	}
}

// Open when found (the home's walk shared the roots' bound of 200,000);
// held since the home's walk has a bound of its own (MaxHomeLinkWalk).

// What: the home's configuration past the walk's bound (200100 files in
// ~/.config/Code/CachedData, as VS Code's caches grow), a ranger plugin
// after them hard-linked into the workspace (a dotfiles repository); a
// step with the workspace only writes the workspace name by a program,
// under both mechanisms. (The shell's words and the write tool are asked:
// the gate's search past its bound says protected.)
// Why: agent/shell/sandbox.go places binds what the search found and
// refuses an incomplete search only for a step allowed outside
// ("if outside && (... || !found.Complete)"); gate.LinkCache.Search gives
// Complete false with the plugin never wanted.
// Fix: an incomplete search must refuse (or ask) for every step the
// sandbox binds links for, as the gate's ClassWrite does past its bound;
// or walk the roots first for files with more than one name (the
// workspace's are what can be written) and look each up by inode in the
// home's configuration, which needs no bound on the home.
func TestAttackRound9_a_home_configuration_past_the_bound_and_a_workspace_step(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	if testing.Short() {
		t.Skip("makes 200100 files")
	}
	w := r9worldAt(t, "tmpfs", r9ws)
	r9many(t, filepath.Join(w.home, ".config", "Code", "CachedData"), 200100)
	deep := filepath.Join(w.home, ".config", "ranger", "plugins", "r9.py")
	writeFile(t, deep, "-- the user's own\n", 0o644)
	name := filepath.Join(w.root, "dotfiles", "r9.lua")
	mustDo(t, os.MkdirAll(filepath.Dir(name), 0o755))
	mustDo(t, os.Link(deep, name))
	for _, how := range r9hows {
		t.Run(how, func(t *testing.T) {
			start := time.Now()
			reply := r9writeVia(t, w, how, name, "PWNED9\n")
			r9log(t, reply)
			t.Logf("%s: %s", how, time.Since(start).Round(time.Millisecond))
			if r7holds(deep, "PWNED9") {
				t.Errorf("~/.config/ranger/plugins/r9.py (past the bound) was written unasked through its workspace name:\n%s", reply)
			}
		})
	}
}

// Open when found (the shells were asked through pipes, interactive
// only); held since a shell is asked on a pseudo-terminal of its own,
// its commands typed, and a non-interactive bash too when BASH_ENV is set
// (gate/settings/shellpath_linux.go).

// What: ~/.bashrc returns early when its input is not a terminal
// ([ -t 0 ] || return, a guard for scp and rsync), then adds ./bin. A
// step with the workspace only plants sub/bin/ls; the user's bash in a
// terminal in sub runs it.
// Why: gate/settings/shellpath_unix.go askShellPath runs the shell in a
// session of its own with nothing on its input (no terminal), so the rc
// returns before the line; the entry is never known.
// Fix: ask the shell with a pseudo-terminal as its input and output
// (posix_openpt; the shell's own session), as a terminal would start it.
func TestAttackRound9_a_bashrc_that_returns_without_a_terminal(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	r9shellTry(t, r9shellRow{name: "a tty guard", files: map[string]string{".bashrc": "[ -t 0 ] || return\nexport PATH=./bin:$PATH\n"},
		plant: "sub/bin/ls", tty: true, user: []string{"bash", "-i"}})
}

// What: ~/.bashrc adds the entry in PROMPT_COMMAND (as prompt hooks do:
// direnv's, mise's, a "keep ./bin first" snippet), which bash runs
// before each prompt, not for -c. The user's bash in a terminal in sub
// runs the planted ls.
// Why: askShellPath runs "-i -c": the shell never shows a prompt, so no
// PROMPT_COMMAND (zsh's precmd, fish's fish_prompt) runs.
// Fix: in bash, run "$PROMPT_COMMAND" (eval each element of the array)
// before printing the PATH, as its first prompt would; zsh: the precmd
// functions; or ask through a pseudo-terminal and type the command at
// the prompt.
func TestAttackRound9_a_PATH_entry_made_before_each_prompt(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	r9shellTry(t, r9shellRow{name: "PROMPT_COMMAND", files: map[string]string{".bashrc": "PROMPT_COMMAND='case \":$PATH:\" in *:./bin:*) ;; *) PATH=\"./bin:$PATH\";; esac'\n"},
		plant: "sub/bin/ls", tty: true, user: []string{"bash", "-i"}})
}

// What: BASH_ENV (in the user's environment, so in eukhe's) names a file
// that adds ./bin: every non-interactive bash reads it (a Makefile's
// SHELL=bash recipes, `bash script.sh`). The user's `bash -c 'ls'` in sub
// runs the plant.
// Why: askShellPath asks interactive shells only ("-i -c", "-i -l -c"),
// which do not read BASH_ENV (nor sh's ENV when not interactive).
// Fix: also ask bash without -i when BASH_ENV is set (or read what
// `bash -c` prints), and sh with ENV likewise.
func TestAttackRound9_a_PATH_entry_of_BASH_ENV(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	r9shellTry(t, r9shellRow{name: "BASH_ENV", files: map[string]string{".bash_env": "export PATH=./bin:$PATH\n"},
		env: []string{"BASH_ENV=@HOME@/.bash_env"}, plant: "sub/bin/ls", user: []string{"bash", "-c", "ls /dev/null"}})
}

// What: ~/.bashrc takes longer than the bound (sleep 5: a network
// mount, a slow plugin manager) before adding ./bin. eukhe starts (after
// 3 s), but never knows the entry; the plant in sub/bin runs at the
// user's bash.
// Held (was open): a shell that does not answer in time has its startup
// files read, and the sourced ones (gate/settings/shellpath_scan.go):
// every relative entry they spell out is taken as one it adds.
func TestAttackRound9_a_bashrc_slower_than_the_bound(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	r9shellTry(t, r9shellRow{name: "sleep 5", files: map[string]string{".bashrc": "sleep 5\nexport PATH=./bin:$PATH\n"},
		plant: "sub/bin/ls", user: []string{"bash", "-ic", "ls /dev/null"}})
}

// What: ~/.config is a bind mount of a directory of a data disk
// (/etc/fstab: /data/config /home/me/.config none bind), so each of its
// files has a second path (/data/config/...) with one name: no hard
// link. A step allowed outside writes Neovim's module by that path: by
// the shell's words, the write tool and a program under each mechanism.
// Held (was open): the policy reads the mount table when it is made
// (gate/mounts.go): each secret entry and protected place has the other
// paths the table shows it at, and the sandbox's places follow the
// policy's.
func TestAttackRound9_a_dot_directory_bind_mounted_from_elsewhere(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	if os.Getuid() != 0 {
		t.Skip("needs root to bind-mount")
	}
	for _, how := range r9hows {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			data := filepath.Join(w.base, "data", "config")
			mustDo(t, os.MkdirAll(data, 0o755))
			mustDo(t, os.Rename(filepath.Join(w.home, ".config", "eukhe"), filepath.Join(data, "eukhe")))
			if out, err := exec.Command("mount", "--bind", data, filepath.Join(w.home, ".config")).CombinedOutput(); err != nil {
				t.Skipf("mount --bind: %v: %s", err, out)
			}
			t.Cleanup(func() { exec.Command("umount", "-l", filepath.Join(w.home, ".config")).Run() })
			writeFile(t, filepath.Join(data, "nvim", "lua", "user", "r9.lua"), "-- the user's own\n", 0o644)
			reply := r9writeVia(t, w, how, filepath.Join(data, "nvim", "lua", "user", "r9.lua"), "PWNED9\n")
			r9log(t, reply)
			if r7holds(filepath.Join(w.home, ".config", "nvim", "lua", "user", "r9.lua"), "PWNED9") {
				t.Errorf("~/.config/nvim/lua/user/r9.lua was written unasked by its other path under a bind mount:\n%s", reply)
			}
		})
	}
}

// Held (was open): a walk of fewer than keepWalkFloor entries is not kept, and a kept one is walked again when a workspace file with a name outside changed after it began (gate/links_strangers.go).
// What: a file of the home's configuration gets a second name in the
// workspace, made by the user (a dotfiles repository's install script,
// stow, in another terminal) within the minute after a process of the
// session made the walk; a later process of a step with the workspace
// only writes that name, under both mechanisms. (A step allowed outside
// was held when found: its scopes held the home, so the home's walk was
// not kept; since the walk is kept by the workspace roots, at 1.1 s a
// process in a large home, it is open for such a step too.)
// Why: gate/links_tops.go walkTop keeps a walk of a place outside the
// scopes for topsFresh and checks only the files it found with more than
// one name (stillNamed); a file that had one name is not among them, so
// its new name changes nothing the check looks at, the file is never
// wanted, and the sandbox (agent/shell/sandbox.go places) binds nothing
// for it. The doc names the window and argues only the user can open it:
// the user opened it, and the agent's step wrote through it.
// Fix: validate the kept walk by something a new link changes: an
// inotify watch on the walked directories (IN_ATTRIB reports a change of
// a file's link count), dropping the walk at any event; or keep every
// regular file's (dev, ino, nlink) and re-stat them (no readdir).
func TestAttacks9_a_link_the_user_makes_within_the_minute_the_walk_is_kept(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, r9ws)
			deep := filepath.Join(w.home, ".config", "nvim", "lua", "user", "r9.lua")
			out := filepath.Join(w.root, "dotfiles", "r9.lua")
			writeFile(t, deep, "-- the user's own\n", 0o644)
			mustDo(t, os.MkdirAll(filepath.Dir(out), 0o755))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			// the first process makes the walk; the user links while the
			// script sleeps; the second process writes the new name
			linked := make(chan error, 1)
			go func() {
				time.Sleep(1500 * time.Millisecond)
				linked <- os.Link(deep, out)
			}()
			reply, _ := p.call("bash", map[string]any{"script": r3py("print('FIRST' + 'RAN')") + "; sleep 4; " + r3py("import os\n"+r7append(out, "PWNED9\n"))})
			r9log(t, reply)
			mustDo(t, <-linked)
			if os.Getenv("R9DEBUG") != "" {
				b, _ := exec.Command("find", w.base, "-type", "f", "-links", "+1").CombinedOutput()
				t.Logf("files with other names:\n%s", b)
			}
			if !strings.Contains(reply, "FIRSTRAN") {
				t.Fatalf("the first process did not run:\n%s", reply)
			}
			if r7holds(deep, "PWNED9") {
				t.Errorf("~/.config/nvim/lua/user/r9.lua was written unasked through %s, linked by the user within the minute:\n%s", out, reply)
			}
		})
	}
}
