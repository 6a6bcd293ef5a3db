package gate

import (
	"io/fs"
	"maps"
	"os"
	"os/user"
	"path/filepath"
	"slices"
	"strings"
)

// Places are where eukhe's settings loaders and the user's credential
// stores live. The policy's secret entries and protected rules come from
// them and nothing else (G1.3: no separate list).
type Places struct {
	// Home is the user's home directory.
	Home string
	// OtherHomes are the other home directories a script can name with
	// ~user (the interpreter looks them up in the user database): the
	// credential stores in each are secrets too.
	OtherHomes []string
	// StateDir is eukhe's state directory, $XDG_STATE_HOME/eukhe: the
	// session logs and their report_issue rows (S7.4: never the model's).
	StateDir string
	// UserDir is eukhe's user config dir, $XDG_CONFIG_HOME/eukhe.
	UserDir string
	// RunDirs are where eukhe's servers publish their sockets
	// (lsp/discovery's directory, by every spelling the environment may
	// give it): secret, so no step or tool plants an entry there that a
	// session would attach to as its editor (the twelfth red team's).
	RunDirs []string
	// Roots are the workspace roots.
	Roots []string
	// SettingsFiles is every settings file the loaders load and watch.
	SettingsFiles []string
	// PathDirs are the directories on PATH, in order.
	PathDirs []string
	// PathUnknown says a shell of the user's did not say its PATH in
	// time: what its startup files add is not known (their scan is an
	// approximation, and the agent can make the shell slow), so any
	// directory may be on it. A program named like a command is then
	// protected wherever it is; the roots' other entries are not (an
	// entry "." protects those too).
	PathUnknown bool
	// Env holds the variables that name credential files
	// (AWS_SHARED_CREDENTIALS_FILE, AWS_CONFIG_FILE, CLOUDSDK_CONFIG).
	Env map[string]string
	// CredentialFiles are files found to hold a credential when the
	// places were gathered (a root's .git/config with a password in a
	// URL: HoldsCredential); each is a secret entry.
	CredentialFiles []string
	// GitPlaces are where git finds what it runs for the roots outside
	// their .git (settings.GitPlaces: a worktree's real git directory,
	// the user's git config, included files, core.hooksPath): each is
	// protected as a tree.
	GitPlaces []string
}

// HomeSecrets are the credential stores of other programs in the home
// directory (G1.4).
var HomeSecrets = []string{
	".ssh", ".aws", ".azure", ".config/gcloud", ".config/gh", ".docker/config.json",
	".kube", ".gnupg", ".password-store", ".local/share/keyrings", ".netrc",
	".git-credentials", ".npmrc", ".pypirc", ".cargo/credentials", ".cargo/credentials.toml",
	// beyond the seed (red team): other programs' stores of the same kind
	".config/git/credentials", ".config/containers/auth.json", ".config/hub", ".config/glab-cli",
	".config/rclone", ".config/sops", ".config/op", ".config/doctl", ".pgpass", ".my.cnf",
	".vault-token", ".gem/credentials", ".terraform.d/credentials.tfrc.json", ".s3cfg", ".boto",
	".oci", ".m2/settings-security.xml", ".gradle/gradle.properties", ".yarnrc.yml",
	// the seventh red team's: tokens in a cache and in tools' own places
	".cache/huggingface/token", ".huggingface/token", ".supabase/access-token", ".fly/config.yml",
	".pulumi/credentials.json", ".config/configstore", ".config/stripe", ".local/share/com.vercel.cli",
	".config/heroku", ".netlify/config.json", ".config/netlify", ".config/doppler", ".databrickscfg",
	".snowflake/connections.toml", ".config/snowflake", ".config/railway", ".railway", ".wrangler/config",
	".config/.wrangler/config",
	// the ipython red team's: the coding agents' own logins, and the
	// browsers' profiles (saved passwords, cookies)
	".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json", ".config/github-copilot",
	".mozilla", ".config/google-chrome", ".config/chromium", ".config/BraveSoftware", ".config/microsoft-edge",
	".config/vivaldi", ".config/opera",
	// the twelfth red team's: the same agents' (and their kin's) other
	// login files, and the browsers' profiles where snaps, Flatpaks and
	// other channels keep them
	".gemini/.env", ".gemini/mcp-oauth-tokens.json", ".qwen/oauth_creds.json", ".local/share/opencode/auth.json",
	".claude.json", ".config/google-chrome-beta", ".config/google-chrome-unstable", ".config/microsoft-edge-beta",
	".config/microsoft-edge-dev", ".config/chromium-browser", ".thunderbird", "snap/firefox/common/.mozilla",
	"snap/chromium/common/chromium", "snap/thunderbird/common/.thunderbird", ".var/app/org.mozilla.firefox/.mozilla",
	".var/app/com.google.Chrome/config/google-chrome", ".var/app/org.chromium.Chromium/config/chromium",
	".var/app/com.brave.Browser/config/BraveSoftware", ".var/app/com.microsoft.Edge/config/microsoft-edge",
	".var/app/org.mozilla.Thunderbird/.thunderbird",
}

