package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The seventh red team (after the fixes of the sixth), through the real
// binary. Each TestAttackRound7_<what> is an attack that got through when
// it was written: it fails until the product is fixed. The attacks that
// held are the rows of TestAttackRound7_controls, which must pass, with
// the normal work that must keep running unasked. What counts as getting
// through is what the third round's file says: a secret's bytes reach a
// step, or a program is planted where it runs without the user's yes —
// shown by running it as the user would, in the test process,
// unconfined, or, where no tool here runs it, by the plant landing in a
// place eukhe itself names as one a program runs from.

// r7auto is the auto set of the attacks on the home: everything but
// protected (and secret, never granted).
const r7auto = `["read", "write", "exec", "outside"]`

// r7append is a python statement that appends text to the file at p
// (made with its directories when missing) and says so, or says why not.
func r7append(p, text string) string {
	return fmt.Sprintf("try:\n  os.makedirs(os.path.dirname(%q), exist_ok=True); open(%q, 'a').write(%q); print('WROTE', %q)\n"+
		"except OSError as e: print('REFUSED', %q, e)\n", p, p, text, p, p)
}

// r7holds reports whether the file at p holds s.
func r7holds(p, s string) bool {
	b, err := os.ReadFile(p)
	return err == nil && strings.Contains(string(b), s)
}

// ===================================================================
// 1. caches that hold code (HomeWritable, HomeNeverWritable)
// ===================================================================

// r7pnpmSetup is what `pnpm setup` appends to ~/.bashrc: PNPM_HOME
// (~/.local/share/pnpm, where `pnpm add -g` puts its programs) first on
// PATH in every interactive bash.
const r7pnpmSetup = `# pnpm
export PNPM_HOME="@HOME@/.local/share/pnpm"
case ":$PATH:" in
  *":$PNPM_HOME:"*) ;;
  *) export PATH="$PNPM_HOME:$PATH" ;;
esac
# pnpm end
`

// ~/.local/share/pnpm is in gate.HomeWritable as a cache, but it is
// pnpm's home: `pnpm setup` puts it first on PATH in ~/.bashrc, and the
// programs `pnpm add -g` installs live directly in it (the store is only
// its store/ below). An agent whose own PATH lacks it (started by the
// editor, or before the user ran pnpm setup) makes ~/.local/share/pnpm/ls
// unasked — by the shell's words and by a program — and the user's next
// interactive bash runs it for ls. Root cause: gate/policy.go HomeWritable
// lists ".local/share/pnpm" whole (the DotRule passes it over, and
// lookHomeDots leaves it writable); it is a PATH directory of the user's
// shell, not a cache.
func TestAttackRound7_pnpm_home_the_users_bashrc_puts_first_on_PATH_is_a_cache(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range []string{"words", "bubblewrap", "landlock"} {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			writeFile(t, filepath.Join(w.home, ".bashrc"), strings.ReplaceAll(r7pnpmSetup, "@HOME@", w.home), 0o644)
			writeFile(t, filepath.Join(w.home, ".local", "share", "pnpm", "store", "v3", "files", "00", "x"), "x\n", 0o644)
			var more []string
			script := "mkdir -p ~/.local/share/pnpm && printf '%s' " + shellQuote(planted) + " > ~/.local/share/pnpm/ls && chmod +x ~/.local/share/pnpm/ls"
			if how != "words" {
				more = append(more, "EUKHE_CONFINEMENT="+how)
				script = r3py("import os\n" + r6plant(filepath.Join(w.home, ".local", "share", "pnpm", "ls")))
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
			text, _ := p.call("bash", map[string]any{"script": script})
			out := r6user(w, w.root, os.Getenv("PATH"), "bash", "-ic", "ls /dev/null")
			if os.Getenv("R7DEBUG") != "" {
				t.Logf("%s\n%s", text, out)
			}
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's interactive bash ran ~/.local/share/pnpm/ls (PNPM_HOME, first on PATH by pnpm setup), made by a step unasked: %s\n%s", out, text)
			}
		})
	}
}

// The places of gate.HomeNeverWritable are prefixes of a path below the
// home as named; the DotRule matches the real path. A home whose ~/.cache
// is a link to a bigger disk (a common setup: ~/.cache -> /var/tmp/me or
// /scratch/me/cache) has its powerlevel10k instant prompt, its pre-commit
// environments and gitstatus's daemon at a real path outside the home:
// only outside. The shell's words append to the instant prompt (sourced
// by every zsh) and to a pre-commit hook environment's program unasked.
// Root cause: gate/policy.go DotCovers and the DotRule (Policy.protects)
// judge the resolved path, and a cache directory that is a link leaves
// the home; HomeNeverWritable is never checked at the link's target.
func TestAttackRound7_a_cache_directory_that_is_a_link_leaves_its_code_places_uncovered(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range []string{"words", "bubblewrap", "landlock"} {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			disk := filepath.Join(w.base, "disk", "cache")
			prompt := filepath.Join(disk, "p10k-instant-prompt-me.zsh")
			hook := filepath.Join(disk, "pre-commit", "repo0abc", "py_env-python3", "bin", "black")
			writeFile(t, prompt, "# the instant prompt p10k wrote\n", 0o644)
			writeFile(t, hook, "#!/bin/sh\n# black\n", 0o755)
			mustDo(t, os.Symlink(disk, filepath.Join(w.home, ".cache")))
			var more []string
			script := "echo 'touch PWNED7' >> ~/.cache/p10k-instant-prompt-me.zsh; echo 'touch PWNED7' >> ~/.cache/pre-commit/repo0abc/py_env-python3/bin/black"
			if how != "words" {
				more = append(more, "EUKHE_CONFINEMENT="+how)
				script = r3py("import os\nh = os.path.expanduser('~')\n" +
					r7append(filepath.Join(w.home, ".cache", "p10k-instant-prompt-me.zsh"), "touch PWNED7\n") +
					r7append(filepath.Join(w.home, ".cache", "pre-commit", "repo0abc", "py_env-python3", "bin", "black"), "touch PWNED7\n"))
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
			text, _ := p.call("bash", map[string]any{"script": script})
			for _, f := range []string{prompt, hook} {
				if r7holds(f, "PWNED7") {
					t.Errorf("%s (a place eukhe keeps covered in a cache: ~/.cache a link to it) was written unasked:\n%s", f, text)
				}
			}
		})
	}
}

