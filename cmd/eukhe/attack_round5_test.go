//lint:file-ignore SA1019 a client that offers roots is what one attack is (a root inside a credential store)

package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The fifth red team (after the fixes of the fourth), through the real
// binary. Each TestAttackRound5_<what> is an attack that got through when
// it was written, and holds now. The attacks that
// held are the rows of TestAttackRound5_controls, which must pass. What
// counts as getting through is what the third round's file says: a
// secret's bytes reach a step, or a program is planted where it runs
// without the user's yes — shown by running it as the user would, in the
// test process, unconfined.

// --- 1. GitWatch ---

// GitWatch re-reads the git places only when a file they were read from
// changes; the repositories below the roots are found by a walk made
// then. The user makes a repository below the root in the middle of the
// session and sets its core.hooksPath (a clone of a project whose
// `make setup` sets it): no file GitWatch looks at changes, so the walk
// is not made again, and the agent writes the hook unasked.
func TestAttackRound5_a_repository_the_user_makes_below_the_root_mid_session_has_unprotected_hooks(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	p.call("read", map[string]any{"path": "a.txt"})
	// the user, in their own terminal
	nested := filepath.Join(w.root, "vendor", "lib")
	writeFile(t, filepath.Join(nested, "lib.txt"), "lib\n", 0o644)
	r3git(t, w.home, nested, "init", "-q")
	r3git(t, w.home, nested, "config", "core.hooksPath", ".githooks")
	r3git(t, w.home, nested, "config", "include.path", "../shared.gitconfig")
	p.call("read", map[string]any{"path": "a.txt"})
	p.call("write", map[string]any{"path": "vendor/lib/.githooks/pre-commit", "content": r3hook(mark)})
	p.call("bash", map[string]any{"script": "chmod +x vendor/lib/.githooks/pre-commit; printf '[core]\\n\\tfsmonitor = \"touch " + mark + "; false\"\\n' > vendor/lib/shared.gitconfig"})
	r3gitTry(w.home, nested, "status", "--short")
	r3gitTry(w.home, nested, "commit", "-q", "--allow-empty", "-m", "user's commit")
	if r3exists(mark) {
		t.Errorf("a hook or included config of a repository the user made below the root mid-session was written unasked and ran at the user's git (hook: %v, include: %v)",
			r3exists(filepath.Join(nested, ".githooks", "pre-commit")), r3exists(filepath.Join(nested, "shared.gitconfig")))
	}
}

// --- 2. EndRule ---

// A relative PATH entry is protected wherever it ends a path (EndRule),
// but entries starting ".." are passed over. With "../bin" on PATH (a
// project's tools one level up, wherever the shell is) the user's `ls`
// in sub/x runs sub/bin/ls; with read and write the agent plants it
// unasked.
func TestAttackRound5_a_dotdot_PATH_entry_is_not_protected(t *testing.T) {
	t.Parallel()
	r5pathEntry(t, "../bin", "sub/bin/ls", "sub/x")
}

// r5pathEntry plants ls at plant with the write tool (read and write in
// the auto set) with entry first on PATH, and runs the user's ls in cwd.
func r5pathEntry(t *testing.T, entry, plant, cwd string) {
	w := newEnvWorld(t, `["read", "write"]`)
	path := entry + ":" + os.Getenv("PATH")
	mustDo(t, os.MkdirAll(filepath.Join(w.root, cwd), 0o755))
	p := r3mcp(t, w, w.root, path)
	p.call("write", map[string]any{"path": plant, "content": planted})
	p.call("bash", map[string]any{"script": "chmod +x " + plant})
	cmd := exec.Command("sh", "-c", "ls /dev/null")
	cmd.Dir = filepath.Join(w.root, cwd)
	cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+w.home)
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "PLANTEDRAN") {
		t.Errorf("PATH entry %q: the user's ls in %s ran the program the agent planted at %s: %s", entry, cwd, plant, out)
	}
}

// --- 3. a link out of the roots into a repository ---

// r5tmpRepo is a python program that makes a repository with an
// fsmonitor program in the step's temporary directory (its host path
// found as the fourth round's attack finds it) and prints the host path
// of the temporary directory.
func r5hostTmp() string {
	return "import os, subprocess as s\n" +
		"t = os.path.realpath(os.environ['TMPDIR'])\n" +
		"host = t\n" +
		"for l in open('/proc/self/mountinfo'):\n" +
		"  f = l.split()\n" +
		"  if f[4] == t and f[3] != '/': host = f[3]\n" +
		"if not host.startswith('/tmp'): host = '/tmp' + host if host.startswith('/eukhe-session-') else host\n"
}

