//go:build open_attacks && linux

package shell

// The seventeenth red team's attacks on the sandbox that GOT THROUGH.
// Each asserts the safe outcome, so it fails while the hole is open. Run
// with -tags open_attacks.