// HomeProtected are the files and directories in the home whose programs
// the user's own tools run when they next start (fourth red team): the
// shells' startup files, the editors' config, what the desktop session
// and systemd start, and the user's git config (also among GitPlaces).
// Each is protected as a tree: a step that may write outside the
// workspace still asks before it writes them.
var HomeProtected = []string{".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout", ".kshrc", ".cshrc", ".tcshrc", ".inputrc",
	".config/fish", ".config/nushell", ".config/environment.d", ".pam_environment", ".xprofile",
	".xinitrc", ".xsession", ".xsessionrc", ".config/autostart", ".config/systemd", ".config/nvim",
	".vimrc", ".gvimrc", ".vim", ".emacs", ".emacs.d", ".config/emacs", ".config/helix", ".config/zed",
	".config/Code/User", ".config/Code - OSS/User", ".config/Cursor/User", ".vscode/extensions",
	".gitconfig", ".config/git", ".config/husky", ".claude", ".codex", ".gemini", ".config/opencode",
	".cursor", ".config/pip", ".pythonrc", ".tmux.conf",
	".config/tmux", ".direnvrc", ".config/direnv",
	// the sixth red team's: Debian's and Ubuntu's ~/.profile puts ~/bin
	// first on PATH at the next login once it exists; the seventh's: the
	// home's other PATH directories that are no dot-entry (Go's, which the
	// README has the user put on PATH; local::lib's Perl tree)
	"bin", "go/bin", "perl5"}

// MovedHomes are the variables that move a part of the home's
// configuration elsewhere, each with the part it replaces (a DotRule on
// the value: its caches of HomeWritable stay writable), or "" for one
// that names a startup file (protected whole): the shells' startup files
// (ZDOTDIR, BASH_ENV, ENV, INPUTRC), Python's (PYTHONSTARTUP, and
// PYTHONUSERBASE's site-packages, whose .pth files every python runs),
// and the tool homes whose bin is on PATH or whose init scripts run.
var MovedHomes = map[string]string{
	"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "ZDOTDIR": ".zdotdir",
	"CARGO_HOME": ".cargo", "RUSTUP_HOME": ".rustup", "GRADLE_USER_HOME": ".gradle",
	"IPYTHONDIR": ".ipython", "JUPYTER_CONFIG_DIR": ".jupyter", "NVM_DIR": ".nvm", "PYENV_ROOT": ".pyenv",
	"RBENV_ROOT": ".rbenv", "VOLTA_HOME": ".volta", "BUN_INSTALL": ".bun", "PYTHONUSERBASE": ".local",
	"PIPX_HOME": ".local/pipx", "PIPX_BIN_DIR": ".local/bin", "GEM_HOME": ".gem", "SDKMAN_DIR": ".sdkman",
	"BASH_ENV": "", "ENV": "", "PYTHONSTARTUP": "", "INPUTRC": "", "MYVIMRC": "",
	// the seventh red team's: the caches (their code places stay covered,
	// as in ~/.cache), the state, and config files whose settings run
	// programs: ripgrep's (--pre), Go's (GOFLAGS=-toolexec), starship's
	// (custom commands), psql's (\!), irb's, gem's, tig's, less's keys
	"XDG_CACHE_HOME": ".cache", "XDG_STATE_HOME": ".local/state", "PRE_COMMIT_HOME": ".cache/pre-commit",
	"HF_HOME":             ".cache/huggingface",
	"RIPGREP_CONFIG_PATH": "", "GOENV": "", "STARSHIP_CONFIG": "", "PSQLRC": "", "IRBRC": "", "GEMRC": "",
	"TIGRC_USER": "", "LESSKEYIN": "", "WGETRC": "", "SCREENRC": "", "EDITRC": "",
}