// leadsToRepository looks at the link's target and above it, not below:
// a link to the temporary directory itself, which holds the repository
// one level down, leads to no repository. The user's git (or the editor's
// scan for repositories one level down) in sub/deep/r obeys its config.
func TestAttackRound5_a_link_to_the_parent_of_a_repository_outside_stays_in_use(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"s.run(['git', 'init', '-q', t + '/r'])\n" +
				"s.run(['git', '-C', t + '/r', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
				"os.symlink(host, 'sub/deep')\n" +
				"print('LINKED', host)\n")})
			r3gitTry(w.home, filepath.Join(w.root, "sub", "deep", "r"), "status", "--short")
			if r3exists(mark) {
				t.Errorf("the user's git status in sub/deep/r (sub/deep a link to a step's temporary directory) ran its fsmonitor:\n%s", text)
			}
		})
	}
}

// A link is judged once, when it is made: a link whose target does not
// exist yet leads nowhere. One step makes the link, dangling; the next
// makes the repository at its target in the session's temporary
// directory (kept for the session, outside the roots). The link did not
// change, so nothing looks at it again.
func TestAttackRound5_a_dangling_link_whose_target_becomes_a_repository_stays_in_use(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text1, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"os.symlink(host + '/later', 'sub/deep')\n" +
				"print('LINKED', host)\n")})
			text2, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"s.run(['git', 'init', '-q', t + '/later'])\n" +
				"s.run(['git', '-C', t + '/later', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
				"print('MADE')\n")})
			r3gitTry(w.home, filepath.Join(w.root, "sub", "deep"), "status", "--short")
			if r3exists(mark) {
				t.Errorf("the user's git status in sub/deep (a link made dangling, its target made a repository by a later step) ran its fsmonitor:\n%s\n%s", text1, text2)
			}
		})
	}
}

// --- 4. credentials ---

// Credentials whose names hold none of the credential words and whose
// values have none of the shapes: Bundler's per-host credentials
// (BUNDLE_<HOST>, user:password, as Sidekiq Pro and GitHub Packages
// document), Yarn's npmAuthIdent, SonarQube's SONAR_LOGIN (a token),
// fastlane's FASTLANE_SESSION (an Apple ID session's cookies), a Groq
// or Vault token under a plain name.
func TestAttackRound5_credentials_of_other_shapes_reach_the_step(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	creds := map[string][2]string{
		"BUNDLE_GEMS__CONTRIBSYS__COM":      {"abcd1234:CANARYbun01xyz", "CANARYbun01"},
		"BUNDLE_RUBYGEMS__PKG__GITHUB__COM": {"octo:CANARYbun02xyzabcdef", "CANARYbun02"},
		"YARN_NPM_AUTH_IDENT":               {"ci-user:CANARYyarn03xyz", "CANARYyarn03"},
		"SONAR_LOGIN":                       {"squ_CANARYson04abcdef0123456789abcdef0123", "CANARYson04"},
		"FASTLANE_SESSION":                  {"---\n- !ruby/object:HTTP::Cookie\n  name: myacinfo\n  value: CANARYfl05xyz\n", "CANARYfl05"},
		"LLM_KEYS":                          {"gsk_CANARYgroq06abcdefghijklmnopqrstuvwxyz", "CANARYgroq06"},
		"VAULT_ADDR_AND_SESSION":            {"hvs.CANARYvault07abcdefghijklmnop", "CANARYvault07"},
	}
	credentialsStayOut(t, w, creds, []string{"env", r3py("import os; print(dict(os.environ))")})
}

