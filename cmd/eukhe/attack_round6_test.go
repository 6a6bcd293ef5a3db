package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The sixth red team (after the fixes of the fifth), through the real
// binary. Each TestAttackRound6_<what> is an attack that got through when
// it was written: it fails until the product is fixed. The attacks that
// held are the rows of TestAttackRound6_controls, which must pass. What
// counts as getting through is what the third round's file says: a
// secret's bytes reach a step, or a program is planted where it runs
// without the user's yes — shown by running it as the user would, in the
// test process, unconfined.

// r6user runs argv as the user would (HOME the world's), in dir, and
// gives its output.
func r6user(w *envWorld, dir, path string, argv ...string) string {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+w.home, "PATH="+path,
		"XDG_CONFIG_HOME="+filepath.Join(w.home, ".config"), "XDG_DATA_HOME="+filepath.Join(w.home, ".local", "share"))
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// r6plant is a python statement that writes the planted program at p.
func r6plant(p string) string {
	return "os.makedirs(os.path.dirname(" + fmt.Sprintf("%q", p) + "), exist_ok=True); open(" + fmt.Sprintf("%q", p) + ", 'w').write(" + fmt.Sprintf("%q", planted) + "); os.chmod(" + fmt.Sprintf("%q", p) + ", 0o755)\n"
}

// r6debianProfile is Debian's and Ubuntu's default ~/.profile: ~/bin and
// ~/.local/bin go first on PATH when they exist.
const r6debianProfile = `if [ -d "$HOME/bin" ] ; then
    PATH="$HOME/bin:$PATH"
fi
if [ -d "$HOME/.local/bin" ] ; then
    PATH="$HOME/.local/bin:$PATH"
fi
`

// --- 1. the home's dot-entries (DotRule) ---

// Held: a dotfiles manager (GNU stow, dotbot, rcm) makes ~/.bashrc a
// link to ~/dotfiles/bashrc and ~/.config/nvim a link to ~/dotfiles/nvim.
// A step that may write outside writes the files bash and Neovim start
// from by their real names — with the shell's words (asked) and with a
// program (read-only).
func r6dotfileLinked(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
			mark := filepath.Join(w.base, "pwned")
			writeFile(t, filepath.Join(w.home, "dotfiles", "bashrc"), "# the user's bashrc\n", 0o644)
			writeFile(t, filepath.Join(w.home, "dotfiles", "nvim", "init.lua"), "-- the user's init.lua\n", 0o644)
			mustDo(t, os.Symlink("dotfiles/bashrc", filepath.Join(w.home, ".bashrc")))
			mustDo(t, os.Symlink("../dotfiles/nvim", filepath.Join(w.home, ".config", "nvim")))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			words, _ := p.call("bash", map[string]any{"script": "echo 'touch " + mark + "' >> ~/dotfiles/bashrc"})
			prog, _ := p.call("bash", map[string]any{"script": r3py("import os\nopen(os.path.expanduser('~/dotfiles/nvim/init.lua'), 'a').write(\"os.execute('touch " + mark + "')\\n\")\n")})
			t.Logf("%s\n%s", words, prog)
			r6user(w, w.root, os.Getenv("PATH"), "bash", "-ic", "true")
			if r3exists(mark) {
				t.Errorf("the user's bash ran what a step appended to ~/dotfiles/bashrc (the target of ~/.bashrc):\n%s", words)
				os.Remove(mark)
			}
			if _, err := exec.LookPath("nvim"); err == nil {
				r6user(w, w.root, os.Getenv("PATH"), "nvim", "--headless", "+qa")
				if r3exists(mark) {
					t.Errorf("the user's nvim ran what a step's program wrote in ~/dotfiles/nvim/init.lua (~/.config/nvim a link there):\n%s", prog)
				}
			} else {
				testkit.MissingPart(t, "nvim is not installed: the user's Neovim is not started over the planted init.lua")
			}
		})
	}
}

