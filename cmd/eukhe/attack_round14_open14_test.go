//go:build open_attacks

package main

// The fourteenth red team's attacks through the real binary that GOT
// THROUGH (run with -tags open_attacks).

import "testing"

// What (target 4; severity high): direnv. The user's ~/.bashrc has
// direnv's hook (here its shape without direnv: a PROMPT_COMMAND that,
// in a directory with an allowed .envrc, puts that directory's bin
// first), and the project's sub/.envrc says PATH_add bin (as direnv
// projects do; layout node adds node_modules/.bin the same way). eukhe
// asks the user's shell in the home, where no .envrc is: the entry
// sub/bin is never known. A step plants sub/bin/ls unasked; the user's
// bash in a terminal in sub runs it. (Nothing is slow: the shell
// answers; the scan is not involved.)
// Root cause: the PATH the user's shells make is asked once, in the
// home (gate/settings/shellpath.go); a PATH that depends on the working
// directory (direnv, mise/asdf shims' per-directory PATH, zsh chpwd
// hooks, a cd function) is not seen, and a workspace directory an
// .envrc names (PATH_add, layout) is not taken as a PATH directory.
func TestAttackRound14_a_directory_dependent_PATH_direnv(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	r9shellTry(t, r9shellRow{name: "direnv", files: map[string]string{
		".bashrc":         "PROMPT_COMMAND='[ -f \"$PWD/.envrc\" ] && case \":$PATH:\" in *\":$PWD/bin:\"*) ;; *) PATH=\"$PWD/bin:$PATH\";; esac'\n",
		"proj/sub/.envrc": "PATH_add bin\n"},
		plant: "sub/bin/ls", tty: true, user: []string{"bash", "-i"}})
}