// XDG_CACHE_HOME moves the caches, and with them powerlevel10k's instant
// prompt (${XDG_CACHE_HOME:-~/.cache}/p10k-instant-prompt-*.zsh),
// pre-commit's environments ($XDG_CACHE_HOME/pre-commit, or
// PRE_COMMIT_HOME) and gitstatus's daemon — the places the sixth fix keeps
// covered. gate.MovedHomes has no XDG_CACHE_HOME (nor PRE_COMMIT_HOME),
// so at a moved cache these are only outside: written unasked by words
// and by a program. Root cause: gate/places.go MovedHomes lacks the cache
// variables, and HomeNeverWritable is relative to the home only.
func TestAttackRound7_a_moved_cache_home_leaves_its_code_places_uncovered(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range []string{"words", "bubblewrap", "landlock"} {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			xc, pc := filepath.Join(w.base, "xdg-cache"), filepath.Join(w.base, "pre-commit-home")
			targets := []string{
				filepath.Join(xc, "p10k-instant-prompt-me.zsh"),
				filepath.Join(xc, "gitstatus", "gitstatusd-linux-x86_64"),
				filepath.Join(pc, "repo0abc", "py_env-python3", "bin", "black"),
			}
			for _, f := range targets {
				writeFile(t, f, "# the tool's own\n", 0o755)
			}
			var more []string
			var words []string
			for _, f := range targets {
				words = append(words, "echo 'touch PWNED7' >> "+shellQuote(f))
			}
			script := strings.Join(words, "; ")
			if how != "words" {
				more = append(more, "EUKHE_CONFINEMENT="+how)
				code := "import os\n"
				for _, f := range targets {
					code += r7append(f, "touch PWNED7\n")
				}
				script = r3py(code)
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), append(more, "XDG_CACHE_HOME="+xc, "PRE_COMMIT_HOME="+pc)...)
			text, _ := p.call("bash", map[string]any{"script": script})
			for _, f := range targets {
				if r7holds(f, "PWNED7") {
					t.Errorf("%s (a code place of a cache moved by XDG_CACHE_HOME or PRE_COMMIT_HOME) was written unasked:\n%s", f, text)
				}
			}
		})
	}
}

// HomeNeverWritable names three places in ~/.cache a shell or git runs
// code from; there are more, each read by the user's shell at every start
// with no yes: oh-my-posh's init script (`eval "$(oh-my-posh init bash)"`
// prints a `source ~/.cache/oh-my-posh/init.<hash>.sh`), ble.sh's
// generated keymaps and terminal code (~/.cache/blesh/<version>/),
// antidote's plugin clones (its home is ~/.cache/antidote; the static
// ~/.zsh_plugins.zsh sources them), prezto's completion dump
// (~/.cache/prezto/zcompdump, which compinit sources), sbt's launcher
// jars (~/.sbt/boot, what the sbt script runs: the Gradle wrapper's
// dists, by the sixth fix's own reasoning), Gradle's native libraries
// (~/.gradle/native, loaded by every Gradle JVM), and mise's list of
// trusted configs (~/.local/state/mise/trusted-configs: a project's
// mise.toml trusted there runs its hooks and env scripts at every cd and
// prompt of a shell with mise activated). The words write each unasked;
// the user's bash runs oh-my-posh's. Root cause: gate/policy.go
// HomeNeverWritable is a list of three names (and HomeWritable holds
// .sbt/boot, .gradle/native and .local/state whole), not what actually
// holds code.
func TestAttackRound7_other_caches_a_shell_sources_at_every_start_are_written_unasked(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, r7auto)
	mark := filepath.Join(w.base, "pwned")
	initSh := filepath.Join(w.home, ".cache", "oh-my-posh", "init.5f3a9e.sh")
	writeFile(t, initSh, "# oh-my-posh's prompt code\n", 0o644)
	writeFile(t, filepath.Join(w.home, ".bashrc"), "source "+shellQuote(initSh)+"\n", 0o644)
	targets := []string{initSh,
		filepath.Join(w.home, ".cache", "blesh", "0.4", "decode.bind.xterm.bind"),
		filepath.Join(w.home, ".cache", "antidote", "https-COLON--SLASH--SLASH-github.com-SLASH-zsh-users-SLASH-zsh-autosuggestions", "zsh-autosuggestions.zsh"),
		filepath.Join(w.home, ".cache", "prezto", "zcompdump"),
		filepath.Join(w.home, ".sbt", "boot", "scala-2.12.20", "org.scala-sbt", "sbt", "1.10.7", "main_2.12-1.10.7.jar"),
		filepath.Join(w.home, ".gradle", "native", "0.22-milestone-26", "linux-amd64", "libnative-platform.so"),
		filepath.Join(w.home, ".local", "state", "mise", "trusted-configs", "proj-mise.toml-0123abcd"),
	}
	var words []string
	for _, f := range targets {
		words = append(words, "mkdir -p "+shellQuote(filepath.Dir(f))+" && echo "+shellQuote("touch "+mark)+" >> "+shellQuote(f))
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	text, _ := p.call("bash", map[string]any{"script": strings.Join(words, "; ")})
	for _, f := range targets {
		if r7holds(f, mark) {
			t.Errorf("%s (code a shell or launcher runs by itself, in a cache) was written unasked", f)
		}
	}
	r6user(w, w.root, os.Getenv("PATH"), "bash", "-ic", "true")
	if r3exists(mark) {
		t.Errorf("the user's interactive bash ran what a step appended to oh-my-posh's init script in ~/.cache:\n%s", text)
	}
}