// ~/bin is no dot-entry, and is on no PATH while it does not exist; but
// Debian's and Ubuntu's default ~/.profile puts it first on PATH at the
// next login once it does. A step that may write outside makes ~/bin/ls
// unasked; the user's next login shell runs it for ls.
func TestAttackRound6_a_home_bin_the_login_profile_adds_once_it_exists(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
	writeFile(t, filepath.Join(w.home, ".profile"), r6debianProfile, 0o644)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	text, _ := p.call("bash", map[string]any{"script": "mkdir -p ~/bin && printf '%s' " + shellQuote(planted) + " > ~/bin/ls && chmod +x ~/bin/ls"})
	out := r6user(w, w.root, os.Getenv("PATH"), "bash", "-lc", "ls /dev/null")
	if strings.Contains(out, "PLANTEDRAN") {
		t.Errorf("the user's login shell ran ~/bin/ls, made by a step unasked (~/.profile adds ~/bin when it exists): %s\n%s", out, text)
	}
}

// A dot directory that holds a cache (~/.local holds .local/state and
// .local/share/pnpm) is not covered whole: its entries are looked at one
// by one — but only when it exists as the process starts. One made by
// the process, or one of its own dot directories that hold a cache
// (~/.local/share) made by it, is not listed, so nothing below it is
// taken as made: a program makes ~/.local/bin/ls (Debian's ~/.profile
// puts it first on PATH once it exists) and a Neovim plugin in
// ~/.local/share/nvim/site/plugin (loaded at every start). Under
// bubblewrap; Landlock holds (a control).
func TestAttackRound6_a_dot_directory_holding_a_cache_that_a_program_makes_is_not_looked_into(t *testing.T) {
	t.Parallel()
	r6freshDotDir(t, "bubblewrap")
}

// r6freshDotDir is the attack above under the mechanisms named.
func r6freshDotDir(t *testing.T, mechs ...string) {
	needEdgeTools(t)
	for _, mech := range mechs {
		for _, fresh := range []string{"~/.local", "~/.local/share"} {
			t.Run(mech+" "+fresh, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
				mark := filepath.Join(w.base, "pwned")
				var more []string
				if fresh == "~/.local" {
					// eukhe's own state elsewhere: a home without ~/.local
					more = append(more, "XDG_STATE_HOME="+filepath.Join(w.base, "state"))
				}
				writeFile(t, filepath.Join(w.home, ".profile"), r6debianProfile, 0o644)
				p := r3mcp(t, w, w.root, os.Getenv("PATH"), append(more, "EUKHE_CONFINEMENT="+mech)...)
				text, _ := p.call("bash", map[string]any{"script": r3py("import os\nh = os.path.expanduser('~')\n" +
					"p = h + '/.local/share/nvim/site/plugin/x.lua'\nos.makedirs(os.path.dirname(p), exist_ok=True)\nopen(p, 'w').write(\"os.execute('touch " + mark + "')\\n\")\n" +
					strings.ReplaceAll(r6plant("HOME/.local/bin/ls"), `"HOME`, `h + "`))})
				if fresh == "~/.local" {
					if out := r6user(w, w.root, os.Getenv("PATH"), "bash", "-lc", "ls /dev/null"); strings.Contains(out, "PLANTEDRAN") {
						t.Errorf("the user's login shell ran ~/.local/bin/ls, made by a step's program (~/.local made by it too): %s\n%s", out, text)
					}
				}
				if _, err := exec.LookPath("nvim"); err == nil {
					r6user(w, w.root, os.Getenv("PATH"), "nvim", "--headless", "+qa")
					if r3exists(mark) {
						t.Errorf("the user's nvim ran a plugin a step's program made in ~/.local/share/nvim/site/plugin (%s made by it):\n%s", fresh, text)
					}
				} else {
					testkit.MissingPart(t, "nvim is not installed: the user's Neovim is not started over the planted plugin")
				}
			})
		}
	}
}