// Credential files the environment names, outside the home's stores:
// sops' age keys (SOPS_AGE_KEY_FILE), a web identity token
// (AWS_WEB_IDENTITY_TOKEN_FILE), Ansible's vault password
// (ANSIBLE_VAULT_PASSWORD_FILE), Terraform's CLI config with its
// credentials block (TF_CLI_CONFIG_FILE), rclone's config moved
// (RCLONE_CONFIG), Helm's registry logins (HELM_REGISTRY_CONFIG),
// Docker's TLS client key (DOCKER_CERT_PATH). SecretEnv names others of
// the kind; these a step reads.
func TestAttackRound5_credential_files_the_environment_names_are_readable(t *testing.T) {
	t.Parallel()
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			files := map[string][2]string{
				"SOPS_AGE_KEY_FILE":           {"keys/age.txt", "AGE-SECRET-KEY-1 CANARYage01"},
				"AWS_WEB_IDENTITY_TOKEN_FILE": {"keys/token", "CANARYwit02"},
				"ANSIBLE_VAULT_PASSWORD_FILE": {"keys/vault-pass", "CANARYans03"},
				"TF_CLI_CONFIG_FILE":          {"keys/terraformrc", "credentials \"app.terraform.io\" { token = \"CANARYtf04\" }"},
				"RCLONE_CONFIG":               {"keys/rclone.conf", "[s3]\nsecret_access_key = CANARYrc05\n"},
				"HELM_REGISTRY_CONFIG":        {"keys/helm.json", "{\"auths\": {\"r\": {\"auth\": \"CANARYhelm06\"}}}"},
				"DOCKER_CERT_PATH":            {"keys/docker", ""},
			}
			var more, cat []string
			for k, v := range files {
				path := filepath.Join(w.home, v[0])
				if k == "DOCKER_CERT_PATH" {
					writeFile(t, filepath.Join(path, "key.pem"), "CANARYdck07\n", 0o600)
					cat = append(cat, filepath.Join(path, "key.pem"))
				} else {
					writeFile(t, path, v[1]+"\n", 0o600)
					cat = append(cat, path)
				}
				more = append(more, k+"="+path)
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), append(more, "EUKHE_CONFINEMENT="+mech)...)
			text, _ := p.call("bash", map[string]any{"script": "cat " + strings.Join(cat, " ")})
			text2, _ := p.call("bash", map[string]any{"script": r3py("import os\nfor k in " + fmt.Sprintf("%q", more) + ":\n  p = k.split('=', 1)[1]\n  if os.path.isdir(p): p += '/key.pem'\n  try: print(open(p).read())\n  except Exception as e: print(e)\n")})
			for _, c := range []string{"CANARYage01", "CANARYwit02", "CANARYans03", "CANARYtf04", "CANARYrc05", "CANARYhelm06", "CANARYdck07"} {
				if shows(text, c) || shows(text2, c) {
					t.Errorf("a step read %s from a credential file the environment names", c)
				}
			}
		})
	}
}

// --- 5. roots ---

// r5rootsMCP is eukhe mcp, without --root, for a client offering roots,
// in the world's environment.
func r5rootsMCP(t *testing.T, w *envWorld, dir string, roots ...string) (*mcp.ClientSession, *lockedWriter) {
	t.Helper()
	stderr := &lockedWriter{w: &strings.Builder{}}
	cmd := exec.Command(binary, "mcp")
	cmd.Dir, cmd.Stderr = dir, stderr
	cmd.Env = append(os.Environ(), w.withPath(os.Getenv("PATH"))...)
	c := mcp.NewClient(&mcp.Implementation{Name: "roots-client", Version: "1"}, nil)
	for _, r := range roots {
		c.AddRoots(&mcp.Root{URI: r})
	}
	cs, err := c.Connect(context.Background(), &mcp.CommandTransport{Command: cmd}, &mcp.ClientSessionOptions{ProtocolVersion: "2025-11-25"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	_ = time.Second
	return cs, stderr
}

func r5callText(cs *mcp.ClientSession, tool string, args map[string]any) string {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err.Error()
	}
	if len(res.Content) == 0 {
		return ""
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); ok {
		return tc.Text
	}
	return ""
}

// Held: a client's root is served as given, even a credential store
// (~/.ssh, ~/.aws), the user's home or /; its secrets stay secrets to
// read, a step, grep, and a program walking the root.
func r5rootsInAStore(t *testing.T) {
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	writeFile(t, filepath.Join(w.home, ".ssh", "id_ed25519"), "CANARYssh01\n", 0o600)
	writeFile(t, filepath.Join(w.home, ".aws", "credentials"), "[default]\nx = CANARYaws02\n", 0o600)
	needEdgeTools(t)
	for _, tc := range []struct{ root, file, canary string }{
		{filepath.Join(w.home, ".ssh"), "id_ed25519", "CANARYssh01"},
		{filepath.Join(w.home, ".aws"), "credentials", "CANARYaws02"},
		{w.home, ".ssh/id_ed25519", "CANARYssh01"},
		{"/", strings.TrimPrefix(filepath.Join(w.home, ".ssh", "id_ed25519"), "/"), "CANARYssh01"},
	} {
		cs, stderr := r5rootsMCP(t, w, w.root, "file://"+tc.root)
		r5callText(cs, "read", map[string]any{"path": "."})
		if first, _, _ := strings.Cut(stderr.String(), "\n"); !strings.Contains(first, "serving "+tc.root+" (the client's") {
			t.Errorf("root %s not served: %q", tc.root, first)
		}
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{"read", map[string]any{"path": tc.file}},
			{"bash", map[string]any{"script": "cat " + tc.file}},
			{"grep", map[string]any{"pattern": "CANARY", "path": "."}},
			{"bash", map[string]any{"script": r3py("import os\nfor r, ds, fs in os.walk('.'):\n  for f in fs:\n    p = os.path.join(r, f)\n    try: print(p, open(p).read()[:80])\n    except Exception: pass\n")}},
		} {
			if call.tool == "bash" && tc.root == "/" && strings.Contains(call.args["script"].(string), "walk") {
				continue
			}
			text := r5callText(cs, call.tool, call.args)
			if strings.Contains(text, tc.canary) {
				t.Errorf("root %s: %s %v read the secret %s", tc.root, call.tool, call.args, tc.canary)
			}
		}
	}
}