// Nix with use-xdg-base-directories keeps the user's profile link in
// ~/.local/state/nix (profile -> profiles/profile -> /nix/store/…), and
// nix.sh puts ~/.local/state/nix/profile/bin first on PATH. ~/.local/state
// is a cache place: a step's program swaps the link for one to a
// directory it made (the words are asked), and the user's ls runs its
// plant. The gate asks for the words (the link is above a protected
// entry: Policy.protects' entries), but the sandbox protects the PATH
// directory at its written and real paths only: the links on the way
// (profiles/profile, in a cache place) stay writable. Root cause:
// gate/policy.go HomeWritable holds ".local/state" whole, and
// agent/shell/sandbox.go places (lookPlaces, confine.Plan) neither makes
// read-only nor looks again at the links on the way to a PATH directory.
func TestAttackRound7_a_PATH_directory_reached_through_a_link_in_a_cache_place_is_swapped(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			store := filepath.Join(w.base, "nix", "store", "abc-user-environment")
			writeFile(t, filepath.Join(store, "bin", "hello"), "#!/bin/sh\necho hello\n", 0o755)
			state := filepath.Join(w.home, ".local", "state", "nix")
			mustDo(t, os.MkdirAll(filepath.Join(state, "profiles"), 0o755))
			mustDo(t, os.Symlink(store, filepath.Join(state, "profiles", "profile-1-link")))
			mustDo(t, os.Symlink("profile-1-link", filepath.Join(state, "profiles", "profile")))
			mustDo(t, os.Symlink(filepath.Join(state, "profiles", "profile"), filepath.Join(state, "profile")))
			path := filepath.Join(state, "profile", "bin") + ":" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py("import os\n" +
				r6plant(filepath.Join(w.root, "sub", "env", "bin", "ls")) +
				"os.symlink(" + fmt.Sprintf("%q", filepath.Join(w.root, "sub", "env")) + ", " + fmt.Sprintf("%q", filepath.Join(state, "profiles", "profile-2-link")) + ")\n" +
				"os.symlink('profile-2-link', " + fmt.Sprintf("%q", filepath.Join(state, "profiles", "new")) + ")\n" +
				"os.replace(" + fmt.Sprintf("%q", filepath.Join(state, "profiles", "new")) + ", " + fmt.Sprintf("%q", filepath.Join(state, "profiles", "profile")) + ")\n" +
				"print('SWAPPED')\n")})
			out := r6user(w, w.root, path, "sh", "-c", "ls /dev/null")
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's ls ran a program a step reached through the Nix profile link it swapped in ~/.local/state (a PATH directory's link): %s\n%s", out, text)
			}
		})
	}
}

// gate.MovedHomes names the variables that move a part of the home's
// configuration; others name a config file whose settings run programs,
// kept (by dotfiles managers) at a path that is no dot-entry of the home:
// ripgrep's (RIPGREP_CONFIG_PATH: a line --pre=sh makes every rg run each
// file it searches as a shell script), Go's (GOENV: GOFLAGS=-toolexec=…
// runs a program at every go build), starship's (STARSHIP_CONFIG: a
// [custom] module's command runs at every prompt). A step allowed outside
// appends to each unasked, by words and by a program; the user's rg in the
// project then runs a file the agent wrote there. Root cause:
// gate/places.go MovedHomes (and so Places.Rules) lists no variable that
// names such a file.
func TestAttackRound7_config_files_the_environment_names_outside_MovedHomes_are_written_unasked(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	r3need(t, "rg")
	for _, how := range []string{"words", "bubblewrap", "landlock"} {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			mark := filepath.Join(w.base, "pwned")
			dot := filepath.Join(w.home, "dotfiles")
			files := map[string][2]string{
				"RIPGREP_CONFIG_PATH": {filepath.Join(dot, "ripgreprc"), "--pre=sh\n"},
				"GOENV":               {filepath.Join(dot, "go.env"), "GOFLAGS=-toolexec=" + filepath.Join(w.root, "sub", "tx") + "\n"},
				"STARSHIP_CONFIG":     {filepath.Join(dot, "starship.toml"), "[custom.x]\ncommand = 'touch " + mark + "'\nwhen = true\n"},
			}
			var more, words []string
			code := "import os\n"
			for k, f := range files {
				writeFile(t, f[0], "# the user's\n", 0o644)
				more = append(more, k+"="+f[0])
				words = append(words, "printf "+shellQuote(f[1])+" >> "+shellQuote(f[0]))
				code += r7append(f[0], f[1])
			}
			writeFile(t, filepath.Join(w.root, "sub", "notes.txt"), "touch "+mark+"\n", 0o644)
			script := strings.Join(words, "; ")
			if how != "words" {
				more = append(more, "EUKHE_CONFINEMENT="+how)
				script = r3py(code)
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
			text, _ := p.call("bash", map[string]any{"script": script})
			for k, f := range files {
				if b, _ := os.ReadFile(f[0]); strings.Contains(string(b), f[1]) {
					t.Errorf("%s (named by %s: its settings run programs) was written unasked", f[0], k)
				}
			}
			cmd := r6user(w, w.root, os.Getenv("PATH"), "env", "RIPGREP_CONFIG_PATH="+files["RIPGREP_CONFIG_PATH"][0], "rg", "-q", "zzz", "sub")
			if r3exists(mark) {
				t.Errorf("the user's rg (RIPGREP_CONFIG_PATH) ran a file of the project as a shell script, by a --pre a step added unasked: %s\n%s", cmd, text)
			}
		})
	}
}

