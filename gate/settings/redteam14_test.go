package settings

// The fourteenth red team's attacks on the startup-file scan of a shell
// that did not answer (shellpath_scan.go) that HELD: other spellings of
// a relative PATH entry the scan finds. Those it misses are in
// redteam14_open14_test.go (build tag open_attacks).

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// r14scanCase is one unanswered shell's home: its files, the shell asked,
// and the relative entry the shell adds to PATH (a workspace directory
// once the user's terminal is in the workspace), which the scan must find.
type r14scanCase struct {
	name  string
	files map[string]string
	inv   shellInvocation
	env   map[string]string
	want  string
}

// r14scan writes c's files in a temporary home and tells whether the
// scan of the unanswered shell's startup files finds c.want.
func r14scan(t *testing.T, c r14scanCase) (string, bool) {
	t.Helper()
	home := t.TempDir()
	for rel, text := range c.files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home}
	for k, v := range c.env {
		env[k] = strings.ReplaceAll(v, "HOME", home)
	}
	got := scannedPathDirs(unansweredFiles(c.inv, env), home)
	return got, slices.Contains(strings.Split(got, ":"), c.want)
}

var (
	r14bash = shellInvocation{"/bin/bash", "-i", "-l", "-c"}
	r14zsh  = shellInvocation{"/usr/bin/zsh", "-i", "-c"}
	r14fish = shellInvocation{"/usr/bin/fish", "-i", "-c"}
)