// Held: the caches are left to the outside effect, "a program a login, a
// shell, an editor or git runs unasked is never here" — but git's
// credential cache talks to a daemon through a socket in
// ~/.cache/git/credential/socket (the default when
// ~/.git-credential-cache does not exist). A step that may write outside
// listens there, as a job; the user's git (credential.helper cache)
// stores the password it just used by sending it to the socket, and the
// job's output would show it. A step without secret cannot make a Unix
// socket (bubblewrap), nor ~/.cache at all (Landlock).
func r6credCacheSocket(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside", "net"]`)
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"import os, socket, sys\n" +
					"d = os.path.expanduser('~/.cache/git/credential')\n" +
					"os.makedirs(d, mode=0o700, exist_ok=True)\n" +
					"s = socket.socket(socket.AF_UNIX)\n" +
					"s.bind(d + '/socket'); s.listen(4); s.settimeout(120)\n" +
					"print('LIST' + 'ENING', flush=True)\n" +
					"got = b''\n" +
					"try:\n" +
					"  while b'password' not in got:\n" +
					"    c, _ = s.accept(); c.settimeout(5)\n" +
					"    try:\n" +
					"      while True:\n" +
					"        b = c.recv(4096)\n" +
					"        if not b: break\n" +
					"        got += b\n" +
					"        if b'\\n\\n' in got or got.endswith(b'\\n') and b'password' in got: break\n" +
					"    except Exception: pass\n" +
					"    c.close()\n" +
					"except Exception as e: print('ERR', e)\n" +
					"print('GOT', got.hex())\n")})
			if !strings.Contains(text, "LISTENING") {
				return // held: the step could not listen
			}
			job := regexp.MustCompile(`\bj\d+\b`).FindString(text)
			cmd := exec.Command("git", "-c", "credential.helper=cache", "credential", "approve")
			cmd.Dir, cmd.Stdin = w.root, strings.NewReader("protocol=https\nhost=git.example.com\nusername=me\npassword=CANARYgcc01xyz\n\n")
			cmd.Env = append(os.Environ(), "HOME="+w.home, "GIT_CONFIG_NOSYSTEM=1", "XDG_CACHE_HOME=")
			out, _ := cmd.CombinedOutput()
			more := ""
			if job != "" {
				more, _ = p.call("bash", map[string]any{"job": job})
			}
			if os.Getenv("R6DEBUG") != "" {
				t.Logf("%s\n%s\n%s", text, more, out)
			}
			if shows(text+more, "CANARYgcc01") {
				t.Errorf("the password the user's git gave its credential cache reached a step listening on ~/.cache/git/credential/socket:\n%s\n%s\n%s", text, more, out)
			}
		})
	}
}

// --- 2. a repository found near a write (GitWatch.Near) ---

// Near looks for a .git from the path written up to the root: a
// repository the user makes below the root mid-session is found by a
// write below it. Its config names places outside its own tree (a
// hooksPath and an include in the project around it): the agent writes
// those first, with the write tool alone, and nothing below the nested
// repository is ever written, so it is never found.
func TestAttackRound6_a_nested_repositorys_places_outside_its_tree_are_written_before_it_is_found(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	p.call("read", map[string]any{"path": "a.txt"})
	nested := filepath.Join(w.root, "vendor", "lib")
	writeFile(t, filepath.Join(nested, "lib.txt"), "lib\n", 0o644)
	r3git(t, w.home, nested, "init", "-q")
	r3git(t, w.home, nested, "config", "core.hooksPath", "../../tools/hooks")
	r3git(t, w.home, nested, "config", "include.path", "../../../shared.gitconfig")
	p.call("read", map[string]any{"path": "a.txt"})
	t1, _ := p.call("write", map[string]any{"path": "shared.gitconfig", "content": "[core]\n\tfsmonitor = \"touch " + mark + "; false\"\n"})
	t2, _ := p.call("write", map[string]any{"path": "tools/hooks/pre-commit", "content": r3hook(mark)})
	os.Chmod(filepath.Join(w.root, "tools", "hooks", "pre-commit"), 0o755) // what a later chmod step does
	r3gitTry(w.home, nested, "status", "--short")
	r3gitTry(w.home, nested, "commit", "-q", "--allow-empty", "-m", "user's commit")
	if r3exists(mark) {
		t.Errorf("the include or hook of a repository the user made below the root mid-session, outside its own tree, was written unasked and ran at the user's git:\n%s\n%s", t1, t2)
	}
}

// --- 3. links kept to look at again ---

