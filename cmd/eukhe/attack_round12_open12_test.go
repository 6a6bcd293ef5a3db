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
