//go:build open_attacks

package main

// The fourteenth red team's attacks through the real binary that GOT
// THROUGH (run with -tags open_attacks).

import "testing"

// What (target 4; severity medium): ~/.bashrc takes longer than the
// bound when started in the home (a network mount, a slow plugin
// manager: eukhe asks there; the test keeps the user's own shell in the
// workspace fast) and then prepends a relative entry by a spelling the
// scan of its startup files misses: the ${PATH:+:$PATH} idiom, and a
// loop over ~/.bashrc.d (Fedora's default ~/.bashrc). A step plants
// sub/tools/ls unasked; the user's bash in sub runs it.
// Root cause: gate/settings/shellpath_scan.go reads PATH assignments by
// regular expressions ("tools${PATH" is taken for one entry with a
// variable and dropped) and follows sources by a fixed path only (no
// loop, glob or variable); an unanswered shell is taken to add only
// what the scan finds. (More misses, unit-level:
// gate/settings/redteam14_open14_test.go.)
func TestAttackRound14_a_slow_bashrc_prepends_by_an_idiom_the_scan_misses(t *testing.T) {
	needEdgeTools(t)
	slow := "[ \"$PWD\" = \"$HOME\" ] && sleep 5\n"
	for _, row := range []r9shellRow{
		{name: "${PATH:+…}", files: map[string]string{".bashrc": slow + "export PATH=tools${PATH:+:$PATH}\n"},
			plant: "sub/tools/ls", user: []string{"bash", "-ic", "ls /dev/null"}},
		{name: ".bashrc.d loop", files: map[string]string{".bashrc": slow + "for rc in ~/.bashrc.d/*; do . \"$rc\"; done\n", ".bashrc.d/path.sh": "export PATH=tools:$PATH\n"},
			plant: "sub/tools/ls", user: []string{"bash", "-ic", "ls /dev/null"}},
	} {
		t.Run(row.name, func(t *testing.T) { r9shellTry(t, row) })
	}
}

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
	needEdgeTools(t)
	r9shellTry(t, r9shellRow{name: "direnv", files: map[string]string{
		".bashrc":         "PROMPT_COMMAND='[ -f \"$PWD/.envrc\" ] && case \":$PATH:\" in *\":$PWD/bin:\"*) ;; *) PATH=\"$PWD/bin:$PATH\";; esac'\n",
		"proj/sub/.envrc": "PATH_add bin\n"},
		plant: "sub/bin/ls", tty: true, user: []string{"bash", "-i"}})
}