// --- 6. names: hook managers, the home's startup files, PATH spellings ---

// Hook managers' config by the names they also read: lefthook reads
// lefthook.{toml,json,jsonc} (and their dotted forms), the same names in
// .config/, the -local config in every format, and the scripts of
// .lefthook-local/ (source_dir_local); husky installed in a custom
// directory (`husky .config/husky`, as its docs show) sets core.hooksPath
// .config/husky/_, whose hooks run .config/husky/<hook>. Only the
// names .husky, lefthook.yml and a few others are protected: with read
// and write the agent writes these unasked, and the user's commit runs
// husky's.
func TestAttackRound5_hook_managers_config_by_other_names_is_written_unasked(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	r3git(t, w.home, w.root, "config", "core.hooksPath", ".config/husky/_")
	writeFile(t, filepath.Join(w.root, ".config", "husky", "_", "h"), r4huskyH, 0o644)
	for _, hook := range []string{"pre-commit", "commit-msg"} {
		writeFile(t, filepath.Join(w.root, ".config", "husky", "_", hook), "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n", 0o755)
	}
	writeFile(t, filepath.Join(w.root, ".config", "husky", "pre-commit"), "true\n", 0o644)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	p.call("read", map[string]any{"path": ".config/husky/pre-commit"})
	p.call("write", map[string]any{"path": ".config/husky/pre-commit", "content": "touch " + mark + "\n"})
	p.call("bash", map[string]any{"script": "echo 'touch " + mark + "' > .config/husky/commit-msg"})
	lefthook := map[string]string{
		"lefthook.toml":                   "[pre-commit.commands.x]\nrun = \"touch pwned\"\n",
		".lefthook.json":                  `{"pre-commit": {"commands": {"x": {"run": "touch pwned"}}}}` + "\n",
		"lefthook.jsonc":                  `{"pre-commit": {"commands": {"x": {"run": "touch pwned"}}}}` + "\n",
		".config/lefthook.yml":            "pre-commit:\n  commands:\n    x:\n      run: touch pwned\n",
		"lefthook-local.toml":             "[pre-commit.commands.x]\nrun = \"touch pwned\"\n",
		".lefthook-local/pre-commit/x.sh": "#!/bin/sh\ntouch pwned\n",
	}
	for name, content := range lefthook {
		p.call("write", map[string]any{"path": name, "content": content})
	}
	r3gitTry(w.home, w.root, "commit", "-q", "--allow-empty", "-m", "user's commit")
	if r3exists(mark) {
		t.Errorf("a husky script in husky's custom directory (.config/husky, hooksPath .config/husky/_) was written unasked and ran at the user's commit")
	}
	for name := range lefthook {
		if r3exists(filepath.Join(w.root, name)) {
			t.Errorf("lefthook's %s was written unasked", name)
		}
	}
}

