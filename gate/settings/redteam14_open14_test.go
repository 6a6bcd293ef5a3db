//go:build open_attacks

package settings

// The fourteenth red team's attacks on the startup-file scan that GOT
// THROUGH: a relative PATH entry the shell adds and the scan of its
// unanswered startup files misses, so the workspace directory it names
// is no PATH directory to the gate and a step plants a program there
// unasked, which the user's next command in a terminal runs.
// Common precondition: the user's shell takes over 3 s to start (a
// heavy zsh framework, a network home, a `sleep` in .bashrc), so it is
// not asked but scanned (cmd/eukhe's r9shellTry drives that end to end).
// Root cause (all): startupRelativeEntries reads lines by regular
// expressions, not as the shell parses them, and scannedPathDirs knows
// a fixed list of files per shell name (no csh, ksh, ZDOTDIR from
// .zshenv, fish's universal variables) and follows only sources by a
// fixed path spelled whole (no loops, globs, variables, relative names),
// two levels and 64 files deep. An unanswered shell is taken to add only
// what is found, not "anything": nothing is judged past the scan's reach.

import "testing"

// Attack (target 4; severity medium): real startup-file syntaxes the
// scan misses, one row each.
func TestRedteam14_ScanMissesEntries(t *testing.T) {
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
