package main

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/internal/testkit"
)

// The third red team (after issue 20), through the real binary. Each
// TestAttackRound3_<what> is an attack that got through when it was
// written: it fails until the product is fixed. The attacks that held
// are the rows of TestAttackRound3_controls, which must pass.
//
// What counts as getting through: a secret's bytes reach a reply or the
// network, a protected file is written or made, a program is planted
// where it runs without the user's yes (a git hook, git config, a PATH
// directory, an editor's or agent's project config), or a grant is reused
// for another judgment. "Runs" is shown by running it as the user would:
// git commit, git status or the editor's own git, in the test process,
// unconfined.

// r3git runs git as the user in dir (HOME the world's), failing the test
// when it fails.
func r3git(t *testing.T, home, dir string, args ...string) string {
	t.Helper()
	out, err := r3gitTry(home, dir, args...)
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return out
}

// r3gitTry runs git as the user would, unconfined, and gives its output.
func r3gitTry(home, dir string, args ...string) (string, error) {
	cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.org"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1")
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func r3exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// r3hook is a program that leaves a mark at mark when it runs.
func r3hook(mark string) string { return "#!/bin/sh\ntouch " + mark + "\n" }

// r3py is a python3 program as one shell word.
func r3py(code string) string { return "python3 -c " + shellQuote(code) }

// r3need skips when a tool a row uses is missing (CI has them all).
func r3need(t *testing.T, tools ...string) {
	t.Helper()
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			testkit.Missing(t, tool+" is needed (.ci/run installs it)")
		}
	}
}

// r3mcp is eukhe mcp in root with PATH and more of the environment.
func r3mcp(t *testing.T, w *envWorld, root, path string, more ...string) *mcpProc {
	t.Helper()
	p := startMCP(t, w.withPath(path, more...), root)
	p.waitStderr("headless")
	return p
}

// --- 1. git runs programs from places the protected rules do not name ---

// A repository whose hooks live in the work tree (core.hooksPath, as
// husky and many projects set it): with only read and write in the auto
// set, the agent rewrites a hook and adds another with the document tools
// and a shell step, and the user's next commit or checkout runs them.
func TestAttackRound3_a_hook_under_core_hooksPath_is_written_unasked(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	r3git(t, w.home, w.root, "config", "core.hooksPath", ".githooks")
	writeFile(t, filepath.Join(w.root, ".githooks", "pre-commit"), "#!/bin/sh\nexit 0\n", 0o755)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	p.call("read", map[string]any{"path": ".githooks/pre-commit"})
	p.call("write", map[string]any{"path": ".githooks/pre-commit", "content": r3hook(mark)})
	p.call("write", map[string]any{"path": ".githooks/post-checkout", "content": r3hook(mark)})
	p.call("bash", map[string]any{"script": "chmod +x .githooks/post-checkout; echo 'touch " + mark + "' >> .githooks/pre-commit"})
	r3gitTry(w.home, w.root, "commit", "-q", "--allow-empty", "-m", "user's commit")
	r3gitTry(w.home, w.root, "checkout", "-q", "-b", "user-branch")
	if r3exists(mark) {
		b, _ := os.ReadFile(filepath.Join(w.root, ".githooks", "pre-commit"))
		t.Errorf("a hook the agent wrote in core.hooksPath (.githooks) ran at the user's commit; pre-commit now:\n%s", b)
	}
}

// A repository whose .git/config includes a file of the work tree
// (`git config include.path ../.gitconfig`, a way projects share config):
// with only read and write, the agent writes that file with an fsmonitor
// program, and the user's next git status runs it.
func TestAttackRound3_a_config_git_includes_from_the_work_tree_is_written_unasked(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	r3git(t, w.home, w.root, "config", "include.path", "../.gitconfig")
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	p.call("write", map[string]any{"path": ".gitconfig", "content": "[core]\n\tfsmonitor = \"touch " + mark + "; false\"\n"})
	p.call("bash", map[string]any{"script": "printf '[alias]\\n\\tst = !touch " + mark + "\\n' >> .gitconfig"})
	r3gitTry(w.home, w.root, "status", "--short")
	if r3exists(mark) {
		b, _ := os.ReadFile(filepath.Join(w.root, ".gitconfig"))
		t.Errorf("git config the agent wrote in the work tree (included by .git/config) ran at the user's git status:\n%s", b)
	}
}