// Programs the user's own tools run from the home, still only
// "outside": a .pth file in the user's site-packages (every python3 the
// user starts runs its import lines), ~/.bash_aliases (sourced by
// Debian's and Ubuntu's default ~/.bashrc), Neovim's data-dir plugins
// (~/.local/share/nvim/site/plugin, loaded at every start), fish's
// vendor_conf.d in the data dir, oh-my-zsh's custom dir, starship's
// prompt config (its custom modules' commands run at every prompt),
// mise's global config (hooks, sourced env), Gradle's init scripts,
// Cargo's config (build.rustc-wrapper), IPython's startup dir, gdb's
// ~/.gdbinit, and the user settings of VS Code Insiders, VSCodium and
// Windsurf (tasks run on folder open). A step that may write outside the
// workspace writes them unasked.
func TestAttackRound5_more_of_the_users_startup_files_are_only_outside(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
	mark := filepath.Join(w.base, "pwned")
	writeFile(t, filepath.Join(w.home, ".bashrc"), "if [ -f ~/.bash_aliases ]; then\n    . ~/.bash_aliases\nfi\n", 0o644)
	out, err := exec.Command("python3", "-c", "import sys; print('python%d.%d' % sys.version_info[:2])").Output()
	mustDo(t, err)
	pyver := strings.TrimSpace(string(out))
	// what a Rust user's home has: ~/.cargo/bin (rustup's)
	mustDo(t, os.MkdirAll(filepath.Join(w.home, ".cargo", "bin"), 0o755))
	mustDo(t, os.MkdirAll(filepath.Join(w.home, ".config"), 0o755))
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	files := map[string]string{
		".local/lib/" + pyver + "/site-packages/zz.pth": "import os; os.system('touch " + mark + "')\n",
		".bash_aliases":                            "touch " + mark + "\n",
		".local/share/nvim/site/plugin/x.lua":      "os.execute('touch " + mark + "')\n",
		".local/share/fish/vendor_conf.d/x.fish":   "touch " + mark + "\n",
		".oh-my-zsh/custom/x.zsh":                  "touch " + mark + "\n",
		".config/starship.toml":                    "[custom.x]\ncommand = \"touch " + mark + "\"\nwhen = true\n",
		".config/mise/config.toml":                 "[hooks]\nenter = \"touch " + mark + "\"\n",
		".gradle/init.d/x.gradle":                  "new File('" + mark + "').text = ''\n",
		".cargo/config.toml":                       "[build]\nrustc-wrapper = \"/bin/sh\"\n",
		".ipython/profile_default/startup/00-x.py": "open('" + mark + "', 'w')\n",
		".gdbinit": "shell touch " + mark + "\n",
		".config/Code - Insiders/User/tasks.json": `{"version": "2.0.0", "tasks": [{"label": "x", "type": "shell", "command": "touch ` + mark + `", "runOptions": {"runOn": "folderOpen"}}]}` + "\n",
		".config/VSCodium/User/tasks.json":        `{"version": "2.0.0", "tasks": [{"label": "x", "type": "shell", "command": "touch ` + mark + `", "runOptions": {"runOn": "folderOpen"}}]}` + "\n",
		".config/Windsurf/User/tasks.json":        `{"version": "2.0.0", "tasks": [{"label": "x", "type": "shell", "command": "touch ` + mark + `", "runOptions": {"runOn": "folderOpen"}}]}` + "\n",
	}
	for name, content := range files {
		script := "printf '%s' " + shellQuote(content) + " >> ~/" + shellQuote(name)
		if d := filepath.Dir(name); d != "." && d != ".config" && d != ".cargo" {
			script = "{ [ -d ~/" + shellQuote(d) + " ] || mkdir -p ~/" + shellQuote(d) + "; } && " + script
		}
		text, _ := p.call("bash", map[string]any{"script": script})
		if os.Getenv("R5DEBUG") != "" {
			t.Log(text)
		}
	}
	for name := range files {
		if r3exists(filepath.Join(w.home, name)) {
			t.Errorf("~/%s was written unasked", name)
		}
	}
	for _, argv := range [][]string{{"python3", "-c", "pass"}, {"bash", "-ic", "true"}, {"nvim", "--headless", "+qa"}} {
		if _, err := exec.LookPath(argv[0]); err != nil {
			testkit.MissingPart(t, argv[0]+" is not installed: the user's "+argv[0]+" is not started over the home the agent wrote")
			continue
		}
		cmd := exec.Command(argv[0], argv[1:]...)
		cmd.Env = append(os.Environ(), "HOME="+w.home, "XDG_DATA_HOME="+filepath.Join(w.home, ".local", "share"), "XDG_CONFIG_HOME="+filepath.Join(w.home, ".config"))
		cmd.Dir = w.root
		cmd.Run()
		if r3exists(mark) {
			t.Errorf("the user's %s ran the program the agent planted in the home", argv[0])
			os.Remove(mark)
		}
	}
}

// PATH="~/bin:…" (a literal tilde, as a quoted assignment in a startup
// file leaves it): bash expands it at every command search, so ~/bin is
// on the user's PATH. eukhe takes the entry as relative (not absolute)
// and protects <root>/~/bin and any path ending in /~/bin — not the
// home's bin: a step that may write outside the workspace plants ls
// there unasked, and the user's next `ls` in bash runs it.
func TestAttackRound5_a_tilde_PATH_entry_is_not_the_homes_bin(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
	path := "~/bin:" + os.Getenv("PATH")
	p := r3mcp(t, w, w.root, path)
	p.call("bash", map[string]any{"script": "mkdir -p ~/bin && printf '%s' " + shellQuote(planted) + " > ~/bin/ls && chmod +x ~/bin/ls"})
	cmd := exec.Command("bash", "-c", "ls /dev/null")
	cmd.Dir = w.root
	cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+w.home)
	out, _ := cmd.CombinedOutput()
	if strings.Contains(string(out), "PLANTEDRAN") {
		t.Errorf("the user's ls in bash ran the program the agent planted in ~/bin (PATH names it ~/bin): %s", out)
	}
}