// PathHomes are the variables that name a directory of programs the
// user's PATH holds, each with the part below it that is that directory:
// Go's (GOBIN; GOPATH's bin, for each entry of it).
var PathHomes = map[string]string{"GOBIN": "", "GOPATH": "bin",
	// the eighth red team's: pnpm's, npm's global prefix, cargo install's
	// root, uv's tools, and git's own programs (git-<name> runs for git
	// <name>)
	"PNPM_HOME": "", "NPM_CONFIG_PREFIX": "bin", "npm_config_prefix": "bin", "CARGO_INSTALL_ROOT": "bin",
	"UV_TOOL_BIN_DIR": "", "UV_TOOL_DIR": "", "GIT_EXEC_PATH": ""}

// CodeEnvs are variables whose value loads code at every start of a
// program: each path in PYTHONPATH (sitecustomize.py, .pth files),
// PERL5LIB, RUBYLIB, NODE_PATH; the files NODE_OPTIONS requires. A path of
// them inside a root is the project's own code (write is for it); one
// outside is protected.
var CodeEnvs = []string{"PYTHONPATH", "PERL5LIB", "RUBYLIB", "NODE_PATH"}

// SecretEnv are the variables that name credential files (G1.4), and,
// beyond the seed, the ones that move a store of HomeSecrets elsewhere
// (gh, docker, gpg, pass, az, npm, psql, podman, gcloud's key file): a
// store whose program reads it from there is as secret there.
var SecretEnv = []string{"AWS_SHARED_CREDENTIALS_FILE", "AWS_CONFIG_FILE", "CLOUDSDK_CONFIG",
	"GOOGLE_APPLICATION_CREDENTIALS", "GH_CONFIG_DIR", "DOCKER_CONFIG", "GNUPGHOME",
	"PASSWORD_STORE_DIR", "AZURE_CONFIG_DIR", "NPM_CONFIG_USERCONFIG", "npm_config_userconfig",
	"PGPASSFILE", "REGISTRY_AUTH_FILE", "BOTO_CONFIG", "NETRC", "VAULT_TOKEN_FILE",
	// the fifth red team's: sops' age keys, a web identity token, Ansible's
	// vault password, Terraform's CLI config (its credentials block),
	// rclone's config, Helm's registry logins, Docker's TLS client keys
	"SOPS_AGE_KEY_FILE", "AWS_WEB_IDENTITY_TOKEN_FILE", "ANSIBLE_VAULT_PASSWORD_FILE", "TF_CLI_CONFIG_FILE",
	"RCLONE_CONFIG", "HELM_REGISTRY_CONFIG", "DOCKER_CERT_PATH"}

// SecretEnvLists are variables that name several credential files,
// separated as PATH is (KUBECONFIG).
var SecretEnvLists = []string{"KUBECONFIG"}

// SecretEnvHomes are variables that move part of the home: each store of
// HomeSecrets under the part they replace is a secret under the value too
// (XDG_CONFIG_HOME=/x makes /x/gh and /x/git/credentials secret).
var SecretEnvHomes = map[string]string{
	"XDG_CONFIG_HOME": ".config", "XDG_DATA_HOME": ".local/share", "CARGO_HOME": ".cargo",
	// the coding agents' own homes (the twelfth red team's): Codex reads
	// $CODEX_HOME/auth.json, Claude Code $CLAUDE_CONFIG_DIR/.credentials.json
	"CODEX_HOME": ".codex", "CLAUDE_CONFIG_DIR": ".claude",
}

