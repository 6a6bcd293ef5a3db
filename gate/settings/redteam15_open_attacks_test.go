//go:build open_attacks && linux

package settings

// The fifteenth red team's attacks on the startup-file scan of a login
// shell that did not answer (shellpath_scan.go) that GOT THROUGH (run
// with -tags open_attacks). Each row asserts the safe outcome (the scan
// finds the relative PATH entry the shell adds) and fails while the
// hole is open. A relative entry the scan misses is a workspace
// directory the user's next command in a terminal there searches for
// programs: the agent writes a program there as a plain write, unasked.

import (
	"testing"
)

var r15tcsh = shellInvocation{"/usr/bin/tcsh", "-i", "-c"}

// r15scanRows runs each case and fails on each the scan misses.
func r15scanRows(t *testing.T, cases []r14scanCase) {
	t.Helper()
	for _, c := range cases {
		if got, ok := r14scan(t, c); !ok {
			t.Errorf("THROUGH (%s): the scan found %q, not %q", c.name, got, c.want)
		}
	}
}

// Attack (target 3): ZDOTDIR set in ~/.zshenv the way the XDG layout's
// guides spell it: with a default (${XDG_CONFIG_HOME:-$HOME/.config}),
// or through a variable the same file sets first.
// THROUGH (severity medium: both are the usual spellings of the
// ~/.config/zsh layout; the ~/.config/zsh/.zshrc of a zsh slower than
// the wait is never read): the zshrc's relative entry is not found.
// Root cause: zdotdirOf puts in HOME only (expandScan with
// {"HOME": home}), not the file's own variables (startupVars), and
// expandOnce takes a ${NAME:-default} whose NAME is unknown for unknown
// (scanMark) instead of its default.
func TestRedteam15_ScanMissesZdotdirSpelledTheXDGWay(t *testing.T) {
	r15scanRows(t, []r14scanCase{
		{name: "ZDOTDIR=${XDG_CONFIG_HOME:-$HOME/.config}/zsh", files: map[string]string{
			".zshenv":            "export ZDOTDIR=\"${XDG_CONFIG_HOME:-$HOME/.config}/zsh\"\n",
			".config/zsh/.zshrc": "path=(tools $path)\n"}, inv: r14zsh, want: "tools"},
		{name: "XDG_CONFIG_HOME then ZDOTDIR=$XDG_CONFIG_HOME/zsh", files: map[string]string{
			".zshenv":            "export XDG_CONFIG_HOME=\"$HOME/.config\"\nexport ZDOTDIR=\"$XDG_CONFIG_HOME/zsh\"\n",
			".config/zsh/.zshrc": "path=(tools $path)\n"}, inv: r14zsh, want: "tools"},
	})
}