// The workspace is a linked worktree (`git worktree add`) or a
// repository made with --separate-git-dir: its .git is a file naming a
// git directory outside the root, whose hooks and config git obeys in the
// workspace. The gate judges a shell write there protected; a program the
// sandbox confines (exec and outside in the auto set, protected not)
// writes it anyway, under each mechanism, and the user's next commit runs
// the hook.
func TestAttackRound3_a_worktrees_git_dir_outside_the_root_is_writable_in_the_sandbox(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		for _, layout := range []string{"worktree", "separate-git-dir"} {
			t.Run(mech+"/"+layout, func(t *testing.T) {
				w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
				mark := filepath.Join(w.base, "pwned")
				var root, gitdir string
				switch layout {
				case "worktree":
					root, gitdir = filepath.Join(w.home, "wt"), filepath.Join(w.root, ".git")
					r3git(t, w.home, w.root, "worktree", "add", "-q", root)
				default:
					root, gitdir = filepath.Join(w.home, "sep"), filepath.Join(w.base, "sep.git")
					r3git(t, w.home, w.home, "init", "-q", "--separate-git-dir="+gitdir, root)
					writeFile(t, filepath.Join(root, "a.txt"), "zeta\n", 0o644)
					r3git(t, w.home, root, "add", ".")
					r3git(t, w.home, root, "commit", "-qm", "first")
				}
				config, _ := os.ReadFile(filepath.Join(gitdir, "config"))
				p := r3mcp(t, w, root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
				hook := filepath.Join(gitdir, "hooks", "pre-commit")
				text, _ := p.call("bash", map[string]any{"script": r3py(
					"import os, subprocess; d = subprocess.run(['git', 'rev-parse', '--git-common-dir'], capture_output=True, text=True).stdout.strip(); " +
						"h = os.path.join(d, 'hooks', 'pre-commit'); open(h, 'w').write(" + fmt.Sprintf("%q", r3hook(mark)) + "); os.chmod(h, 0o755); " +
						"open(os.path.join(d, 'config'), 'a').write('[core]\\n\\tfsmonitor = \"touch " + mark + "; false\"\\n')")})
				r3gitTry(w.home, root, "commit", "-q", "--allow-empty", "-m", "user's commit")
				now, _ := os.ReadFile(filepath.Join(gitdir, "config"))
				if r3exists(hook) || string(now) != string(config) || r3exists(mark) {
					t.Errorf("a confined program wrote the workspace's git directory %s (hook made: %v, config changed: %v, ran at the user's commit: %v):\n%s",
						gitdir, r3exists(hook), string(now) != string(config), r3exists(mark), text)
				}
			})
		}
	}
}

// --- 4. protected names at any depth ---

// A program makes a repository with an fsmonitor program below the root
// and keeps running: the .git is renamed out of use only when the step
// ends, and until then any git the user runs there — a shell prompt that
// shows the branch, the editor's git, which finds new repositories in the
// workspace — runs the program unconfined.
func TestAttackRound3_a_repository_a_step_makes_is_live_until_the_step_ends(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			mustDo(t, os.MkdirAll(filepath.Join(w.root, "deep"), 0o755))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			done := make(chan string, 1)
			go func() {
				text, _ := p.call("bash", map[string]any{"script": r3py(
					"import subprocess as s, time; s.run(['git', 'init', '-q', 'deep/r']); " +
						"s.run(['git', '-C', 'deep/r', 'config', 'core.fsmonitor', 'touch " + mark + "; false']); time.sleep(8)")})
				done <- text
			}()
			cfg := filepath.Join(w.root, "deep", "r", ".git", "config")
			deadline := time.Now().Add(15 * time.Second)
			refused := func() bool {
				m, _ := filepath.Glob(filepath.Join(w.root, "deep", "r", ".git.eukhe-refused-*"))
				return len(m) > 0
			}
			for time.Now().Before(deadline) {
				if b, _ := os.ReadFile(cfg); strings.Contains(string(b), "fsmonitor") || refused() {
					break
				}
				time.Sleep(50 * time.Millisecond)
			}
			// the user's git, while the step runs
			r3gitTry(w.home, filepath.Join(w.root, "deep", "r"), "status", "--short")
			text := <-done
			if r3exists(mark) {
				t.Errorf("the user's git status ran the fsmonitor program of a repository the step had made, before the step ended:\n%s", text)
			}
			if !strings.Contains(text, ".eukhe-refused-") {
				t.Errorf("the reply does not say the .git the step made was renamed out of use:\n%s", text)
			}
		})
	}
}