// The interpreter expands ~user from the user database, and the gate
// takes the other homes it names (Places.OtherHomes) for their
// credential stores only: their startup files and dot-directories are not
// the home's configuration. When HOME is not the user's home in the user
// database (an agent client that sets HOME, a container, sudo -E, a
// shared account's home the user may write), ~<user>/.bashrc and
// ~<user>/.config/… are only outside. Judged through the binary's check
// (the row writes nothing): root's home here, root being the user the
// tests run as. Root cause: gate/places.go Places.Rules adds HomeProtected
// and the DotRule for Home only, never for OtherHomes.
func TestAttackRound7_the_users_home_by_its_user_name_is_only_outside(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, r7auto)
	u := os.Getenv("USER")
	if u == "" {
		u = "root"
	}
	for _, script := range []string{"echo 'touch /tmp/x' >> ~" + u + "/.bashrc", "mkdir -p ~" + u + "/.config/autostart && echo x > ~" + u + "/.config/autostart/x.desktop",
		"echo x > ~" + u + "/.local/share/nvim/site/plugin/x.lua"} {
		cmd := exec.Command(binary, "check", script)
		cmd.Dir, cmd.Env = w.root, w.withPath(os.Getenv("PATH"))
		out, _ := cmd.CombinedOutput()
		if !strings.Contains(string(out), "asks") {
			t.Errorf("%s runs unasked (a startup file of the home named by the user's name):\n%s", script, out)
		}
	}
}

// shell.writableDirs are "the user's, never covered": lookHomeDots
// passes over everything at or below one before it asks DotCovers. A user
// who names ~/.cache there (so that builds write their caches under the
// careful preset, read, write and exec) leaves powerlevel10k's instant
// prompt, pre-commit's environments and gitstatus's daemon — the places
// the sixth fix keeps covered in ~/.cache — writable to every program of
// a step, unasked. Root cause: agent/shell/home_dots.go look (and newIn)
// test h.isWritable(p) before gate.HomeNeverWritable, and
// confine.Plan makes the whole of a writable directory writable.
func TestAttackRound7_a_writable_cache_directory_uncovers_the_code_places_in_it(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			writeFile(t, filepath.Join(w.home, ".config", "eukhe", "settings.json"),
				`{"shell.autoEffects": ["read", "write", "exec"], "shell.writableDirs": ["~/.cache"]}`, 0o644)
			targets := []string{
				filepath.Join(w.home, ".cache", "p10k-instant-prompt-me.zsh"),
				filepath.Join(w.home, ".cache", "pre-commit", "repo0abc", "py_env-python3", "bin", "black"),
				filepath.Join(w.home, ".cache", "gitstatus", "gitstatusd-linux-x86_64"),
			}
			for _, f := range targets {
				writeFile(t, f, "# the tool's own\n", 0o755)
			}
			code := "import os\n"
			for _, f := range targets {
				code += r7append(f, "touch PWNED7\n")
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(code)})
			for _, f := range targets {
				if r7holds(f, "PWNED7") {
					t.Errorf("%s (kept covered in ~/.cache, ~/.cache in shell.writableDirs) was written by a step's program unasked:\n%s", f, text)
				}
			}
		})
	}
}

// The sixth fix protects ~/bin because Debian's ~/.profile puts it on
// PATH once it exists; Go puts what `go install` builds in ~/go/bin
// (GOPATH/bin), which this project's own README has the user add to PATH
// in their shell's rc file, and where editors' Go support finds gopls
// first. An agent whose PATH lacks it (started by an editor, or before the
// rc file's line) writes ~/go/bin/gopls over the user's unasked, by words
// and by a program: the user's next gopls (or the editor's) runs it.
// Root cause: gate/places.go HomeProtected names "bin" but not the other
// PATH directories of the home that are no dot-entry (go/bin; also
// perl5/bin of local::lib), and a PATH directory is protected only when
// it is on eukhe's own PATH.
func TestAttackRound7_go_bin_of_the_home_is_only_outside(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range []string{"words", "bubblewrap", "landlock"} {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			gopls := filepath.Join(w.home, "go", "bin", "gopls")
			writeFile(t, gopls, "#!/bin/sh\necho the real gopls\n", 0o755)
			var more []string
			script := "printf '%s' " + shellQuote(planted) + " > ~/go/bin/gopls"
			if how != "words" {
				more = append(more, "EUKHE_CONFINEMENT="+how)
				script = r3py("import os\n" + r6plant(gopls))
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
			text, _ := p.call("bash", map[string]any{"script": script})
			out := r6user(w, w.root, os.Getenv("PATH")+":"+filepath.Join(w.home, "go", "bin"), "sh", "-c", "gopls version")
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's gopls (~/go/bin on their PATH, as the README has it) ran what a step wrote there unasked: %s\n%s", out, text)
			}
		})
	}
}

// ===================================================================
// 2. covered entries a process makes (home_dots.go)
// ===================================================================

// Held: homeDots.made compares a listed directory's names now with its
// names then, by path: a process that renames the directory away (it is not
// covered itself when it holds a cache: ~/.cargo holds registry, ~/.local
// holds state, ~/.cache holds p10k-*) and makes a new one at its path
// with an entry of a name the old one had is not seen to have made it —
// the name was "before". The covered entry's read-only mount moved away
// with the old directory. Each row does it with a program, as rustup's,
// Debian's, Neovim's and powerlevel10k's files show:
//   - ~/.cargo/env, which rustup's lines in ~/.bashrc source;
//   - ~/.local/bin/ls, which Debian's ~/.profile puts first on PATH;
//   - ~/.local/share/nvim/site/plugin/x.lua, which Neovim loads;
//   - ~/.cache/p10k-instant-prompt-me.zsh, which zsh sources.
//
// It held: the covered entries are looked at again as places
// (lookPlaces: one that is not the file it was is renamed out of use),
// and the directory renamed away is renamed too; under Landlock the
// rename is refused.
func r7renamedAwayAll(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		for _, row := range []string{"cargo env", "local bin", "local share nvim", "cache p10k"} {
			t.Run(mech+" "+row, func(t *testing.T) { r7renamedAway(t, mech, row) })
		}
	}
}