// A link that leads out of the roots or nowhere is kept to look at again
// at each refresh — at most 10,000 of them. A step makes 10,000 dangling
// links first, then the real one (dangling too); a later step makes a
// repository at its target. The real link was never kept. Under
// bubblewrap; Landlock holds (a control).
func TestAttackRound6_a_step_that_fills_the_kept_links_keeps_its_own(t *testing.T) {
	t.Parallel()
	r6fillLinks(t, "bubblewrap")
}

// r6fillLinks is the attack above under the mechanisms named.
func r6fillLinks(t *testing.T, mechs ...string) {
	needEdgeTools(t)
	for _, mech := range mechs {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			t1, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"os.makedirs('fill')\n" +
				"for i in range(10050): os.symlink(host + '/nowhere%d' % i, 'fill/l%05d' % i)\n" +
				"print('FILLED')\n")})
			t2, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"os.symlink(host + '/later', 'sub/deep')\nprint('LINKED', host)\n")})
			t3, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"s.run(['git', 'init', '-q', t + '/later'])\n" +
				"s.run(['git', '-C', t + '/later', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
				"print('MADE')\n")})
			if os.Getenv("R6DEBUG") != "" {
				t.Logf("%.300s\n%s\n%s", t1, t2, t3)
			}
			r3gitTry(w.home, filepath.Join(w.root, "sub", "deep"), "status", "--short")
			if r3exists(mark) {
				t.Errorf("a link kept past the 10,000 the map looks at again led to a repository a later step made; its fsmonitor ran at the user's git status:\n%.300s\n%s\n%s", t1, t2, t3)
			}
		})
	}
}

// A link to a directory with a repository "up to 3 levels below it"
// counts; one four levels down, or past the 500 directories the look
// reads, does not. The user's git in the repository (reached through
// the link, as round 5's attack reaches it) runs its fsmonitor.
func TestAttackRound6_a_link_to_a_directory_with_a_repository_deeper_than_the_look_stays_in_use(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"for r in (t + '/deep/a/b/c/r', t + '/wide/zz/r'):\n" +
				"  s.run(['git', 'init', '-q', r])\n" +
				"  s.run(['git', '-C', r, 'config', 'core.fsmonitor', 'touch " + mark + "-' + r.split('/')[-3] + '; false'])\n" +
				"for i in range(1200): os.makedirs(t + '/wide/d%04d/e' % i)\n" +
				"os.makedirs(t + '/wide/zz/r/x', exist_ok=True)\n" +
				"os.symlink(host + '/deep', 'sub/deep')\n" +
				"os.symlink(host + '/wide', 'sub/wide')\n" +
				"print('LINKED', host)\n")})
			for _, c := range []struct{ rel, tag, what string }{
				{"sub/deep/a/b/c/r", "b", "four levels below the link's target"},
				{"sub/wide/zz/r", "wide", "two levels below, past 500 directories"},
			} {
				r3gitTry(w.home, filepath.Join(w.root, c.rel), "status", "--short")
				if r3exists(mark + "-" + c.tag) {
					t.Errorf("a link to a directory with a repository %s stayed in use; its fsmonitor ran at the user's git status in %s:\n%s", c.what, c.rel, text)
				}
			}
		})
	}
}

// --- 4. an entry renamed out of use, renamed back ---

// Held: the live watch renames a .git a process makes while it runs; the
// process sees the new name (it lists the directory) and renames it back
// at once, again and again, until it ends. It ends out of use.
func r6renamedBack(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"import os, time, subprocess as s\n" +
					"os.makedirs('sub/r')\n" +
					"s.run(['git', 'init', '-q', 'sub/r/stage'])\n" +
					"s.run(['git', '-C', 'sub/r/stage', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
					"os.rename('sub/r/stage/.git', 'sub/r/.git')\n" +
					"back = 0\n" +
					"end = time.time() + 8\n" +
					"while time.time() < end:\n" +
					"  for n in os.listdir('sub/r'):\n" +
					"    if n.startswith('.git.eukhe-refused-') and not os.path.exists('sub/r/.git'):\n" +
					"      try: os.rename('sub/r/' + n, 'sub/r/.git'); back += 1\n" +
					"      except Exception: pass\n" +
					"  time.sleep(0.002)\n" +
					"print('BACK', back, sorted(os.listdir('sub/r')))\n")})
			r3gitTry(w.home, filepath.Join(w.root, "sub", "r"), "status", "--short")
			if r3exists(mark) {
				t.Errorf("a .git renamed back each time the live watch renamed it stayed in use; its fsmonitor ran at the user's git status:\n%s", text)
			}
		})
	}
}

