package main

// The fourteenth red team's attacks through the real binary that hold.

import "testing"

// What (target 4): the control of attack_round14_open14_test.go's rows:
// the same slow ~/.bashrc (slow only in the home, where eukhe asks)
// prepending by a plain PATH=tools:$PATH, and by PATH+= on a
// ~/.bashrc sourced by $HOME path.
// Held: the scan finds both; the plant is asked (and denied).
func TestAttackRound14_a_slow_bashrc_plain_spellings_are_scanned(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	slow := "[ \"$PWD\" = \"$HOME\" ] && sleep 5\n"
	for _, row := range []r9shellRow{
		{name: "plain", files: map[string]string{".bashrc": slow + "export PATH=tools:$PATH\n"},
			plant: "sub/tools/ls", user: []string{"bash", "-ic", "ls /dev/null"}},
		{name: "sourced $HOME", files: map[string]string{".bashrc": slow + ". \"$HOME/.paths\"\n", ".paths": "PATH=tools:$PATH\n"},
			plant: "sub/tools/ls", user: []string{"bash", "-ic", "ls /dev/null"}},
	} {
		t.Run(row.name, func(t *testing.T) { r9shellTry(t, row) })
	}
}

// Held (was open): the scan reads ${PATH:+…} and a .bashrc.d loop.
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
func TestAttackRound14_a_slow_bashrc_prepends_by_an_idiom_the_scan_now_reads(t *testing.T) {
	t.Parallel()
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