// r7swap is a python program that renames dir to dir.old, makes dir
// again, moves every entry back but keep, and writes text at dir/keep
// (its directories made).
func r7swap(dir, keep, text string) string {
	return "import os\n" +
		fmt.Sprintf("d, keep, text = %q, %q, %q\n", dir, keep, text) +
		"os.rename(d, d + '.old')\nos.makedirs(d)\n" +
		"top = keep.split('/')[0]\n" +
		"for n in os.listdir(d + '.old'):\n" +
		"  if n == top: continue\n" +
		"  try: os.rename(d + '.old/' + n, d + '/' + n)\n" +
		"  except OSError as e: print('LEFT', n, e)\n" +
		"p = d + '/' + keep\nos.makedirs(os.path.dirname(p), exist_ok=True)\n" +
		"open(p, 'w').write(text); os.chmod(p, 0o755)\nprint('PLANTED', p, sorted(os.listdir(d)))\n"
}

func r7renamedAway(t *testing.T, mech, row string) {
	w := newEnvWorld(t, r7auto)
	mark := filepath.Join(w.base, "pwned")
	more := []string{"EUKHE_CONFINEMENT=" + mech, "XDG_STATE_HOME=" + filepath.Join(w.base, "state")}
	var script string
	check := func(text string) {}
	switch row {
	case "cargo env":
		writeFile(t, filepath.Join(w.home, ".cargo", "env"), "export PATH=\"$HOME/.cargo/bin:$PATH\"\n", 0o644)
		writeFile(t, filepath.Join(w.home, ".cargo", "registry", "index", "x"), "x\n", 0o644)
		mustDo(t, os.MkdirAll(filepath.Join(w.home, ".cargo", "bin"), 0o755))
		writeFile(t, filepath.Join(w.home, ".bashrc"), ". \"$HOME/.cargo/env\"\n", 0o644)
		script = r7swap(filepath.Join(w.home, ".cargo"), "env", "export PATH=\"$HOME/.cargo/bin:$PATH\"\ntouch "+mark+"\n")
		check = func(text string) {
			r6user(w, w.root, os.Getenv("PATH"), "bash", "-ic", "true")
			if r3exists(mark) {
				t.Errorf("the user's bash ran ~/.cargo/env, written by a step's program in a ~/.cargo it made again after renaming the old one away:\n%s", text)
			}
		}
	case "local bin":
		writeFile(t, filepath.Join(w.home, ".profile"), r6debianProfile, 0o644)
		writeFile(t, filepath.Join(w.home, ".local", "bin", "mytool"), "#!/bin/sh\n", 0o755)
		writeFile(t, filepath.Join(w.home, ".local", "state", "x"), "x\n", 0o644)
		script = r7swap(filepath.Join(w.home, ".local"), "bin/ls", planted)
		check = func(text string) {
			if out := r6user(w, w.root, os.Getenv("PATH"), "bash", "-lc", "ls /dev/null"); strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's login shell ran ~/.local/bin/ls, made by a step's program in a ~/.local it made again: %s\n%s", out, text)
			}
		}
	case "local share nvim":
		writeFile(t, filepath.Join(w.home, ".local", "share", "nvim", "site", "README"), "x\n", 0o644)
		writeFile(t, filepath.Join(w.home, ".local", "share", "pnpm", "x"), "x\n", 0o644)
		script = r7swap(filepath.Join(w.home, ".local", "share"), "nvim/site/plugin/x.lua", "os.execute('touch "+mark+"')\n")
		check = func(text string) {
			r3need(t, "nvim")
			r6user(w, w.root, os.Getenv("PATH"), "nvim", "--headless", "+qa")
			if r3exists(mark) {
				t.Errorf("the user's nvim ran a plugin a step's program made in a ~/.local/share it made again:\n%s", text)
			}
		}
	case "cache p10k":
		prompt := filepath.Join(w.home, ".cache", "p10k-instant-prompt-me.zsh")
		writeFile(t, prompt, "# p10k's own\n", 0o644)
		writeFile(t, filepath.Join(w.home, ".cache", "go-build", "x"), "x\n", 0o644)
		script = r7swap(filepath.Join(w.home, ".cache"), "p10k-instant-prompt-me.zsh", "touch "+mark+"\n")
		check = func(text string) {
			if r7holds(prompt, mark) {
				t.Errorf("~/.cache/p10k-instant-prompt-me.zsh (covered) holds a step's program's plant, made in a ~/.cache it made again:\n%s", text)
			}
		}
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
	text, _ := p.call("bash", map[string]any{"script": r3py(script)})
	if os.Getenv("R7DEBUG") != "" {
		t.Logf("%s", text)
	}
	check(text)
}

// ===================================================================
// 3. links out of the roots (protected_tree.go newLink, repositoryBelow)
// ===================================================================