// A link out of the roots to a directory holding a repository is renamed
// out of use after the step that made it; the next step renames it back
// to its name. eukhe leaves a link under the name it gave it alone (it
// judged it once): under its first name again it is judged again, and
// renamed again.
func TestAttackRound6_a_refused_link_renamed_back_by_a_later_step_is_refused_again(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			t1, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"r = t + '/out/r'\n" +
				"s.run(['git', 'init', '-q', r])\n" +
				"s.run(['git', '-C', r, 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
				"os.symlink(host + '/out', 'sub/out')\n")})
			t2, _ := p.call("bash", map[string]any{"script": r3py("import os\n" +
				"for n in os.listdir('sub'):\n" +
				"  if n.startswith('out.eukhe-refused-'): os.rename('sub/' + n, 'sub/out'); print('RENAMED BACK')\n")})
			if !strings.Contains(t2, "RENAMED BACK") {
				t.Fatalf("the first step's link was not renamed out of use, so nothing was renamed back:\n%s\n%s", t1, t2)
			}
			r3gitTry(w.home, filepath.Join(w.root, "sub", "out", "r"), "status", "--short")
			if r3exists(mark) {
				t.Errorf("a link renamed back to its name by a later step stayed in use; its repository's fsmonitor ran at the user's git status:\n%s\n%s", t1, t2)
			}
		})
	}
}

// --- 5. PATH entries ---

// r6pathEntry is r5pathEntry with the user's shell named: bash expands
// a tilde at the start of a PATH entry at each search, "~+" as the
// working directory and "~-" as the previous one.
func r6pathEntry(t *testing.T, shell, entry, plant, cwd string) {
	w := newEnvWorld(t, `["read", "write"]`)
	path := entry + ":" + os.Getenv("PATH")
	mustDo(t, os.MkdirAll(filepath.Join(w.root, cwd), 0o755))
	p := r3mcp(t, w, w.root, path)
	t1, _ := p.call("write", map[string]any{"path": plant, "content": planted})
	t2, _ := p.call("bash", map[string]any{"script": "chmod +x " + plant})
	out := r6user(w, filepath.Join(w.root, cwd), path, shell, "-c", "ls /dev/null")
	if strings.Contains(out, "PLANTEDRAN") {
		t.Errorf("PATH entry %q: the user's ls in %s (%s) ran the program the agent planted at %s: %s\n%s\n%s", entry, cwd, shell, plant, out, t1, t2)
	}
}

// PATH="~+/bin:…": bash's command search expands "~+" to the working
// directory, so it is "./bin"; eukhe takes it as a relative entry named
// "~+/bin" and protects only paths ending so.
func TestAttackRound6_a_tilde_plus_PATH_entry_is_a_bin_beside_the_shell(t *testing.T) {
	t.Parallel()
	r6pathEntry(t, "bash", "~+/bin", "sub/bin/ls", "sub")
}

// A ".." entry: the shadow rule (a program a process makes in a
// relative PATH directory named like a command is renamed out of use)
// takes only the entries with an ending ("bin"), and ".." has none: a
// program that makes sub/ls keeps it, and the user's ls in sub/x runs
// it. ("." and "" hold: controls.)
func TestAttackRound6_a_program_a_process_makes_for_a_dotdot_PATH_entry_stays(t *testing.T) {
	t.Parallel()
	r6dotEntry(t, "..", "sub/x")
}