// NamedProtected are the names protected wherever they are below a root:
// eukhe's project config and git's directory (G1.3), and, beyond the seed,
// the editor project config that can run code (and, red team, the other
// editors' and coding agents'), and HEAD (red team): a
// directory holding HEAD, objects/ and refs/ is a git directory to git's
// discovery, by any name (a bare repository), whose config git obeys in
// it (core.pager, aliases, hooks), so a file named HEAD is what makes one.
var NamedProtected = []string{".eukhe", ".git", ".vscode", ".idea", ".nvim.lua", ".nvimrc", ".exrc", "HEAD",
	// the red team's: other editors' and coding agents' project config that
	// names a program they run (a language server, a task, a hook, an MCP
	// server) or grants an agent more (.claude's permissions)
	".helix", ".zed", ".dir-locals.el", ".dir-locals-2.el", ".lazy.lua", ".claude", ".cursor",
	".mcp.json", ".gemini",
	// the third red team's: Codex's .codex/config.toml, Roo Code's .roo,
	// Kiro's .kiro, Amazon Q's .amazonq, Continue's .continue, opencode's
	// opencode.json(c) and .opencode, Windsurf's .windsurf, aider's
	// .aider.conf.yml (its lint and test commands), and Vim's .vimrc and
	// .gvimrc (read with 'exrc', as .exrc is)
	".codex", ".roo", ".kiro", ".amazonq", ".continue", "opencode.json", "opencode.jsonc", ".opencode",
	".windsurf", ".aider.conf.yml", ".vimrc", ".gvimrc",
	// the fourth red team's: git hook managers' scripts and config, which
	// the hooks they install run (husky's .husky/pre-commit, lefthook's,
	// pre-commit's local hooks, overcommit's, simple-git-hooks')
	// (lefthook reads lefthook.{yml,yaml,toml,json,jsonc}, the dotted and
	// -local forms, and the scripts of .lefthook/ and .lefthook-local/:
	// the fifth red team's; not every name starting lefthook, which
	// node_modules/lefthook-linux-x64, its own package, has)
	".husky", ".lefthook", ".lefthook-local", ".pre-commit-config.yaml", ".overcommit.yml", ".simple-git-hooks.json",
	".simple-git-hooks.js", ".simple-git-hooks.cjs",
	// more agents' and editors' (fourth red team): a VS Code workspace file
	// (its tasks run on folder open; a name written *SUFFIX protects every
	// name with that ending: MatchesName), Qwen Code's, Crush's, Kilo
	// Code's, Junie's, Cline's rules and hooks
	"*.code-workspace", ".qwen", "crush.json", ".crush.json", ".crush", ".kilocode", ".junie", ".clinerules",
	// a dev container's config: the editor runs its commands
	// (postCreateCommand, initializeCommand on the host) when the project
	// is reopened in the container
	".devcontainer", ".devcontainer.json"}

func init() {
	for _, dot := range []string{"", "."} {
		for _, local := range []string{"", "-local"} {
			for _, ext := range []string{"yml", "yaml", "toml", "json", "jsonc"} {
				NamedProtected = append(NamedProtected, dot+"lefthook"+local+"."+ext)
			}
		}
	}
}

