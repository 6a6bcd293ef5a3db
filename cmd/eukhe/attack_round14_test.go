package main

// The fourteenth red team's attacks through the real binary that hold.

import "testing"

// What (target 4): the control of attack_round14_open14_test.go's rows:
// the same slow ~/.bashrc (slow only in the home, where eukhe asks)
// prepending by a plain PATH=tools:$PATH, and by PATH+= on a
// ~/.bashrc sourced by $HOME path.
// Held: the scan finds both; the plant is asked (and denied).
func TestAttackRound14_a_slow_bashrc_plain_spellings_are_scanned(t *testing.T) {
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