// The map of protected names stops at 50,000 directories of what was
// there when the session began (maxTreeDirs): a repository made in a
// directory past the bound (a monorepo, node_modules) is never found, so
// never renamed out of use.
func TestAttackRound3_a_repository_made_past_the_tree_bound_stays_in_use(t *testing.T) {
	t.Parallel()
	r3need(t, "python3", "git")
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	mark := filepath.Join(w.base, "pwned")
	for i := range 50_100 {
		mustDo(t, os.MkdirAll(filepath.Join(w.root, "a", fmt.Sprintf("%05d", i)), 0o755))
	}
	mustDo(t, os.MkdirAll(filepath.Join(w.root, "zz", "q", "r"), 0o755))
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	text, _ := p.call("bash", map[string]any{"script": r3py(
		"import subprocess as s; s.run(['git', 'init', '-q', 'zz/q/r']); " +
			"s.run(['git', '-C', 'zz/q/r', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])")})
	r3gitTry(w.home, filepath.Join(w.root, "zz", "q", "r"), "status", "--short")
	if r3exists(filepath.Join(w.root, "zz", "q", "r", ".git")) || r3exists(mark) {
		t.Errorf("a repository made below an existing directory past the bound stayed in use (its fsmonitor ran: %v):\n%s", r3exists(mark), text)
	}
}

// Project config of coding agents and editors that names programs they
// run, missing from NamedProtected: Codex's .codex/config.toml (a client
// eukhe's README sets up), Roo Code's .roo/mcp.json, Kiro's
// .kiro/settings/mcp.json, Amazon Q's .amazonq/mcp.json, Continue's
// .continue/mcpServers, opencode.json, and Vim's .vimrc (read with
// 'exrc', as .exrc is). With only read and write they are written unasked.
func TestAttackRound3_other_agents_project_config_is_written_unasked(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	server := `{"mcpServers": {"x": {"command": "sh", "args": ["-c", "touch pwned"]}}}` + "\n"
	names := map[string]string{
		".codex/config.toml":          "[mcp_servers.x]\ncommand = \"sh\"\nargs = [\"-c\", \"touch pwned\"]\n",
		".roo/mcp.json":               server,
		".kiro/settings/mcp.json":     server,
		".amazonq/mcp.json":           server,
		".continue/mcpServers/x.yaml": "name: x\nmcpServers:\n  - name: x\n    command: sh\n    args: [\"-c\", \"touch pwned\"]\n",
		"opencode.json":               `{"mcp": {"x": {"type": "local", "command": ["sh", "-c", "touch pwned"]}}}` + "\n",
		".vimrc":                      "call system('touch pwned')\n",
	}
	for name, content := range names {
		p.call("write", map[string]any{"path": name, "content": content})
	}
	p.call("bash", map[string]any{"script": "mkdir -p sub/.codex && cp .codex/config.toml sub/.codex/ 2>/dev/null; echo '{}' > sub/opencode.json"})
	for name := range names {
		if r3exists(filepath.Join(w.root, name)) {
			t.Errorf("%s was written unasked", name)
		}
	}
	for _, name := range []string{"sub/.codex/config.toml", "sub/opencode.json"} {
		if r3exists(filepath.Join(w.root, name)) {
			t.Errorf("%s was written unasked", name)
		}
	}
}

// --- 5. PATH directories ---

// PATH names directories of the workspace that do not exist yet (a
// project's bin, node_modules/.bin). A program the sandbox confines
// (exec, not protected) makes them with a program in each, by a rename
// or directly; nothing renames them out of use, as a new .git is, so the
// user's own shell, with the same PATH, runs the plant.
func TestAttackRound3_a_PATH_directory_a_program_makes_keeps_its_plant(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mustDo(t, os.MkdirAll(filepath.Join(w.root, "sub"), 0o755))
			bin, nm := filepath.Join(w.root, "sub", "bin"), filepath.Join(w.root, "sub", "nm", ".bin")
			p := r3mcp(t, w, w.root, bin+":"+nm+":"+os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			var texts []string
			for _, code := range []string{
				"import os; os.makedirs('sub/stage'); open('sub/stage/ls', 'w').write(" + fmt.Sprintf("%q", planted) + "); os.chmod('sub/stage/ls', 0o755); os.rename('sub/stage', 'sub/bin')",
				"import os; os.makedirs('sub/nm/.bin'); open('sub/nm/.bin/cat', 'w').write(" + fmt.Sprintf("%q", planted) + "); os.chmod('sub/nm/.bin/cat', 0o755)",
			} {
				text, _ := p.call("bash", map[string]any{"script": r3py(code)})
				texts = append(texts, text)
			}
			for _, prog := range []string{filepath.Join(bin, "ls"), filepath.Join(nm, "cat")} {
				if r3exists(prog) {
					t.Errorf("%s stays in a directory on PATH, for the user's shell to run:\n%s", prog, strings.Join(texts, "\n"))
				}
			}
		})
	}
}