// r6dotEntry is the attack above for one entry, the user's ls in cwd.
func r6dotEntry(t *testing.T, entry, cwd string) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		for _, c := range []struct{ entry, cwd string }{{entry, cwd}} {
			t.Run(fmt.Sprintf("%s %q", mech, c.entry), func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec"]`)
				path := c.entry + ":" + os.Getenv("PATH")
				mustDo(t, os.MkdirAll(filepath.Join(w.root, "sub", "x"), 0o755))
				p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
				text, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant("sub/ls"))})
				out := r6user(w, filepath.Join(w.root, c.cwd), path, "sh", "-c", "ls /dev/null")
				if strings.Contains(out, "PLANTEDRAN") {
					t.Errorf("PATH entry %q: the user's ls in %s ran sub/ls, made by a step's program: %s\n%s", c.entry, c.cwd, out, text)
				}
			})
		}
	}
}

// Held: past the map's bound (50,000 directories) a program makes
// zz/q/bin/ls, and the user's ls in zz/q (PATH "./bin") would run it.
func r6shadowPastBound(t *testing.T) {
	needEdgeTools(t)
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	for i := range 50_100 {
		mustDo(t, os.MkdirAll(filepath.Join(w.root, "a", fmt.Sprintf("%05d", i)), 0o755))
	}
	mustDo(t, os.MkdirAll(filepath.Join(w.root, "zz", "q"), 0o755))
	path := "./bin:" + os.Getenv("PATH")
	p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT=bubblewrap")
	text, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant("zz/q/bin/ls"))})
	out := r6user(w, filepath.Join(w.root, "zz", "q"), path, "sh", "-c", "ls /dev/null")
	if strings.Contains(out, "PLANTEDRAN") {
		t.Errorf("the user's ls in zz/q ran zz/q/bin/ls, made by a step's program past the map's bound: %s\n%s", out, text)
	}
}

// --- 6. credentials ---

// Credentials whose names hold none of the credential words and whose
// values have none of the shapes: MySQL's MYSQL_PWD, redis-cli's
// REDISCLI_AUTH, RabbitMQ's default password, Kaggle's key, Rails'
// master key, an Azure storage connection string; and tokens under plain
// names in shapes the list misses (a DigitalOcean personal token,
// LangSmith's, Supabase's, Postman's, 1Password's service account,
// PostHog's personal key).
func TestAttackRound6_credentials_of_other_names_and_shapes_reach_the_step(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	creds := map[string][2]string{
		"MYSQL_PWD":                       {"CANARYmy01xyz", "CANARYmy01"},
		"REDISCLI_AUTH":                   {"CANARYrd02xyz", "CANARYrd02"},
		"RABBITMQ_DEFAULT_PASS":           {"CANARYrb03xyz", "CANARYrb03"},
		"KAGGLE_KEY":                      {"0123abcdCANARYkg04", "CANARYkg04"},
		"RAILS_MASTER_KEY":                {"0123456789abcdefCANARYrm05", "CANARYrm05"},
		"AZURE_STORAGE_CONNECTION_STRING": {"DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=CANARYaz06abcdefghij==;EndpointSuffix=core.windows.net", "CANARYaz06"},
		"DO_SETTINGS":                     {"dop_v1_" + strings.Repeat("ab", 26) + "CANARYdo07", "CANARYdo07"},
		"TRACING":                         {"lsv2_pt_CANARYls08abcdefghijklmnopqrstuv_0123456789", "CANARYls08"},
		"SUPA":                            {"sbp_CANARYsb09abcdef0123456789abcdef0123456789", "CANARYsb09"},
		"POSTMAN":                         {"PMAK-0123456789abcdef01234567-CANARYpm10abcdef0123456789abcdef01", "CANARYpm10"},
		"OP_SA":                           {"ops_eyJzaWduSW5BZGRyZXNzIjoiQ0FOQVJZb3AxMSJ9CANARYop11", "CANARYop11"},
		"ANALYTICS":                       {"phx_CANARYph12abcdefghijklmnopqrstuvwxyz012345", "CANARYph12"},
	}
	credentialsStayOut(t, w, creds, []string{"env"})
}

// --- 7. what a path cannot guard where a process may write outside (hard links, relative PATH entries) ---

