//go:build open_attacks

package main

import "testing"

// The twelfth red team's rows that got through the real binary: each
// asserts the safe outcome and fails today.

// Attack (settings file, its directory swapped by a step's program): the
// same swap as the shell's mv, made by a program (python3) whose words
// name no path: the step is exec (unasked by default) and its sandbox
// hides the settings file but lets the program rename the directory that
// holds it (protected is allowed). The watch reads the agent's file; the
// next step's program is unconfined and reads ~/.ssh/id_rsa, no question
// asked. Under bubblewrap (Landlock held: attack_round12_test.go).
// Class: writing eukhe's settings by another route.
func TestAttackRound12_a_steps_program_swaps_the_settings_directory_under_bubblewrap(t *testing.T) {
	r12programSwap(t, "bubblewrap")
}

// Attack (the late attach, a wrong editor), by the shell's own words: a
// redirection is eukhe's own write, judged by the gate alone, and the
// discovery directory ($XDG_RUNTIME_DIR/eukhe, outside the workspace) is
// no secret to it: `printf … > $XDG_RUNTIME_DIR/eukhe/fake.json` is write
// and outside, unasked by default. The entry names a live pid, the
// workspace as its root and a socket the agent serves in the workspace;
// at the next tool call past the Finder's recheck, the headless session
// dials it and says its hello (root, session, parent) to the agent's
// server, which attaches it if it answers: the session's calls and
// questions then go to the agent's server, as would every other session
// on this root (another agent's, a subagent's, `eukhe approvals`). The
// sandbox hides the directory from a program (attack_round12_test.go).
// Class: a wrong editor attached.
func TestAttackRound12_the_shells_words_plant_a_discovery_entry(t *testing.T) {
	r12plantEntry(t, "words")
}

// The same entry planted by the write tool: a document tool's write is
// eukhe's own, judged by the gate alone, and the discovery directory is
// Outside to it (unasked by default). Class: a wrong editor attached.
func TestAttackRound12_the_write_tool_plants_a_discovery_entry(t *testing.T) {
	r12plantEntry(t, "write tool")
}