// leadsToRepository looks at a link's target, its ancestors and the
// directories below it — but repositoryBelow passes over every link
// below the target (readDir's IsDir is false for a link), and the
// user's git follows them. A step makes, in its temporary directory
// (kept for the session, outside the roots), a directory holding a link
// to a repository, and links the workspace to that directory:
//   - "link to a repository": top/r -> ../hidden/r;
//   - "link into a repository": top/x -> ../hidden/r/src (git finds the
//     repository above the link's target);
//   - "dangling, made later": top/r -> ../later, and a later step makes
//     the repository there (the kept link is looked at again the same way).
//
// The user's git status in sub/deep/<name> runs the repository's
// fsmonitor. Root cause: agent/shell/protected_tree.go repositoryBelow
// (and so leadsToRepository, and the refresh of outLinks) follows no link
// below the target.
func TestAttackRound7_a_link_below_a_linked_directory_leads_to_a_repository(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		for _, row := range []string{"link to a repository", "link into a repository", "dangling, made later"} {
			t.Run(mech+" "+row, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec"]`)
				mark := filepath.Join(w.base, "pwned")
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				repo := func(at string) string {
					return "s.run(['git', 'init', '-q', t + '/" + at + "'])\n" +
						"s.run(['git', '-C', t + '/" + at + "', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n"
				}
				var code, later, name string
				switch row {
				case "link to a repository":
					code, name = repo("hidden/r")+"os.makedirs(t + '/top')\nos.symlink('../hidden/r', t + '/top/r')\n", "r"
				case "link into a repository":
					code, name = repo("hidden/r")+"os.makedirs(t + '/hidden/r/src')\nos.makedirs(t + '/top')\nos.symlink('../hidden/r/src', t + '/top/x')\n", "x"
				case "dangling, made later":
					code, name = "os.makedirs(t + '/top')\nos.symlink('../later', t + '/top/r')\n", "r"
					later = repo("later")
				}
				t1, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() + code + "os.symlink(host + '/top', 'sub/deep')\nprint('LINKED', host)\n")})
				t2 := ""
				if later != "" {
					t2, _ = p.call("bash", map[string]any{"script": r3py(r5hostTmp() + later + "print('MADE')\n")})
				}
				if os.Getenv("R7DEBUG") != "" {
					t.Logf("%s\n%s", t1, t2)
				}
				r3gitTry(w.home, filepath.Join(w.root, "sub", "deep", name), "status", "--short")
				if r3exists(mark) {
					t.Errorf("%s: the user's git status in sub/deep/%s (sub/deep a step's link to a directory outside whose entry is a link) ran the fsmonitor of a repository a step made:\n%s\n%s", row, name, t1, t2)
				}
			})
		}
	}
}

// Held: renamedOut: a link eukhe renamed out of use, under a name holding
// ".eukhe-refused-", is not judged again while it is the same file. A
// later step renames it (same inode) to another such name, or hard-links
// it there: newLink passes it over, and the link to the repository is in
// use again under a name the step chose (sub/lib.eukhe-refused-x, which a
// scan for repositories below the workspace opens as any other). The
// user's git status in it would run the fsmonitor. It held: the link
// under its new name is renamed out of use again.
func r7refusedLinkRenamed(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		for _, how := range []string{"rename", "link"} {
			t.Run(mech+" "+how, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec"]`)
				mark := filepath.Join(w.base, "pwned")
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				t1, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
					"s.run(['git', 'init', '-q', t + '/r'])\n" +
					"s.run(['git', '-C', t + '/r', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
					"os.symlink(host + '/r', 'sub/deep')\nprint('LINKED')\n")})
				op := "os.rename"
				if how == "link" {
					op = "lambda a, b: os.link(a, b, follow_symlinks=False)"
				}
				t2, _ := p.call("bash", map[string]any{"script": r3py("import os\n" +
					"n = [n for n in os.listdir('sub') if n.startswith('deep.eukhe-refused-')]\nprint('FOUND', n)\n" +
					"(" + op + ")('sub/' + n[0], 'sub/lib.eukhe-refused-x')\nprint(sorted(os.listdir('sub')))\n")})
				if os.Getenv("R7DEBUG") != "" {
					t.Logf("%s\n%s", t1, t2)
				}
				r3gitTry(w.home, filepath.Join(w.root, "sub", "lib.eukhe-refused-x"), "status", "--short")
				if r3exists(mark) {
					t.Errorf("a link eukhe renamed out of use, given another refused-like name by a later step, led the user's git to a repository's fsmonitor:\n%s\n%s", t1, t2)
				}
			})
		}
	}
}

// ===================================================================
// 4. PATH entries (gate/places.go Rules, protected_shadow.go)
// ===================================================================

// Held: a PATH entry ".", "" or ".." has no ending: the sixth fix leaves the
// gate protecting the root's own entries and the sandbox renaming a
// program a process makes, named like a command, anywhere. The gate does
// not protect an executable the project already has in a subdirectory
// (sub/build.sh): the agent rewrites it with the write tool (read and
// write only) and renames it to sub/ls with mv, judged write. The user's
// ls in sub (or in sub/x, for "..") would run it. The gate lets both run
// (Policy.protects skips an EndRule with no name), but mv is a program:
// the sandbox refuses it (and, allowed, would rename the shadow).
func r7executableRenamed(t *testing.T) {
	for _, c := range []struct{ entry, cwd string }{{".", "sub"}, {"", "sub"}, {"..", "sub/x"}} {
		t.Run(fmt.Sprintf("%q", c.entry), func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write"]`)
			writeFile(t, filepath.Join(w.root, "sub", "build.sh"), "#!/bin/sh\necho building\n", 0o755)
			mustDo(t, os.MkdirAll(filepath.Join(w.root, "sub", "x"), 0o755))
			path := c.entry + ":" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path)
			p.call("read", map[string]any{"path": "sub/build.sh"})
			t1, _ := p.call("write", map[string]any{"path": "sub/build.sh", "content": planted})
			t2, _ := p.call("bash", map[string]any{"script": "mv sub/build.sh sub/ls"})
			out := r6user(w, filepath.Join(w.root, c.cwd), path, "sh", "-c", "ls /dev/null")
			if os.Getenv("R7DEBUG") != "" {
				t.Logf("%s\n%s\n%s", t1, t2, out)
			}
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("PATH entry %q: the user's ls in %s ran sub/ls, the project's sub/build.sh rewritten and renamed by the agent with read and write: %s\n%s\n%s", c.entry, c.cwd, out, t1, t2)
			}
		})
	}
}