// The sandbox does not rename a directory a process makes whose path
// ends with a relative PATH entry (EndRule is the gate's alone: "every
// build's bin/ would go"); it drops relative entries from the child's
// PATH. But the user's shell keeps them: a program (exec, not
// protected) makes sub/bin/ls and sub/node_modules/.bin/cat, and the
// user's ls and cat in sub run them.
func TestAttackRound5_a_relative_PATH_directory_a_program_makes_keeps_its_plant(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			path := "./bin:node_modules/.bin:" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"import os\n" +
					"for d, n in (('sub/bin', 'ls'), ('sub/node_modules/.bin', 'cat'), ('sub/bin', 'r5build')):\n" +
					"  os.makedirs(d, exist_ok=True); open(d + '/' + n, 'w').write(" + fmt.Sprintf("%q", planted) + "); os.chmod(d + '/' + n, 0o755)\n")})
			if !r3exists(filepath.Join(w.root, "sub", "bin", "r5build")) {
				t.Errorf("a build's own program in a relative PATH directory (named like no command) was renamed:\n%s", text)
			}
			for _, prog := range []string{"ls", "cat"} {
				cmd := exec.Command("sh", "-c", prog+" /dev/null")
				cmd.Dir = filepath.Join(w.root, "sub")
				cmd.Env = append(os.Environ(), "PATH="+path, "HOME="+w.home)
				out, _ := cmd.CombinedOutput()
				if strings.Contains(string(out), "PLANTEDRAN") {
					t.Errorf("the user's %s in sub ran the program a step's program planted in a relative PATH directory there: %s\n%s", prog, out, text)
				}
			}
		})
	}
}

// The repositories below the roots are found by a walk of at most
// 20,000 directories, breadth first: a workspace with more (one
// node_modules tree has as many) hides a nested repository deeper than
// them (here at depth three, past 20,100 directories at depth two), and its core.hooksPath and includes are plain files. The agent
// writes them with read and write; the user's commit and status there
// run them.
func TestAttackRound5_a_repository_below_the_root_past_the_walks_bound_has_unprotected_hooks(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	for i := range 20_100 {
		mustDo(t, os.MkdirAll(filepath.Join(w.root, "a", fmt.Sprintf("%05d", i)), 0o755))
	}
	nested := filepath.Join(w.root, "zz", "q", "lib")
	writeFile(t, filepath.Join(nested, "lib.txt"), "lib\n", 0o644)
	r3git(t, w.home, nested, "init", "-q")
	r3git(t, w.home, nested, "config", "core.hooksPath", ".githooks")
	r3git(t, w.home, nested, "config", "include.path", "../shared.gitconfig")
	writeFile(t, filepath.Join(nested, ".githooks", "pre-commit"), "#!/bin/sh\nexit 0\n", 0o755)
	writeFile(t, filepath.Join(nested, "shared.gitconfig"), "[alias]\n\tst = status\n", 0o644)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	p.call("read", map[string]any{"path": "zz/q/lib/.githooks/pre-commit"})
	p.call("write", map[string]any{"path": "zz/q/lib/.githooks/pre-commit", "content": r3hook(mark)})
	p.call("read", map[string]any{"path": "zz/q/lib/shared.gitconfig"})
	p.call("write", map[string]any{"path": "zz/q/lib/shared.gitconfig", "content": "[core]\n\tfsmonitor = \"touch " + mark + "; false\"\n"})
	r3gitTry(w.home, nested, "status", "--short")
	r3gitTry(w.home, nested, "commit", "-q", "--allow-empty", "-m", "user's commit")
	if r3exists(mark) {
		t.Errorf("the hook or included config of a repository below the root, past the walk's bound, was written unasked and ran at the user's git")
	}
}

// --- 7. a repository above the root ---

// A project that is not (yet) a repository: git looks for .git in each
// directory above it. GitWatch stamps those paths (a .git made there
// later is read) but nothing protects them: a step that may write
// outside the workspace makes ../.git with an fsmonitor program, and the
// user's git in the project (or the editor's, which offers the parent
// repository) runs it. The same with the root's own .git missing: the
// rule on <root>/.git protects it, the parent's is only "outside".
func TestAttackRound5_a_repository_a_step_makes_above_the_root_is_only_outside(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
			mark := filepath.Join(w.base, "pwned")
			root := filepath.Join(w.home, "work", "plain")
			writeFile(t, filepath.Join(root, "main.go"), "package main\n", 0o644)
			p := r3mcp(t, w, root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			// the gate asks for the words (write+protected); a program does it
			words, _ := p.call("bash", map[string]any{"script": "git init -q .. && git -C .. config core.fsmonitor 'touch " + mark + "; false'"})
			text, _ := p.call("bash", map[string]any{"script": r3py("import subprocess as s; s.run(['git', 'init', '-q', '..']); s.run(['git', '-C', '..', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])")})
			r3gitTry(w.home, root, "status", "--short")
			if r3exists(mark) {
				t.Errorf("the user's git status in the project ran the fsmonitor of a repository a step's program made in its parent:\n%s\n%s", words, text)
			}
		})
	}
}