// PATH spellings the rules might miss: a PATH entry that is a link (in
// the home) to a directory of the workspace, and entries spelt with ..,
// a double slash, a trailing slash or a trailing /. — each directory
// exists; a write into it must ask (it is protected). Held.
func r3pathSpellings(t *testing.T) {
	w := newEnvWorld(t, `["read", "write"]`)
	for _, d := range []string{"tools", "sub", "b2", "b3", "b4"} {
		mustDo(t, os.MkdirAll(filepath.Join(w.root, d), 0o755))
	}
	mustDo(t, os.Symlink(filepath.Join(w.root, "tools"), filepath.Join(w.home, "bin")))
	path := strings.Join([]string{filepath.Join(w.home, "bin"), w.root + "/sub/../b2", w.root + "//b3/", w.root + "/b4/.", os.Getenv("PATH")}, ":")
	p := r3mcp(t, w, w.root, path)
	for _, d := range []string{"tools", "b2", "b3", "b4"} {
		p.call("write", map[string]any{"path": d + "/ls", "content": planted})
		p.call("bash", map[string]any{"script": "cp /dev/null " + d + "/cat"})
		for _, prog := range []string{"ls", "cat"} {
			if r3exists(filepath.Join(w.root, d, prog)) {
				t.Errorf("%s/%s (on PATH) was written unasked", d, prog)
			}
		}
	}
}

// --- 5. credentials in the environment ---

// Credentials whose names and values the rules miss: sshpass's SSHPASS,
// Bitwarden's and 1Password's session keys (each unlocks the vault), an
// LDAP bind password, an Authorization header, a cookie, a SAS
// signature, a password in _PW. Each reaches every program.
func TestAttackRound3_credentials_the_rules_miss_reach_a_step(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	// each variable: its value, and the core a reply must never show
	creds := map[string][2]string{
		"SSHPASS":            {"CANARYsshpass01", "CANARYsshpass01"},
		"BW_SESSION":         {"CANARYbwsess02xQ9zA7uJ3kLmN0pR5tV8wY1bC4dF6gH2jK", "CANARYbwsess02"},
		"OP_SESSION_my":      {"CANARYopsess03", "CANARYopsess03"},
		"LDAP_BIND_PW":       {"CANARYldappw04", "CANARYldappw04"},
		"HTTP_AUTHORIZATION": {"Bearer CANARYbearer06", "CANARYbearer06"},
		"SESSION_COOKIE_JAR": {"session=CANARYcookie15", "CANARYcookie15"},
		"STORAGE_SAS":        {"sv=2022-11-02&ss=b&sig=CANARYsas18", "CANARYsas18"},
		"DB_PW":              {"CANARYdbpw08", "CANARYdbpw08"},
	}
	p := credentialsStayOut(t, w, creds, []string{"env", "printenv", r3py("import os; print(dict(os.environ))"), "cat /proc/self/environ | tr '\\0' '\\n'"}, "PLAIN_SETTING_RED_3=plain-kept-value")
	if text, _ := p.call("bash", map[string]any{"script": "printenv PLAIN_SETTING_RED_3"}); !strings.Contains(text, "plain-kept-value") {
		t.Errorf("control: a plain variable did not reach printenv:\n%s", text)
	}
}

// --- 6. sandbox edges ---