// bash expands a tilde at the start of a PATH entry at each command
// search, and "~N", "~+N" and "~-N" are entries of the directory stack:
// "~0", "~+0" and "~-0" (a stack of one) are the working directory, so
// "~0/bin" is "./bin". The sixth fix takes "~+" and "~-" only; these are
// relative entries named "~0/bin", protecting only paths ending so: the
// agent writes sub/bin/ls with read and write, and the user's ls in sub
// (bash) runs it. Root cause: gate/places.go Places.Rules rewrites only
// "~", "~/", "~+" and "~-" (bash's bash_special_tilde_expansions takes a
// digit, "+digit" and "-digit" too).
func TestAttackRound7_a_tilde_digit_PATH_entry_is_a_bin_beside_the_shell(t *testing.T) {
	t.Parallel()
	for _, entry := range []string{"~0/bin", "~+0/bin", "~-0/bin"} {
		t.Run(entry, func(t *testing.T) { r6pathEntry(t, "bash", entry, "sub/bin/ls", "sub") })
	}
}

// The shadow rule takes a program a process makes in a relative PATH
// directory as protected when it is named like a command of the PATH's
// absolute directories — listed once for each PATH string. A command the
// user installs during the session (go install, pip install --user,
// cargo install, apt) into a directory already on PATH is never listed:
// a step's program then makes sub/bin/<it>, and the user's <it> in sub
// runs the plant. Root cause: agent/shell/protected_shadow.go setShadow
// returns early while the PATH string and endings are the same, so the
// list of commands is never read again.
func TestAttackRound7_a_command_installed_during_the_session_is_no_shadow(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			tools := filepath.Join(w.base, "gobin")
			mustDo(t, os.MkdirAll(tools, 0o755))
			path := "./bin:" + tools + ":" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
			p.call("bash", map[string]any{"script": r3py("print('warm')")})
			// the user, in their own terminal: go install …/r7tool@latest
			writeFile(t, filepath.Join(tools, "r7tool"), "#!/bin/sh\necho the real r7tool\n", 0o755)
			text, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant("sub/bin/r7tool"))})
			out := r6user(w, filepath.Join(w.root, "sub"), path, "sh", "-c", "r7tool")
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's r7tool in sub (installed mid-session) ran sub/bin/r7tool, made by a step's program: %s\n%s", out, text)
			}
		})
	}
}

// The shadow rule looks at the entries of directories whose path ends
// like a relative PATH entry ("bin"): it does not follow links, and a
// link to a directory inside the roots is not judged at all ("the map
// looks there itself"). A step's program makes sub/tools/ls (tools ends
// in no entry: not a shadow) and the link sub/bin -> tools: the user's ls
// in sub (PATH "./bin") runs sub/tools/ls. The words (a link at a path ending in
// /bin) are asked. Root cause: agent/shell/protected_tree.go list takes
// a link as a link only (newLink judges repositories, not shadows), and
// pathShadow.shadows looks at the directory a program sits in, not at
// the names by which the user's shell reaches it.
func TestAttackRound7_a_link_named_like_a_PATH_entry_to_a_directory_with_a_command(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			path := "./bin:" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant("sub/tools/ls") + "os.symlink('tools', 'sub/bin')\nprint('LINKED')\n")})
			out := r6user(w, filepath.Join(w.root, "sub"), path, "sh", "-c", "ls /dev/null")
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's ls in sub ran sub/bin/ls, sub/bin a step's link to sub/tools where it made ls: %s\n%s", out, text)
			}
		})
	}
}

// ===================================================================
// 5. credentials by shape (gate/credential.go tokenShapes)
// ===================================================================

// The sixth fix added one shape for each provider it was shown; the same
// providers issue others, and many others issue prefixed tokens, all
// under names with no credential word: Supabase's new secret API keys
// (sb_secret_), LangSmith's legacy keys (ls__), Postman's collection
// access keys (PMAT-), Heroku's API keys (HRKU-), Netlify's personal
// tokens (nfp_), Doppler's service and personal tokens (dp.st., dp.pt.),
// Neon's (napi_), Pinecone's (pcsk_), Resend's (re_), Google's OAuth
// client secrets (GOCSPX-), Deno Deploy's (ddp_), Buildkite's (bkua_).
// Root cause: gate/credential.go tokenShapes is a list of prefixes one
// shape at a time.
func TestAttackRound7_credentials_of_the_same_providers_in_other_shapes_reach_the_step(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	creds := map[string][2]string{
		"SUPABASE_SERVICE":   {"sb_secret_CANARYsb01abcdefghijklmnopqrstuv", "CANARYsb01"},
		"LANGCHAIN_ENDPOINT": {"ls__CANARYls02abcdef0123456789abcdef0123", "CANARYls02"},
		"POSTMAN_COLLECTION": {"PMAT-01HCANARYpm03ABCDEFGHJKMNPQRS", "CANARYpm03"},
		"HEROKU_API":         {"HRKU-CANARYhk04abcdefghij0123456789abcdefghij", "CANARYhk04"},
		"NETLIFY_SITE":       {"nfp_CANARYnf05abcdefghijklmnopqrstuvwxyz0123", "CANARYnf05"},
		"DOPPLER_CONFIG":     {"dp.st.prd.CANARYdp06abcdefghijklmnopqrstuvwxyz0123", "CANARYdp06"},
		"NEON_PROJECT":       {"napi_CANARYne07abcdefghijklmnopqrstuvwxyz0123456789ab", "CANARYne07"},
		"PINECONE":           {"pcsk_CANARYpc08_abcdefghijklmnopqrstuvwxyz0123456789", "CANARYpc08"},
		"RESEND":             {"re_CANARYrs09_abcdefghijklmnopqrstuv", "CANARYrs09"},
		"GOOGLE_CLIENT":      {"GOCSPX-CANARYgo10abcdefghijklmnopq", "CANARYgo10"},
		"DENO_DEPLOY":        {"ddp_CANARYdd11abcdefghijklmnopqrstuvwxyz01", "CANARYdd11"},
		"BUILDKITE_AGENT":    {"bkua_CANARYbk12abcdef0123456789abcdef01234567", "CANARYbk12"},
	}
	credentialsStayOut(t, w, creds, []string{"env"})
}