// Attack (target 3): a file sourced by a path with a default
// (${ZDOTDIR:-$HOME}, ${XDG_CONFIG_HOME:-$HOME/.config}: the zsh manual's
// and the XDG guides' spelling), and a variable set in one startup file
// and used in the file it sources.
// THROUGH (severity medium): the sourced file's entry is not found.
// Root cause: expandScan makes an unknown ${NAME:-default} unknown
// (scanMark), so sourcedFiles drops the path; startupVars are per file,
// so a variable set in the sourcing file is unknown in the sourced one.
func TestRedteam15_ScanMissesSourcesThroughDefaultsAndCarriedVariables(t *testing.T) {
	r15scanRows(t, []r14scanCase{
		{name: ". ${XDG_CONFIG_HOME:-$HOME/.config}/shell/paths.sh", files: map[string]string{
			".bashrc":                ". \"${XDG_CONFIG_HOME:-$HOME/.config}/shell/paths.sh\"\n",
			".config/shell/paths.sh": "PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		{name: "source ${ZDOTDIR:-$HOME}/.zsh_paths", files: map[string]string{
			".zshrc":     "source ${ZDOTDIR:-$HOME}/.zsh_paths\n",
			".zsh_paths": "path=(tools $path)\n"}, inv: r14zsh, want: "tools"},
		{name: "variable set in .bashrc, used in the file it sources", files: map[string]string{
			".bashrc": "TOOLS=tools\n. ~/.paths\n",
			".paths":  "PATH=$TOOLS:$PATH\n"}, inv: r14bash, want: "tools"},
		{name: "for f in $XDG_CONFIG_HOME/bash/*.sh", files: map[string]string{
			".bashrc":              "XDG_CONFIG_HOME=$HOME/.config\nfor f in \"$XDG_CONFIG_HOME\"/bash/*.sh; do . \"$f\"; done\n",
			".config/bash/path.sh": "PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
	})
}

// Attack (target 3): other spellings of a PATH entry in the files the
// scan does read: zsh's path array over several lines, zsh's array
// insertion, csh/tcsh's setenv, a function that adds a directory not
// named bin, a value with a default, $(pwd) and `pwd` for $PWD, a fish
// variable (set, not NAME=).
// THROUGH (severity medium: the multi-line path=( ) is the common form
// of a zshrc's PATH; setenv PATH is csh's usual form): each entry is
// not found.
// Root cause: the scan is a set of one-line regular expressions over
// the text: pathArray wants its ')' on the same line, no pattern knows
// path[1,0]= or setenv PATH, a function's argument counts only when its
// last part is bin, a ${NAME:-default} and a command substitution are
// unknown, and startupVars knows only NAME=value.
func TestRedteam15_ScanMissesOtherSpellingsOfAnEntry(t *testing.T) {
	r15scanRows(t, []r14scanCase{
		{name: "zsh path=( ) over lines", files: map[string]string{".zshrc": "typeset -U path\npath=(\n  tools\n  $path\n)\n"}, inv: r14zsh, want: "tools"},
		{name: "zsh path[1,0]=", files: map[string]string{".zshrc": "path[1,0]=tools\n"}, inv: r14zsh, want: "tools"},
		{name: "tcsh setenv PATH", files: map[string]string{".cshrc": "setenv PATH tools:${PATH}\n"}, inv: r15tcsh, want: "tools"},
		{name: "pathadd scripts", files: map[string]string{".bashrc": "pathadd() { PATH=\"$1:$PATH\"; }\npathadd scripts\n"}, inv: r14bash, want: "scripts"},
		{name: "${T:-tools}", files: map[string]string{".bashrc": "export PATH=\"${TOOLS_DIR:-tools}:$PATH\"\n"}, inv: r14bash, want: "tools"},
		{name: "$(pwd)/tools", files: map[string]string{".bashrc": "export PATH=\"$(pwd)/tools:$PATH\"\n"}, inv: r14bash, want: "tools"},
		{name: "`pwd`/tools", files: map[string]string{".bashrc": "export PATH=\"`pwd`/tools:$PATH\"\n"}, inv: r14bash, want: "tools"},
		{name: "fish set -l d; fish_add_path $d", files: map[string]string{".config/fish/config.fish": "set -l d tools\nfish_add_path $d\n"}, inv: r14fish, want: "tools"},
	})
}

// Attack (target 3): fish's universal variables file as fish writes it:
// each value escaped (a "." as \x2e, as fish's universal-variable
// encoding has it), and an empty fish_user_paths (set -U
// fish_user_paths ""), which fish turns into the entry "." (fish-shell
// issue 12047: "SETUVAR fish_user_paths:" puts . first on PATH).
// THROUGH (severity medium: fish_variables is where fish_add_path
// keeps what it adds by default): neither entry is found.
// Root cause: the scan splits the SETUVAR value at the literal \x1e but
// decodes no other escape, and add() drops an entry holding "\" and an
// empty one, where an empty list element is the working directory.
func TestRedteam15_ScanMissesFishVariablesAsFishWritesThem(t *testing.T) {
	r15scanRows(t, []r14scanCase{
		{name: "escaped dot", files: map[string]string{".config/fish/fish_variables": "# This file contains fish universal variable definitions.\nSETUVAR fish_user_paths:node_modules/\\x2ebin\n"}, inv: r14fish, want: "node_modules/.bin"},
		{name: "empty fish_user_paths", files: map[string]string{".config/fish/fish_variables": "# This file contains fish universal variable definitions.\nSETUVAR fish_user_paths:\n"}, inv: r14fish, want: "."},
	})
}

// Attack (target 3): a POSIX sh (dash, the SHELL of some accounts) as a
// login shell reads ~/.profile, then the file ENV names; the usual
// ~/.profile sets ENV itself (ENV=$HOME/.shrc; export ENV), so ENV is
// not in eukhe's environment.
// THROUGH (severity low: sh as a login shell with an ENV file is rare
// on desktops): the .shrc's entry is not found.
// Root cause: startupFiles takes ENV from eukhe's environment only, not
// from the ~/.profile the same shell reads first (as zdotdirOf does for
// zsh's ZDOTDIR in ~/.zshenv).
func TestRedteam15_ScanMissesTheENVFileProfileNames(t *testing.T) {
	r15scanRows(t, []r14scanCase{
		{name: "ENV set in .profile", files: map[string]string{".profile": "ENV=$HOME/.shrc; export ENV\n", ".shrc": "PATH=tools:$PATH\n"}, inv: shellInvocation{"/bin/dash", "-i", "-l", "-c"}, want: "tools"},
	})
}

// Attack (target 3): oh-my-zsh, the most common zsh setup: ~/.zshrc sets
// ZSH and plugins and sources $ZSH/oh-my-zsh.sh, which sources each
// plugin by a loop variable from $ZSH_CUSTOM (set in oh-my-zsh.sh from
// $ZSH, which ~/.zshrc set). A custom plugin adds a relative entry.
// THROUGH (severity medium): the plugin's entry is not found.
// Root cause: the scan reads a sourced file with its own variables only
// (startupVars per file: $ZSH, set by ~/.zshrc, is unknown in
// oh-my-zsh.sh) and drops a source whose path holds a loop's variable;
// homeGlob knows only ~ and $HOME. At the root: a startup file's PATH is
// what a shell makes of it; a scan of text can only approximate it, so
// an unanswered shell should count as "unknown relative entries": every
// workspace directory the user's terminal could search (an EndRule for
// every name, i.e. a program planted anywhere in the workspace under a
// command's name asks), or the shell should be asked again, longer, in
// the background, before the first write is judged.
func TestRedteam15_ScanMissesAnOhMyZshCustomPlugin(t *testing.T) {
	r15scanRows(t, []r14scanCase{
		{name: "oh-my-zsh custom plugin", files: map[string]string{
			".zshrc":                  "export ZSH=\"$HOME/.oh-my-zsh\"\nplugins=(git mytools)\nsource $ZSH/oh-my-zsh.sh\n",
			".oh-my-zsh/oh-my-zsh.sh": "ZSH_CUSTOM=\"$ZSH/custom\"\nfor plugin ($plugins); do\n  source \"$ZSH_CUSTOM/plugins/$plugin/$plugin.plugin.zsh\"\ndone\n",
			".oh-my-zsh/custom/plugins/mytools/mytools.plugin.zsh": "path=(tools $path)\n",
		}, inv: r14zsh, want: "tools"},
	})
}

// Attack (target 3): the user's SHELL is one eukhe does not know by name
// (nushell, xonsh, elvish: growing in use), slower than the wait; its
// own startup file puts the relative entry tools on PATH.
// THROUGH (severity medium where such a shell is the login shell): the
// scan reads ~/.profile as for sh, not the shell's own file, and finds
// nothing.
// Root cause: unansweredFiles falls back to sh's files for a shell it
// does not know; the scan knows only the sh, csh and fish families'
// syntax. At the root: as TestRedteam15_ScanMissesAnOhMyZshCustomPlugin
// (an unanswered shell's PATH is unknown, and unknown must protect).
func TestRedteam15_ScanMissesShellsItDoesNotKnow(t *testing.T) {
	r15scanRows(t, []r14scanCase{
		{name: "nushell env.nu", files: map[string]string{".config/nushell/env.nu": "$env.PATH = ($env.PATH | split row (char esep) | prepend 'tools')\n"}, inv: shellInvocation{"/usr/bin/nu", "-i", "-c"}, want: "tools"},
		{name: "xonsh .xonshrc", files: map[string]string{".xonshrc": "$PATH.insert(0, 'tools')\n"}, inv: shellInvocation{"/usr/bin/xonsh", "-i", "-c"}, want: "tools"},
		{name: "elvish rc.elv", files: map[string]string{".config/elvish/rc.elv": "set paths = [tools $@paths]\n"}, inv: shellInvocation{"/usr/bin/elvish", "-i", "-c"}, want: "tools"},
	})
}