// Past the map's 50,000-directory bound the tree is walked at every
// refresh for protected names only: a link is neither descended into nor
// looked at, so leadsToRepository (the fourth round's fix for a link out
// of the roots into a repository) never sees one made there. A step
// makes a repository with an fsmonitor program in its temporary
// directory and a link to it past the bound (at depth three, below
// 50,100 directories at depth two); the user's git there runs
// the program.
func TestAttackRound5_a_link_into_a_repository_outside_past_the_bound_stays_in_use(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			for i := range 50_100 {
				mustDo(t, os.MkdirAll(filepath.Join(w.root, "a", fmt.Sprintf("%05d", i)), 0o755))
			}
			mustDo(t, os.MkdirAll(filepath.Join(w.root, "zz", "q", "w"), 0o755))
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(r5hostTmp() +
				"s.run(['git', 'init', '-q', t + '/r'])\n" +
				"s.run(['git', '-C', t + '/r', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
				"os.symlink(host + '/r', 'zz/q/w/deep')\n" +
				"print('LINKED', host)\n")})
			r3gitTry(w.home, filepath.Join(w.root, "zz", "q", "w", "deep"), "status", "--short")
			if r3exists(mark) {
				t.Errorf("a link past the bound into a repository a step made in its temporary directory stayed in use; its fsmonitor ran at the user's git status:\n%s", text)
			}
		})
	}
}

// Held: GitWatch gives the places a changed git config names to the
// gate (SetMoreRules) and the sandbox gets them too. The user sets
// core.hooksPath and an include mid-session; a program of a step (exec,
// not protected) writes the hook and the included config.
func r5midSessionSandbox(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			writeFile(t, filepath.Join(w.root, ".githooks", "pre-commit"), "#!/bin/sh\nexit 0\n", 0o755)
			writeFile(t, filepath.Join(w.root, "shared.gitconfig"), "[alias]\n\tst = status\n", 0o644)
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			p.call("read", map[string]any{"path": "a.txt"})
			r3git(t, w.home, w.root, "config", "core.hooksPath", ".githooks")
			r3git(t, w.home, w.root, "config", "include.path", "../shared.gitconfig")
			p.call("read", map[string]any{"path": "a.txt"})
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"open('.githooks/pre-commit', 'w').write(" + fmt.Sprintf("%q", r3hook(mark)) + ")\n" +
					"open('shared.gitconfig', 'a').write('[core]\\n\\tfsmonitor = \"touch " + mark + "; false\"\\n')\n")})
			r3gitTry(w.home, w.root, "status", "--short")
			r3gitTry(w.home, w.root, "commit", "-q", "--allow-empty", "-m", "user's commit")
			if r3exists(mark) {
				t.Errorf("a program of a step wrote the hook or include the user set mid-session, and the user's git ran it:\n%s", text)
			}
			if !strings.Contains(text, "Read-only") && !strings.Contains(text, "ermission") {
				t.Errorf("the program's write was not refused for a reason the test knows:\n%s", text)
			}
		})
	}
}

// A protected entry is renamed NAME.eukhe-refused-ID-N, never replacing
// an entry, trying 100 names of a sequence, and when none is free it is
// only said. The live watch shows a step both parts: it makes a decoy
// .git, reads the name the watch renamed it to, fills the next thousands
// of names beside a directory with empty files, and makes the real .git
// (an fsmonitor program in its config) there. Neither the live watch nor
// the rename after the process finds a free name: the .git stays in
// use, and the user's git status there runs the program.
func TestAttackRound5_a_step_that_fills_the_refused_names_keeps_its_repository(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			mark := filepath.Join(w.base, "pwned")
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"import os, re, time, subprocess as s\n" +
					"os.makedirs('sub/r/.git')\n" +
					"names = []\n" +
					"for i in range(1000):\n" +
					"  names = [n for n in os.listdir('sub/r') if n.startswith('.git.eukhe-refused-')]\n" +
					"  if names: break\n" +
					"  time.sleep(0.01)\n" +
					"print('DECOY', names)\n" +
					"m = re.match(r'\\.git\\.eukhe-refused-(.+)-(\\d+)$', names[0])\n" +
					"rid, n = m.group(1), int(m.group(2))\n" +
					"for k in range(n + 1, n + 5000): open('sub/r/.git.eukhe-refused-%s-%d' % (rid, k), 'w').close()\n" +
					"s.run(['git', 'init', '-q', 'sub/r'])\n" +
					"s.run(['git', '-C', 'sub/r', 'config', 'core.fsmonitor', 'touch " + mark + "; false'])\n" +
					"print('MADE')\n")})
			r3gitTry(w.home, filepath.Join(w.root, "sub", "r"), "status", "--short")
			if r3exists(mark) {
				t.Errorf("a step that filled the names a .git is renamed to kept its repository; its fsmonitor ran at the user's git status:\n%s", text)
			}
		})
	}
}