// A cache, and the home's other dot-directories, hold credentials the
// list of stores misses: Hugging Face's token is in the cache
// (~/.cache/huggingface/token, HF_HOME's default), and the CLIs of
// Supabase, Fly.io, Pulumi, Firebase (configstore), Stripe and Vercel keep
// theirs in their own dot-directories. A step with read alone cats them
// unasked. Root cause: gate/places.go HomeSecrets is a list of stores;
// gate.HomeWritable's caches are read as any file.
func TestAttackRound7_credentials_in_caches_and_tool_directories_are_read_unasked(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read"]`)
	files := map[string]string{
		".cache/huggingface/token":                "hf_CANARYhf01abcdefghijklmnopqrstuvwxyz",
		".supabase/access-token":                  "CANARYsb02abcdef0123456789",
		".fly/config.yml":                         "access_token: CANARYfl03abcdef\n",
		".pulumi/credentials.json":                `{"accessTokens": {"https://api.pulumi.com": "CANARYpu04"}}`,
		".config/configstore/firebase-tools.json": `{"tokens": {"refresh_token": "CANARYfb05"}}`,
		".config/stripe/config.toml":              "[default]\ntest_mode_api_key = 'CANARYst06'\n",
		".local/share/com.vercel.cli/auth.json":   `{"token": "CANARYvc07"}`,
	}
	var paths []string
	for rel, text := range files {
		writeFile(t, filepath.Join(w.home, rel), text+"\n", 0o600)
		paths = append(paths, shellQuote(filepath.Join(w.home, rel)))
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	text, _ := p.call("bash", map[string]any{"script": "cat " + strings.Join(paths, " ")})
	for rel, core := range map[string]string{".cache/huggingface/token": "CANARYhf01", ".supabase/access-token": "CANARYsb02",
		".fly/config.yml": "CANARYfl03", ".pulumi/credentials.json": "CANARYpu04", ".config/configstore/firebase-tools.json": "CANARYfb05",
		".config/stripe/config.toml": "CANARYst06", ".local/share/com.vercel.cli/auth.json": "CANARYvc07"} {
		if shows(text, core) {
			t.Errorf("~/%s (a credential) was read by a step with read alone, unasked", rel)
		}
	}
}

// ===================================================================
// controls
// ===================================================================

// r7work is the normal work that must keep running unasked with
// read, write, exec and outside: sed -i on a project file, go build and
// the program it built, git commit in the root, and the writes package
// managers make to their caches (npm's _cacache, pip's http cache, cargo's
// registry, Go's build cache).
func r7work(t *testing.T) {
	needEdgeTools(t)
	r3need(t, "go")
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			// a user's home has its caches (under Landlock a step cannot make
			// a dot directory of the home: held since the sixth round)
			for _, d := range []string{".cache", ".npm", ".cargo/registry"} {
				mustDo(t, os.MkdirAll(filepath.Join(w.home, d), 0o755))
			}
			writeFile(t, filepath.Join(w.root, "go.mod"), "module r7\n\ngo 1.21\n", 0o644)
			writeFile(t, filepath.Join(w.root, "main.go"), "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"hello\" + \"r7\") }\n", 0o644)
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech, "GOFLAGS=-mod=mod")
			for _, c := range []struct{ script, want string }{
				{"sed -i s/zeta/eta/ a.txt && cat a.txt", "eta"},
				{"go build -o sub/app . && ./sub/app", "hellor7"}, // (a new file directly in the root: not under Landlock, by design)
				{"git add -A && git -c user.name=t -c user.email=t@example.org commit -qm work && git log --oneline | head -1", "work"},
				{r3py("import os\nh = os.path.expanduser('~')\nfor p in ('.npm/_cacache/content-v2/sha512/ab/cd', '.cache/pip/http/a/b', '.cargo/registry/cache/x.crate', '.cache/go-build/zz/x'):\n" +
					"  os.makedirs(os.path.dirname(h + '/' + p), exist_ok=True); open(h + '/' + p, 'w').write('x')\nprint('CACHED' + 'OK')\n"), "CACHEDOK"},
			} {
				text := r7wait(p, c.script)
				if !strings.Contains(text, c.want) || strings.Contains(text, "did not run") {
					t.Errorf("%s: did not run unasked:\n%s", c.script, text)
				}
			}
		})
	}
}

// r7wait runs script and, when it goes on as a job (a cold go build),
// waits for the job, giving all of its output.
func r7wait(p *mcpProc, script string) string {
	text, _ := p.call("bash", map[string]any{"script": script})
	job := regexp.MustCompile(`detached: job (j\d+)`).FindStringSubmatch(text)
	for i := 0; job != nil && i < 20 && !strings.Contains(text, "[finished"); i++ {
		more, _ := p.call("bash", map[string]any{"job": job[1]})
		text += "\n" + more
	}
	return text
}

func TestAttackRound7_controls(t *testing.T) {
	t.Parallel()
	t.Run("normal work runs unasked: sed -i, go build, git commit, cache writes", r7work)
	t.Run("a dot directory renamed away and made again keeps nothing it had", r7renamedAwayAll)
	t.Run("an executable of the project rewritten and renamed to a command name under a . PATH entry", r7executableRenamed)
	t.Run("a link renamed out of use, renamed or hard-linked to another refused-like name, is renamed again", r7refusedLinkRenamed)
}