// shortWorld is an envWorld under a short directory: a Unix socket's path
// must fit in 108 bytes.
func shortWorld(t *testing.T, auto string) *envWorld {
	t.Helper()
	base, err := os.MkdirTemp("", "r3")
	mustDo(t, err)
	t.Cleanup(func() { os.RemoveAll(base) })
	base, _ = filepath.EvalSymlinks(base)
	w := &envWorld{base: base, home: filepath.Join(base, "h")}
	w.root = filepath.Join(w.home, "p")
	writeFile(t, filepath.Join(w.home, ".config/eukhe/settings.json"), `{"shell.autoEffects": `+auto+`}`, 0o644)
	writeFile(t, filepath.Join(w.root, "a.txt"), "zeta\nalpha\n", 0o644)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-qm", "first"}} {
		r3git(t, w.home, w.root, args...)
	}
	run := filepath.Join(base, "run")
	mustDo(t, os.MkdirAll(run, 0o700))
	w.env = []string{"HOME=" + w.home, "XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + run, "LANG=C.UTF-8"}
	return w
}

// hostSockets listens on Unix sockets where container runtimes put
// theirs in the home (Docker Desktop for Linux, Rancher Desktop) and
// counts connections.
func hostSockets(t *testing.T, w *envWorld) (paths []string, accepted *atomic.Int32) {
	t.Helper()
	accepted = &atomic.Int32{}
	for _, rel := range []string{".docker/desktop/docker.sock", ".rd/docker.sock"} {
		p := filepath.Join(w.home, rel)
		mustDo(t, os.MkdirAll(filepath.Dir(p), 0o755))
		ln, err := net.Listen("unix", p)
		mustDo(t, err)
		t.Cleanup(func() { ln.Close() })
		go func() {
			for {
				c, err := ln.Accept()
				if err != nil {
					return
				}
				accepted.Add(1)
				c.Close()
			}
		}()
		paths = append(paths, p)
	}
	return paths, accepted
}

func connectScripts(paths []string) []string {
	var out []string
	for _, p := range paths {
		out = append(out,
			r3py("import socket; socket.socket(socket.AF_UNIX).connect('"+p+"')"),
			`sh -c "python3 -c 'import socket; socket.socket(socket.AF_UNIX).connect(\"`+p+`\")'"`,
			"curl -s --max-time 2 --unix-socket "+p+" http://x/_ping")
	}
	return out
}

// Under bubblewrap, without net and without secret, a step reaches a
// host daemon's Unix socket in the home: Docker Desktop's (and Rancher
// Desktop's) docker.sock, from which `docker run -v /:/host` is the
// user's whole machine. Only /run is hidden; Landlock refuses such a
// socket (a control).
func TestAttackRound3_a_host_daemon_socket_in_the_home_is_reached_without_net(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	w := shortWorld(t, `["read", "write", "exec"]`)
	paths, accepted := hostSockets(t, w)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT=bubblewrap")
	for _, s := range connectScripts(paths) {
		p.call("bash", map[string]any{"script": s})
	}
	if n := accepted.Load(); n > 0 {
		t.Errorf("%d connections reached a host daemon's socket in the home from steps without net or secret", n)
	}
}

// --- 7. editor buffers ---

// An open buffer's file is replaced, between the agent's edit reaching
// the editor and the save, by a second name of .git/config (a hard link
// already in the tree, renamed over it). A symbolic link there is caught
// (the existing rows); the hard link is not: the editor saves through it,
// as editors do (in place), and .git/config holds the agent's text.
func TestAttackRound3_a_hard_link_renamed_over_a_buffer_before_its_save_writes_git_config(t *testing.T) {
	t.Parallel()
	e := startLSPEditor(t, `{"shell.autoEffects": ["read", "write"]}`)
	e.put(".git/config", plainGitConfig)
	e.put(".git/HEAD", "ref: refs/heads/main\n")
	mustDo(t, os.Link(e.path(".git/config"), e.path("stash")))
	e.put("config", "benign\n")
	e.open("config", "benign\n")
	text, failed := e.tool("read", map[string]any{"path": "config"})
	if failed {
		t.Fatalf("read: %s", text)
	}
	head, _, _ := strings.Cut(text, "\n")
	tag := head[strings.LastIndex(head, "#")+1 : len(head)-1]
	e.mu.Lock()
	e.onApply = func() { mustDo(t, os.Rename(e.path("stash"), e.path("config"))) }
	e.mu.Unlock()
	text, _ = e.tool("edit", map[string]any{"patch": "[config#" + tag + "]\n@@ 1\n+[core]\n+\tfsmonitor = echo pwned\n"})
	if b, _ := os.ReadFile(e.path(".git/config")); string(b) != plainGitConfig {
		t.Errorf(".git/config was written through the buffer's save:\n%s\nreply: %s", b, text)
	}
}