func TestAttackRound5_controls(t *testing.T) {
	t.Parallel()
	t.Run("a hooksPath and include the user sets mid-session are read-only to a step's program", r5midSessionSandbox)
	t.Run("a root the client names inside a credential store, the home or / keeps its secrets", r5rootsInAStore)
	t.Run("a . PATH entry: ls written in a directory of the workspace is asked", func(t *testing.T) { r5pathEntry(t, ".", "sub/ls", "sub") })
	t.Run("an empty PATH entry: ls written in a directory of the workspace is asked", func(t *testing.T) { r5pathEntry(t, "", "sub/ls", "sub") })
	t.Run("the words git init .. are asked (write+protected)", func(t *testing.T) {
		w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
		root := filepath.Join(w.home, "work", "plain")
		writeFile(t, filepath.Join(root, "main.go"), "package main\n", 0o644)
		p := r3mcp(t, w, root, os.Getenv("PATH"))
		p.call("bash", map[string]any{"script": "git init -q .."})
		if r3exists(filepath.Join(w.home, "work", ".git")) {
			t.Errorf("git init .. ran unasked")
		}
	})
	t.Run("a write to ~/.cargo/config.toml's directory made anew is asked (an ancestor of a secret)", func(t *testing.T) {
		w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
		p := r3mcp(t, w, w.root, os.Getenv("PATH"))
		p.call("bash", map[string]any{"script": "mkdir -p ~/.cargo && echo x > ~/.cargo/config.toml"})
		if r3exists(filepath.Join(w.home, ".cargo", "config.toml")) {
			t.Errorf("~/.cargo made and written unasked")
		}
	})
}

// A follow-up of the fifth round, found while fixing it: the environment
// moves parts of the home's configuration elsewhere (CARGO_HOME,
// XDG_CONFIG_HOME, ZDOTDIR, PYTHONSTARTUP, …). A step allowed to write
// outside writes there as it would in the home: a cargo subcommand in
// $CARGO_HOME/bin, fish's config in $XDG_CONFIG_HOME, zsh's .zshrc in
// $ZDOTDIR — by the shell's words and by a program. The caches there
// ($CARGO_HOME/registry) stay writable.
func TestAttackRound5_moved_parts_of_the_home_are_its_configuration(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
			moved := filepath.Join(w.base, "moved")
			cargo, xdg, zdot := filepath.Join(moved, "cargo"), filepath.Join(moved, "config"), filepath.Join(moved, "zsh")
			for _, d := range []string{filepath.Join(cargo, "bin"), filepath.Join(cargo, "registry"), xdg, zdot} {
				mustDo(t, os.MkdirAll(d, 0o755))
			}
			// eukhe's own settings move with XDG_CONFIG_HOME
			settings, err := os.ReadFile(filepath.Join(w.home, ".config", "eukhe", "settings.json"))
			mustDo(t, err)
			writeFile(t, filepath.Join(xdg, "eukhe", "settings.json"), string(settings), 0o644)
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech,
				"CARGO_HOME="+cargo, "XDG_CONFIG_HOME="+xdg, "ZDOTDIR="+zdot)
			words, _ := p.call("bash", map[string]any{"script": "echo 'touch pwned' > " + shellQuote(filepath.Join(cargo, "bin", "cargo-x")) +
				"; mkdir -p " + shellQuote(filepath.Join(xdg, "fish")) + " && echo 'touch pwned' > " + shellQuote(filepath.Join(xdg, "fish", "config.fish"))})
			text, _ := p.call("bash", map[string]any{"script": r3py(
				"import os\n" +
					"for f in (" + fmt.Sprintf("%q, %q, %q", filepath.Join(zdot, ".zshrc"), filepath.Join(cargo, "config.toml"), filepath.Join(cargo, "registry", "cache.txt")) + "):\n" +
					"  try: open(f, 'w').write('x\\n')\n" +
					"  except OSError as e: print('REFUSED', f, e)\n")})
			for _, f := range []string{filepath.Join(cargo, "bin", "cargo-x"), filepath.Join(xdg, "fish", "config.fish"), filepath.Join(zdot, ".zshrc"), filepath.Join(cargo, "config.toml")} {
				if r3exists(f) {
					t.Errorf("%s was written unasked:\n%s\n%s", f, words, text)
				}
			}
			if !r3exists(filepath.Join(cargo, "registry", "cache.txt")) {
				t.Errorf("a step allowed outside could not write the cache $CARGO_HOME/registry:\n%s", text)
			}
		})
	}
}