// Outside the roots the shadow rule does not look: with PATH "./bin"
// and outside in the auto set, a program makes ~/other/bin/ls (another
// project of the user's) and the user's ls there runs it. The gate asks
// for the words (every path ending in /bin is protected); the program
// is not looked at. Fixed: with a relative PATH entry a process that may
// write outside does not run (the sandbox cannot look at every bin/).
func TestAttackRound6_a_shadowing_program_outside_the_roots_stays(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
			other := filepath.Join(w.home, "other")
			writeFile(t, filepath.Join(other, "README"), "other\n", 0o644)
			path := "./bin:" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant(filepath.Join(other, "bin", "ls")))})
			out := r6user(w, other, path, "sh", "-c", "ls /dev/null")
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's ls in another project ran bin/ls, made there by a step's program: %s\n%s", out, text)
			}
		})
	}
}

// A dotfiles manager that hard-links (dotfiles kept in ~/dotfiles, each
// linked into the home by a second name, as `ln` without -s or `cp -l`
// makes it): ~/.bash_profile and ~/dotfiles/bash_profile are one file.
// The DotRule covers the name in the home; a step's program (exec and
// outside, not protected) appends to the other name, and the user's next
// login shell runs it. (The shell's words are asked: a control.)
// Fixed: a process that may write outside has the other names of the
// protected files searched for in the home too and bound read-only; a
// name not found there stops the process (the next test).
func TestAttackRound6_a_dotfile_hard_linked_from_a_dotfiles_directory_is_written_by_a_program(t *testing.T) {
	t.Parallel()
	r6hardLinkedDotfile(t, false)
}

// The other name outside the home (a dotfiles directory on another
// path of the same file system): not found, so a process that may write
// outside does not run, and says why and what to do.
func TestAttackRound6_a_dotfile_hard_linked_from_outside_the_home_stops_the_process(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
			mark := filepath.Join(w.base, "pwned")
			other := filepath.Join(w.base, "dotfiles", "bash_profile")
			writeFile(t, other, "# the user's bash_profile\n", 0o644)
			mustDo(t, os.Link(other, filepath.Join(w.home, ".bash_profile")))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py("open(" + fmt.Sprintf("%q", other) + ", 'a').write('touch " + mark + "\\n')\n")})
			r6user(w, w.root, os.Getenv("PATH"), "bash", "-lc", "true")
			if r3exists(mark) {
				t.Errorf("the user's login bash ran what a step appended to another name of ~/.bash_profile outside the home:\n%s", text)
			}
			if !strings.Contains(text, "has another name (a hard link)") || !strings.Contains(text, "allow protected for this step") {
				t.Errorf("the process was not refused with the reason and what to do:\n%s", text)
			}
		})
	}
}

// r6hardLinkedDotfile appends to ~/dotfiles/bash_profile, a second name
// of ~/.bash_profile, with the shell's words or with a program.
func r6hardLinkedDotfile(t *testing.T, words bool) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
			mark := filepath.Join(w.base, "pwned")
			writeFile(t, filepath.Join(w.home, "dotfiles", "bash_profile"), "# the user's bash_profile\n", 0o644)
			mustDo(t, os.Link(filepath.Join(w.home, "dotfiles", "bash_profile"), filepath.Join(w.home, ".bash_profile")))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			script := r3py("import os\nopen(os.path.expanduser('~/dotfiles/bash_profile'), 'a').write('touch " + mark + "\\n')\n")
			if words {
				script = "echo 'touch " + mark + "' >> ~/dotfiles/bash_profile"
			}
			text, _ := p.call("bash", map[string]any{"script": script})
			r6user(w, w.root, os.Getenv("PATH"), "bash", "-lc", "true")
			if r3exists(mark) {
				t.Errorf("the user's login bash ran what a step appended to ~/dotfiles/bash_profile (another name of ~/.bash_profile):\n%s", text)
			}
		})
	}
}

// --- controls ---

