//go:build open_attacks

package main

// The attacks still open: each got through when it was written and still
// does; the closing note of the stop that found it says why it is not
// fixed yet. They build only with the tag open_attacks
// (go test -tags open_attacks -run TestAttackOpen ./cmd/eukhe), so CI
// stays green while they are kept where the next person finds them; the
// helpers they call are in the round's own file. Fixing one moves it back
// to its round's file. None is open now.