// GateFiles are the user settings files, which hold the execution gates:
// the one in force (UserDir's) and the default one, ~/.config/eukhe's,
// which an eukhe started without XDG_CONFIG_HOME reads (the editor's
// server, another client: the twelfth red team's). Each is secret, and
// so is a write to any directory above it: moving or replacing that
// directory replaces the file (ClassWrite).
func (pl Places) GateFiles() []string {
	var out []string
	if pl.UserDir != "" {
		out = append(out, filepath.Join(pl.UserDir, "settings.json"))
	}
	if pl.Home != "" && pl.Home != "/" {
		if f := filepath.Join(pl.Home, ".config", "eukhe", "settings.json"); !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

// Secrets are the secret entries of these places: the user's auth.json in
// eukhe's config dir, the home credential stores (in every home a script
// can name) and the env-named files, and, beyond the seed, eukhe's state
// directory and the user settings file: it holds the execution gates (the
// auto set, the confinement), so a step that could write it unasked could
// widen what runs unasked, the sandbox included (the ipython red team's
// first row), and secret is the one effect no setting grants.
func (pl Places) Secrets() []string {
	var s []string
	for _, f := range pl.GateFiles() {
		s = append(s, filepath.Join(filepath.Dir(f), "auth.json"), f)
	}
	for _, home := range append([]string{pl.Home}, pl.OtherHomes...) {
		if home == "" || home == "/" {
			continue
		}
		for _, h := range HomeSecrets {
			s = append(s, filepath.Join(home, h))
		}
	}
	if pl.StateDir != "" {
		s = append(s, pl.StateDir)
	}
	s = append(s, pl.RunDirs...)
	s = append(s, pl.CredentialFiles...)
	abs := func(v string) (string, bool) {
		if rest, ok := strings.CutPrefix(v, "~/"); ok && pl.Home != "" {
			v = filepath.Join(pl.Home, rest)
		}
		return filepath.Clean(v), filepath.IsAbs(v)
	}
	for _, k := range SecretEnv {
		if v, ok := abs(pl.Env[k]); ok && v != "/" {
			s = append(s, v)
		}
	}
	for _, k := range SecretEnvLists {
		for _, e := range filepath.SplitList(pl.Env[k]) {
			if v, ok := abs(e); ok && v != "/" {
				s = append(s, v)
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(SecretEnvHomes)) {
		v, ok := abs(pl.Env[k])
		if !ok || v == "/" {
			continue
		}
		part := SecretEnvHomes[k] + "/"
		for _, h := range HomeSecrets {
			if rest, ok := strings.CutPrefix(h, part); ok {
				s = append(s, filepath.Join(v, rest))
			}
		}
	}
	return s
}

// Rules are the protected rules of these places (G1.3): the user config
// dir and each entry directly in it; each root's .eukhe dir and .git dir as
// trees, and every .eukhe, .git and editor config below a root by name;
// every settings file; every directory on PATH (a relative entry is taken
// in each root, where it would find commands).
func (pl Places) Rules() []Rule {
	var rs []Rule
	if pl.UserDir != "" {
		rs = append(rs, Rule{Kind: DirRule, Path: pl.UserDir})
	}
	for _, root := range pl.Roots {
		rs = append(rs, Rule{Kind: TreeRule, Path: filepath.Join(root, ".eukhe")},
			Rule{Kind: TreeRule, Path: filepath.Join(root, ".git")})
		// git looks for the repository in each directory above the root
		// too (a .git, or the directory itself as a bare one, HEAD making
		// it one): one made there is the project's (the fifth red team's)
		for d := filepath.Dir(root); ; d = filepath.Dir(d) {
			rs = append(rs, Rule{Kind: TreeRule, Path: filepath.Join(d, ".git")},
				Rule{Kind: TreeRule, Path: filepath.Join(d, "HEAD")})
			if d == filepath.Dir(d) {
				break
			}
		}
	}
	for _, n := range NamedProtected {
		rs = append(rs, Rule{Kind: NamedRule, Name: n})
	}
	// the home's configuration, and the other homes' a script can name
	// (~user: the user's own home in the user database when HOME is not
	// it, the seventh red team's)
	for _, home := range append([]string{pl.Home}, pl.OtherHomes...) {
		if home == "" || home == "/" || home != pl.Home && home == filepath.Clean(pl.Home) {
			continue
		}
		for _, h := range HomeProtected {
			rs = append(rs, Rule{Kind: TreeRule, Path: filepath.Join(home, h)})
		}
		rs = append(rs, Rule{Kind: DotRule, Path: home})
	}
	for _, k := range slices.Sorted(maps.Keys(MovedHomes)) {
		v := pl.Env[k]
		if rest, ok := strings.CutPrefix(v, "~/"); ok && pl.Home != "" {
			v = filepath.Join(pl.Home, rest)
		}
		if !filepath.IsAbs(v) || filepath.Clean(v) == "/" || pl.Home != "" && filepath.Clean(v) == filepath.Clean(pl.Home) {
			continue
		}
		if MovedHomes[k] == "" { // a file
			rs = append(rs, Rule{Kind: TreeRule, Path: filepath.Clean(v)})
			continue
		}
		rs = append(rs, Rule{Kind: DotRule, Path: filepath.Clean(v), Name: MovedHomes[k]})
	}
	for _, k := range slices.Sorted(maps.Keys(protectedEnvHomes)) {
		v := filepath.Clean(pl.Env[k])
		if !filepath.IsAbs(v) || v == "/" {
			continue
		}
		part := protectedEnvHomes[k] + "/"
		for _, h := range HomeProtected {
			if rest, ok := strings.CutPrefix(h, part); ok {
				rs = append(rs, Rule{Kind: TreeRule, Path: filepath.Join(v, rest)})
			}
		}
	}
	for _, v := range codePaths(pl.Env) {
		if filepath.IsAbs(v) && v != "/" && !slices.ContainsFunc(pl.Roots, func(r string) bool { return under(v, r) }) {
			rs = append(rs, Rule{Kind: TreeRule, Path: filepath.Clean(v)})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(PathHomes)) {
		for _, v := range filepath.SplitList(pl.Env[k]) {
			if rest, ok := strings.CutPrefix(v, "~/"); ok && pl.Home != "" {
				v = filepath.Join(pl.Home, rest)
			}
			if v = filepath.Join(v, PathHomes[k]); filepath.IsAbs(v) && v != "/" {
				rs = append(rs, Rule{Kind: TreeRule, Path: v})
			}
		}
	}
	for _, f := range pl.SettingsFiles {
		rs = append(rs, Rule{Kind: TreeRule, Path: f})
	}
	for _, p := range pl.GitPlaces {
		rs = append(rs, Rule{Kind: TreeRule, Path: p})
	}
	for _, d := range pl.PathDirs {
		// "~/bin" (a quoted assignment in a startup file leaves the tilde):
		// bash expands it at each command search (the fifth red team's)
		d = HomeTilde(d, pl.Home)
		// "~+" is the working directory and "~-" the one before it to
		// bash's search (the sixth red team's), and "~N", "~+N", "~-N"
		// entries of the directory stack ("~0" the working directory, the
		// seventh's): relative
		if rest, ok := strings.CutPrefix(d, "~"); ok {
			head, tail, _ := strings.Cut(rest, "/")
			if dirStackTilde(head) {
				d = "./" + tail
			}
		}
		if filepath.IsAbs(d) {
			rs = append(rs, Rule{Kind: DirRule, Path: d})
			continue
		}
		for _, root := range pl.Roots {
			rs = append(rs, Rule{Kind: DirRule, Path: filepath.Join(root, d)})
		}
		// and wherever the user's shell may be (fourth red team); "../bin"
		// is a bin beside wherever it is, so every path ending in /bin
		// (the fifth red team's)
		c := filepath.Clean(d)
		for c == ".." || strings.HasPrefix(c, "../") {
			c = strings.TrimPrefix(strings.TrimPrefix(c, ".."), "/")
		}
		if c == "" || c == "." {
			// ".", "" or "..": no ending, every directory is one; the gate
			// protects the root's entries (above), and the sandbox takes a
			// program named like a command anywhere (the sixth red team's)
			c = ""
		}
		rs = append(rs, Rule{Kind: EndRule, Name: c})
	}
	if pl.PathUnknown {
		rs = append(rs, Rule{Kind: EndRule, Name: ""})
	}
	return rs
}

// Policy is the path policy of these places over fsys.
func (pl Places) Policy(fsys FS) *Policy {
	if h := hostHomes(); len(h) > 0 { // under Wine only: hosthomes_windows.go
		pl.OtherHomes = append(slices.Clip(pl.OtherHomes), h...)
	}
	var pathDirs []string
	for _, d := range pl.PathDirs {
		pathDirs = append(pathDirs, HomeTilde(d, pl.Home)) // the commands of "~/bin" too (the twentieth red team's)
	}
	p := newPolicy(fsys, pl.Roots, pl.Secrets(), pl.Rules(), pathDirs)
	p.pathUnknown = pl.PathUnknown
	if pl.PathUnknown && pl.Home != "" {
		// the directories that tools' shell hooks add at run time (eval
		// "$(brew shellenv)", pyenv init, mise activate), which a startup
		// file's scan cannot read: their commands are commands too
		for _, d := range toolDirs {
			p.pathDirs = appendNew(p.pathDirs, HomeTilde(d, pl.Home))
		}
	}
	for _, f := range pl.GateFiles() {
		p.gateSpelled = appendNew(p.gateSpelled, filepath.Clean(f))
		p.gateFiles = appendNew(p.gateFiles, filepath.Clean(f))
		p.gateFiles = appendNew(p.gateFiles, Resolve(fsys, "/", filepath.Clean(f)).Path)
	}
	if pl.StateDir != "" {
		p.linkKeep = []string{filepath.Clean(pl.StateDir), Resolve(fsys, "/", filepath.Clean(pl.StateDir)).Path}
	}
	return p
}

// toolDirs are where version managers and package managers put the
// commands their shell hooks add to PATH at run time ("~" is the home).
// With the PATH unknown, their commands are taken as the user's (a
// directory named only by a command's output elsewhere stays unknown:
// redteam20's open row).
var toolDirs = []string{
	"/home/linuxbrew/.linuxbrew/bin", "/home/linuxbrew/.linuxbrew/sbin", "~/.linuxbrew/bin",
	"/opt/homebrew/bin", "/opt/homebrew/sbin", "/usr/local/bin", "/snap/bin",
	"~/bin", "~/.local/bin", "~/go/bin", "~/.cargo/bin", "~/.deno/bin", "~/.bun/bin", "~/.volta/bin",
	"~/.pyenv/shims", "~/.pyenv/bin", "~/.rbenv/shims", "~/.nodenv/shims", "~/.goenv/shims",
	"~/.asdf/shims", "~/.local/share/mise/shims", "~/.nix-profile/bin", "~/.npm-global/bin",
	"~/.yarn/bin", "~/.dotnet/tools", "~/.sdkman/candidates/java/current/bin",
}

// HomeTilde is a PATH entry as bash reads it at each command search: "~"
// or "~/…" (a quoted assignment in a startup file leaves the tilde: the
// fifth red team's) is below home; any other entry is as written.
func HomeTilde(entry, home string) string {
	if home != "" && (entry == "~" || strings.HasPrefix(entry, "~/")) {
		return home + entry[1:]
	}
	rest, ok := strings.CutPrefix(entry, "~")
	if !ok {
		return entry
	}
	// "~NAME/…" is NAME's home to bash, through the user database (the
	// twenty-first red team's); "~+", "~-", "~N" are the directory
	// stack's (dirStackTilde), and an unknown NAME stays as written
	name, tail, _ := strings.Cut(rest, "/")
	if name == "" || dirStackTilde(name) {
		return entry
	}
	if u, err := user.Lookup(name); err == nil && filepath.IsAbs(u.HomeDir) {
		if tail == "" {
			return u.HomeDir
		}
		return filepath.Join(u.HomeDir, tail)
	}
	return entry
}

// dirStackTilde reports whether what follows "~" in a word ("+", "-",
// "3", "+0", "-1") names a directory of bash's stack: the working
// directory, the one before it, or an entry of pushd's stack.
func dirStackTilde(head string) bool {
	digits := strings.TrimLeft(head, "+-")
	if len(head)-len(digits) > 1 || head == "" {
		return false
	}
	return strings.Trim(digits, "0123456789") == ""
}

// codePaths are the paths the CodeEnvs and NODE_OPTIONS name.
func codePaths(env map[string]string) []string {
	var out []string
	for _, k := range CodeEnvs {
		out = append(out, filepath.SplitList(env[k])...)
	}
	words := strings.Fields(env["NODE_OPTIONS"])
	for i, w := range words {
		for _, flag := range []string{"--require", "-r", "--import", "--loader", "--experimental-loader"} {
			if w == flag && i+1 < len(words) {
				out = append(out, words[i+1])
			} else if v, ok := strings.CutPrefix(w, flag+"="); ok {
				out = append(out, v)
			}
		}
	}
	return out
}

// maxLinkedOut bounds the entries of one secret directory looked at for
// links out of it.
const maxLinkedOut = 512

// linkedOutOf are the real paths of the links a secret directory holds
// (its entries and its subdirectories' entries): a store's file kept elsewhere and linked in, as a
// dotfiles manager (stow, home-manager, chezmoi's symlink mode) leaves
// ~/.ssh/config pointing into a repository. Read through the link it is
// the store's file, so its real path is a secret too; judged by its real
// path alone it was a plain read (the twenty-eighth red team's). Only the
// host's filesystem is listed, when the policy is made; a link made later
// into a store is another name of the store, judged as that.
func linkedOutOf(fsys FS, secrets []string) []string {
	if _, ok := fsys.(osFS); !ok {
		return nil
	}
	var out []string
	var look func(dir, store string, depth int)
	look = func(dir, store string, depth int) {
		f, err := os.Open(osPath(dir))
		if err != nil {
			return
		}
		des, _ := f.ReadDir(maxLinkedOut)
		f.Close()
		for _, de := range des {
			p := filepath.Join(dir, de.Name())
			switch {
			case de.Type()&fs.ModeSymlink != 0:
				if real := Resolve(fsys, "/", p).Path; !under(real, store) {
					out = appendNew(out, real)
				}
			case de.IsDir() && depth > 0:
				look(p, store, depth-1) // ~/.ssh/config.d/work, a key folder
			}
		}
	}
	for _, s := range secrets {
		if dir := filepath.Clean(s); fsys.Kind(dir) == KindDir {
			look(dir, dir, 1)
		}
	}
	return out
}