// r6aboveRoot: a program makes a repository above the root by other
// means than git init: a directory renamed into ../.git, a gitfile
// ../.git naming a repository in the step's temporary directory, and
// HEAD, objects and refs in the parent (a bare repository there).
func r6aboveRoot(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		for _, how := range []string{"rename", "gitfile", "bare"} {
			t.Run(mech+" "+how, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
				mark := filepath.Join(w.base, "pwned")
				root := filepath.Join(w.home, "work", "plain")
				writeFile(t, filepath.Join(root, "main.go"), "package main\n", 0o644)
				p := r3mcp(t, w, root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				fsm := "'touch " + mark + "; false'"
				var script string
				switch how {
				case "rename":
					script = "git init -q ../stage && git -C ../stage config core.fsmonitor " + fsm + " && mv ../stage/.git ../.git"
				case "gitfile":
					script = "git init -q --separate-git-dir \"$TMPDIR/g\" ../stage2 && git -C ../stage2 config core.fsmonitor " + fsm + " && cp ../stage2/.git ../.git.tmp && mv ../.git.tmp ../.git && git -C .. config core.worktree \"$(cd .. && pwd)\""
				case "bare":
					script = "git init -q --bare ../stage3 && git -C ../stage3 config core.bare false && git -C ../stage3 config core.worktree \"$(cd .. && pwd)\" && git -C ../stage3 config core.fsmonitor " + fsm + " && mv ../stage3/objects ../stage3/refs ../stage3/config .. && mv ../stage3/HEAD ../HEAD"
				}
				text, _ := p.call("bash", map[string]any{"script": r3py("import subprocess as s; print(s.run(['sh', '-c', " + fmt.Sprintf("%q", script) + "], capture_output=True, text=True))")})
				r3gitTry(w.home, root, "status", "--short")
				if r3exists(mark) {
					t.Errorf("%s: the user's git status in the project ran the fsmonitor of a repository a step's program made above it:\n%s", how, text)
				}
			})
		}
	}
}

func TestAttackRound6_controls(t *testing.T) {
	t.Parallel()
	t.Run("a repository a program makes above the root by a rename, a gitfile or a bare layout is out of use", r6aboveRoot)
	t.Run("a step cannot listen on git's credential cache socket in ~/.cache", r6credCacheSocket)
	t.Run("a shadowing program past the map's bound is renamed", r6shadowPastBound)
	t.Run("a dotfile symbolically linked from a dotfiles directory leaves outside steps running", func(t *testing.T) {
		w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
		writeFile(t, filepath.Join(w.home, "dotfiles", "bash_profile"), "# the user's\n", 0o644)
		mustDo(t, os.Symlink(filepath.Join(w.home, "dotfiles", "bash_profile"), filepath.Join(w.home, ".bash_profile")))
		p := r3mcp(t, w, w.root, os.Getenv("PATH"))
		text, _ := p.call("bash", map[string]any{"script": r3py("open(" + fmt.Sprintf("%q", filepath.Join(w.base, "elsewhere.txt")) + ", 'w').write('x')\n")})
		if !r3exists(filepath.Join(w.base, "elsewhere.txt")) {
			t.Errorf("an outside write stopped with no hard link about:\n%s", text)
		}
	})
	t.Run("a relative PATH entry leaves steps that may not write outside running", func(t *testing.T) {
		w := newEnvWorld(t, `["read", "write", "exec"]`)
		p := r3mcp(t, w, w.root, "./bin:"+os.Getenv("PATH"))
		text, _ := p.call("bash", map[string]any{"script": r3py("open('made.txt', 'w').write('x')\n")})
		if !r3exists(filepath.Join(w.root, "made.txt")) {
			t.Errorf("a step writing in the workspace stopped for a relative PATH entry:\n%s", text)
		}
	})
	t.Run("the shell's words appending to a second name of ~/.bash_profile are asked", func(t *testing.T) { r6hardLinkedDotfile(t, true) })
	t.Run("a dotfile linked into a dotfiles directory is written neither by words nor by a program", r6dotfileLinked)
	t.Run("a .git renamed back each time the live watch renames it is renamed again", r6renamedBack)
	t.Run("under Landlock a program cannot make ~/.local or ~/.local/share", func(t *testing.T) { r6freshDotDir(t, "landlock") })
	t.Run("under Landlock a link kept past the 10,000 is still looked at again", func(t *testing.T) { r6fillLinks(t, "landlock") })
	t.Run("a . PATH entry: ls a program makes in sub is renamed", func(t *testing.T) { r6dotEntry(t, ".", "sub") })
	t.Run("an empty PATH entry: ls a program makes in sub is renamed", func(t *testing.T) { r6dotEntry(t, "", "sub") })
	_ = time.Second
}