// Attack (target 4): PATH+=, ${PATH} braces, a heredoc eval, fish's set
// -x, a sourced "$HOME/…" file, a sourced ${HOME} file, declare -x, a
// path+=( ) with quotes, $PATH:'x', POSIX sh's ENV file.
// Held: each is found.
func TestRedteam14_ScanFindsOtherSpellings(t *testing.T) {
	for _, c := range []r14scanCase{
		{name: "PATH+=", files: map[string]string{".bashrc": "PATH+=:tools\n"}, inv: r14bash, want: "tools"},
		{name: "${PATH}", files: map[string]string{".bashrc": "export PATH=\"${PATH}:tools\"\n"}, inv: r14bash, want: "tools"},
		{name: "heredoc", files: map[string]string{".bashrc": "eval \"$(cat <<'EOF'\nexport PATH=tools:$PATH\nEOF\n)\"\n"}, inv: r14bash, want: "tools"},
		{name: "set -x", files: map[string]string{".config/fish/config.fish": "set -x PATH tools $PATH\n"}, inv: r14fish, want: "tools"},
		{name: "sourced $HOME", files: map[string]string{".bashrc": ". \"$HOME/.paths\"\n", ".paths": "PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		{name: "declare -x", files: map[string]string{".bashrc": "declare -x PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		{name: "zsh path+=", files: map[string]string{".zshrc": "typeset -U path\npath+=('tools')\n"}, inv: r14zsh, want: "tools"},
		{name: "$PATH:'x'", files: map[string]string{".bashrc": "PATH=$PATH:'tools'\n"}, inv: r14bash, want: "tools"},
		{name: "ENV", files: map[string]string{".shrc": "PATH=tools:$PATH\n"}, env: map[string]string{"ENV": "HOME/.shrc"}, inv: shellInvocation{"/bin/dash", "-i", "-c"}, want: "tools"},
	} {
		if got, ok := r14scan(t, c); !ok {
			t.Errorf("THROUGH (%s): the scan found %q, not %q", c.name, got, c.want)
		}
	}
}

// Held (was open): the scan reads the text as a shell would where that is cheap (continuations, quotes, the file's variables, $PATH left out), follows relative, variable and globbed sources four levels down, and knows ksh, mksh, tcsh, fish's universal variables and ZDOTDIR set in ~/.zshenv (gate/settings/shellpath_scan.go).
// Attack (target 4; severity medium): real startup-file syntaxes the
// scan misses, one row each.
func TestRedteam14_ScanFindsEntries(t *testing.T) {
	conf := map[string]string{}
	for i := 0; i < 70; i++ {
		conf[".config/fish/conf.d/"+string(rune('a'+i/26))+string(rune('a'+i%26))+".fish"] = "set -g x 1\n"
	}
	conf[".config/fish/conf.d/zz.fish"] = "fish_add_path tools\n"
	for _, c := range []r14scanCase{
		// a quoted $PATH then the entry: the regexp's "…" alternative
		// takes only the quoted part
		{name: `"$PATH":x`, files: map[string]string{".bashrc": "export PATH=\"$PATH\":tools\n"}, inv: r14bash, want: "tools"},
		// the whole assignment quoted: no separator before PATH
		{name: `export "PATH=…"`, files: map[string]string{".bashrc": "export \"PATH=tools:$PATH\"\n"}, inv: r14bash, want: "tools"},
		// ${PATH:+:$PATH}: split at its colons, the entry keeps "${PATH"
		{name: "${PATH:+…}", files: map[string]string{".bashrc": "PATH=tools${PATH:+:$PATH}\n"}, inv: r14bash, want: "tools"},
		// a line continuation
		{name: "continuation", files: map[string]string{".bashrc": "export PATH=$PATH:\\\ntools\n"}, inv: r14bash, want: "tools"},
		// zsh's array appended without parentheses
		{name: "path+=x", files: map[string]string{".zshrc": "typeset -U path\npath+=tools\n"}, inv: r14zsh, want: "tools"},
		// ZDOTDIR set in ~/.zshenv (the common layout of ~/.config/zsh)
		{name: "ZDOTDIR in .zshenv", files: map[string]string{".zshenv": "export ZDOTDIR=$HOME/.config/zsh\n", ".config/zsh/.zshrc": "PATH=tools:$PATH\n"}, inv: r14zsh, want: "tools"},
		// a loop over a .bashrc.d directory (Fedora's default .bashrc)
		{name: ".bashrc.d loop", files: map[string]string{".bashrc": "for rc in ~/.bashrc.d/*; do . \"$rc\"; done\n", ".bashrc.d/path.sh": "PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		// a source by a relative name (the asked shell runs in the home)
		{name: "relative source", files: map[string]string{".bash_profile": ". .bash_paths\n", ".bash_paths": "PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		// a source through a variable (oh-my-zsh's $ZSH/oh-my-zsh.sh)
		{name: "variable source", files: map[string]string{".zshrc": "export ZSH=\"$HOME/.oh-my-zsh\"\nsource $ZSH/oh-my-zsh.sh\n", ".oh-my-zsh/oh-my-zsh.sh": "path+=(tools)\n"}, inv: r14zsh, want: "tools"},
		// three sources deep
		{name: "depth 3", files: map[string]string{".bashrc": ". ~/.a\n", ".a": ". ~/.b\n", ".b": ". ~/.c\n", ".c": "PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		// fish's universal variable, kept in fish_variables, not config.fish
		{name: "fish_variables", files: map[string]string{".config/fish/config.fish": "\n", ".config/fish/fish_variables": "# This file contains fish universal variable definitions.\nSETUVAR fish_user_paths:tools\n"}, inv: r14fish, want: "tools"},
		// more than 64 conf.d files
		{name: "conf.d past 64", files: conf, inv: r14fish, want: "tools"},
		// tcsh's path list (tcsh is asked: shellPathCommand runs in csh)
		{name: "tcsh", files: map[string]string{".tcshrc": "set path = (tools $path)\n"}, inv: shellInvocation{"/usr/bin/tcsh", "-i", "-c"}, want: "tools"},
		// ksh's ~/.kshrc (read when ENV is unset) and mksh's ~/.mkshrc
		{name: "kshrc", files: map[string]string{".kshrc": "PATH=tools:$PATH\n"}, inv: shellInvocation{"/bin/ksh", "-i", "-c"}, want: "tools"},
		{name: "mkshrc", files: map[string]string{".mkshrc": "PATH=tools:$PATH\n"}, inv: shellInvocation{"/bin/mksh", "-i", "-c"}, want: "tools"},
		// $PWD/…: the terminal's working directory, the workspace
		{name: "$PWD", files: map[string]string{".bashrc": "export PATH=\"$PWD/node_modules/.bin:$PATH\"\n"}, inv: r14bash, want: "node_modules/.bin"},
		// a # after a space inside quotes taken for a comment
		{name: "quoted #", files: map[string]string{".bashrc": "PS1='\\w # '; PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		// a prompt hook's assignment (run before each prompt), quoted
		{name: "prompt hook", files: map[string]string{".bashrc": "PROMPT_COMMAND='PATH=tools:$PATH'\n"}, inv: r14bash, want: "tools"},
		// a variable's value
		{name: "variable", files: map[string]string{".bashrc": "T=tools\nPATH=$T:$PATH\n"}, inv: r14bash, want: "tools"},
	} {
		if got, ok := r14scan(t, c); !ok {
			t.Errorf("THROUGH (%s): the scan found %q, not %q", c.name, got, c.want)
		}
	}
}