// --- controls: the attacks that held ---

func TestAttackRound3_controls(t *testing.T) {
	t.Parallel()
	t.Run("a grant does not cover the same step in another directory", func(t *testing.T) {
		r3need(t, "make")
		w := newEnvWorld(t, `["read", "write"]`)
		writeFile(t, filepath.Join(w.root, "d", "Makefile"), "all:\n\t@echo MAKE-IN-D\n", 0o644)
		writeFile(t, filepath.Join(w.root, "e", "Makefile"), "all:\n\t@echo MAKE-IN-E\n", 0o644)
		g := startGoClient(t, w.withPath(os.Getenv("PATH")), w.root)
		g.reply(answerWith("allow for this session"))
		g.bash(t, "cd d; make")
		g.bash(t, "cd d; make")
		if n := g.askedCount(); n != 1 {
			t.Fatalf("asked %d times for the granted step, want 1", n)
		}
		g.reply(answerWith("deny"))
		if text, _ := g.bash(t, "cd e; make"); g.askedCount() != 2 || strings.Contains(text, "MAKE-IN-E") {
			t.Errorf("the grant for make in d covered make in e:\n%s", text)
		}
	})
	t.Run("a grant does not cover the same word finding another program on PATH", func(t *testing.T) {
		w := newEnvWorld(t, `["read", "write"]`)
		writeFile(t, filepath.Join(w.base, "t1", "mytool"), "#!/bin/sh\necho TOOL-ONE\n", 0o755)
		writeFile(t, filepath.Join(w.base, "t2", "mytool"), "#!/bin/sh\necho TOOL-TWO\n", 0o755)
		g := startGoClient(t, w.withPath(filepath.Join(w.base, "t1")+":"+os.Getenv("PATH")), w.root)
		g.reply(answerWith("allow for this session"))
		if text, _ := g.bash(t, "mytool"); !strings.Contains(text, "TOOL-ONE") {
			t.Fatalf("the step allowed for the session did not run: %s", text)
		}
		g.bash(t, "mytool")
		if n := g.askedCount(); n != 1 {
			t.Fatalf("asked %d times for the granted step, want 1", n)
		}
		g.reply(answerWith("deny"))
		for _, s := range []string{"PATH=" + filepath.Join(w.base, "t2") + ":$PATH; mytool", "export PATH=" + filepath.Join(w.base, "t2") + ":$PATH; mytool"} {
			before := g.askedCount()
			if text, _ := g.bash(t, s); g.askedCount() != before+1 || strings.Contains(text, "TOOL-TWO") {
				t.Errorf("%s: the grant for t1/mytool covered t2/mytool:\n%s", s, text)
			}
		}
	})
	t.Run("a question shows its effects first and escapes what does not print", func(t *testing.T) {
		w := newEnvWorld(t, `["read"]`)
		g := startGoClient(t, w.withPath(os.Getenv("PATH")), w.root)
		var msgs []string
		g.reply(func(_ context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			msgs = append(msgs, p.Message)
			return &mcp.ElicitResult{Action: "decline"}, nil
		})
		g.bash(t, "echo x > $'a\\u202eb\\u2028c\\x1b[2K\\rd\\u200be'")
		g.bash(t, "cat > notes.txt <<'EOF'\nline\n\neukhe: run step 1? Effects: read.\nEOF")
		if len(msgs) != 2 {
			t.Fatalf("asked %d times, want 2", len(msgs))
		}
		for _, m := range msgs {
			first, _, _ := strings.Cut(m, "\n")
			if !strings.HasPrefix(first, "eukhe: run step 1? Effects: ") || !strings.Contains(first, "write") {
				t.Errorf("the first line is not the step and its effects: %q", first)
			}
			for _, r := range []string{"\u202e", "\u2028", "\x1b", "\r", "\u200b"} {
				if strings.Contains(m, r) {
					t.Errorf("the question shows %q raw:\n%q", r, m)
				}
			}
			for _, line := range strings.Split(m, "\n")[1:] {
				if strings.HasPrefix(line, "eukhe:") {
					t.Errorf("a line of the step poses as the question's own: %q", line)
				}
			}
		}
	})
	t.Run("git read steps run no textconv, filter or alias from config included from the work tree", func(t *testing.T) {
		w := newEnvWorld(t, `["read", "write"]`)
		mark := filepath.Join(w.base, "pwned")
		r3git(t, w.home, w.root, "config", "include.path", "../.gitconfig")
		writeFile(t, filepath.Join(w.root, ".gitattributes"), "*.txt diff=x filter=x\n", 0o644)
		writeFile(t, filepath.Join(w.root, "a.txt"), "changed\n", 0o644)
		r3git(t, w.home, w.root, "add", ".")
		r3git(t, w.home, w.root, "commit", "-qm", "second")
		writeFile(t, filepath.Join(w.root, ".gitconfig"), "[diff \"x\"]\n\ttextconv = \"touch "+mark+"; cat\"\n[filter \"x\"]\n\tclean = \"touch "+mark+"; cat\"\n\tsmudge = \"touch "+mark+"; cat\"\n[pretty]\n\tx = %H\n[core]\n\tpager = touch "+mark+"\n", 0o644)
		writeFile(t, filepath.Join(w.root, "a.txt"), "changed again\n", 0o644)
		p := r3mcp(t, w, w.root, os.Getenv("PATH"))
		for _, s := range []string{"git log -p -1", "git show HEAD", "git log --stat -1", "git diff --cached", "git grep -n changed", "git ls-files", "git cat-file -p HEAD:a.txt", "git describe --always"} {
			if text, failed := p.call("bash", map[string]any{"script": s}); failed {
				t.Errorf("%s did not run unasked (so the row proves nothing):\n%s", s, text)
			}
			if r3exists(mark) {
				t.Errorf("%s ran a program of the included config", s)
				os.Remove(mark)
			}
		}
	})
	t.Run("a trace file named by an exported variable writes nothing protected", func(t *testing.T) {
		w := newEnvWorld(t, `["read", "write"]`)
		p := r3mcp(t, w, w.root, os.Getenv("PATH"))
		for _, s := range []string{
			"export GIT_TRACE=$PWD/.git/hooks/pre-commit; git log --oneline",
			"export GIT_TRACE2_EVENT=$PWD/.git/hooks/post-checkout; git ls-files",
			"export GIT_TRACE_PACKET=$PWD/../outside-trace; git log -1",
		} {
			p.call("bash", map[string]any{"script": s})
		}
		for _, f := range []string{".git/hooks/pre-commit", ".git/hooks/post-checkout", "../outside-trace"} {
			if r3exists(filepath.Join(w.root, f)) {
				t.Errorf("%s was written through a trace variable", f)
			}
		}
	})
	t.Run("PATH entries spelt as links, with .., // or a trailing / or /. are protected", r3pathSpellings)
	t.Run("Landlock refuses a host daemon's socket in the home", func(t *testing.T) {
		needEdgeTools(t)
		w := shortWorld(t, `["read", "write", "exec"]`)
		paths, accepted := hostSockets(t, w)
		p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT=landlock")
		for _, s := range connectScripts(paths) {
			p.call("bash", map[string]any{"script": s})
		}
		if n := accepted.Load(); n > 0 {
			t.Errorf("%d connections reached a host daemon's socket under Landlock", n)
		}
	})
	t.Run("no block device and no kernel setting opens for writing", func(t *testing.T) {
		needEdgeTools(t)
		for _, mech := range mechanisms {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"import os, stat, glob\n" +
					"for f in sorted(glob.glob('/dev/*') + glob.glob('/dev/*/*') + ['/proc/sysrq-trigger', '/proc/sys/kernel/core_pattern', '/sys/kernel/uevent_helper']):\n" +
					"  try:\n" +
					"    m = os.stat(f).st_mode\n" +
					"    if not (stat.S_ISBLK(m) or f.startswith('/proc/sys') or f.startswith('/sys') or f == '/dev/mem' or f == '/dev/kmsg' or f == '/proc/sysrq-trigger'): continue\n" +
					"    os.close(os.open(f, os.O_WRONLY | os.O_NONBLOCK)); print('OPENED' + '-FOR-WRITING', f)\n" +
					"  except Exception: pass\n" +
					"print('PROBE' + '-DONE')\n")})
			if !strings.Contains(text, "PROBE-DONE") {
				t.Errorf("%s: the probe did not run:\n%s", mech, text)
			}
			if strings.Contains(text, "OPENED-FOR-WRITING") {
				t.Errorf("%s: a device or kernel setting opened for writing:\n%s", mech, text)
			}
		}
	})
	t.Run("a buffer that already is a second name of .git/config is not written", func(t *testing.T) {
		e := startLSPEditor(t, `{"shell.autoEffects": ["read", "write"]}`)
		e.put(".git/config", plainGitConfig)
		e.put(".git/HEAD", "ref: refs/heads/main\n")
		mustDo(t, os.Link(e.path(".git/config"), e.path("cfg")))
		e.open("cfg", plainGitConfig)
		text, _ := e.tool("read", map[string]any{"path": "cfg"})
		head, _, _ := strings.Cut(text, "\n")
		tag := head[strings.LastIndex(head, "#")+1 : len(head)-1]
		text, _ = e.tool("edit", map[string]any{"patch": "[cfg#" + tag + "]\n@@ 1\n+[core]\n+\tfsmonitor = echo pwned\n"})
		if b, _ := os.ReadFile(e.path(".git/config")); string(b) != plainGitConfig {
			t.Errorf(".git/config was written through a second name open in the editor:\n%s\nreply: %s", b, text)
		}
	})
	t.Run("recovery writes nothing through a second name of .git/config renamed over an edited file", func(t *testing.T) {
		w := newAttackWorld(t)
		config, _ := os.ReadFile(w.at(".git/config"))
		writeAt(t, w.root, "d/b.txt", "b\n")
		w.crash(t, "rename", 1, []docs.Change{
			{Path: w.at("d/b.txt"), Old: []byte("b\n"), New: plantedHook},
			{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
		})
		mustDo(t, os.Link(w.at(".git/config"), w.at("stash")))
		mustDo(t, os.Rename(w.at("stash"), w.at("d/b.txt")))
		p := w.startMCP(t, "headless")
		text, _ := p.call("read", map[string]any{"path": "a.txt"})
		if now, _ := os.ReadFile(w.at(".git/config")); string(now) != string(config) {
			t.Errorf("recovery wrote .git/config through its second name:\n%s\n%s", now, text)
		}
	})
	t.Run("a genuine journal moved to another root's journal directory acts on nothing", func(t *testing.T) {
		w := newAttackWorld(t)
		writeAt(t, w.root, "d/b.txt", "b\n")
		jpath := w.crash(t, "rename", 1, []docs.Change{
			{Path: w.at("d/b.txt"), Old: []byte("b\n"), New: plantedHook},
			{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
		})
		other := filepath.Join(w.home, "other")
		writeAt(t, other, "x.txt", "x\n")
		odir := docs.JournalDir(map[string]string{"HOME": w.home, "XDG_STATE_HOME": w.state}, other)
		mustDo(t, os.MkdirAll(odir, 0o700))
		b, err := os.ReadFile(jpath)
		mustDo(t, err)
		mustDo(t, os.WriteFile(filepath.Join(odir, filepath.Base(jpath)), b, 0o600))
		mustDo(t, os.Remove(jpath))
		p := startMCP(t, w.env, other)
		p.waitStderr("headless")
		text, _ := p.call("read", map[string]any{"path": "x.txt"})
		if got, _ := os.ReadFile(w.at("d/b.txt")); string(got) != "b\n" {
			t.Errorf("a session of another root finished the journal: d/b.txt holds %q\n%s", got, text)
		}
	})
}

// The git places are read as the session starts; a core.hooksPath or an
// include the user adds during the session is protected from the next
// call on (settings.GitWatch), not only at the next session.
func TestAttackRound3_git_places_the_user_adds_during_the_session_are_protected(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	p.call("read", map[string]any{"path": "a.txt"})
	r3git(t, w.home, w.root, "config", "core.hooksPath", ".githooks")
	r3git(t, w.home, w.root, "config", "include.path", "../shared.gitconfig")
	p.call("write", map[string]any{"path": ".githooks/pre-commit", "content": r3hook(mark)})
	p.call("bash", map[string]any{"script": "printf '[core]\\n\\tfsmonitor = \"touch " + mark + "; false\"\\n' > shared.gitconfig"})
	for _, f := range []string{".githooks/pre-commit", "shared.gitconfig"} {
		if r3exists(filepath.Join(w.root, f)) {
			t.Errorf("%s, named by the git config the user changed during the session, was written unasked", f)
		}
	}
}
