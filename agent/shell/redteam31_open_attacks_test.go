//go:build open_attacks && linux

package shell

// The thirty-first red team's attacks that GOT THROUGH (each asserts the
// safe outcome, so it fails while the hole is open). The held ones are
// in redteam31_held_linux_test.go, with the helpers both files use.
