//go:build !windows

package shell

// noFifoDir is a directory no file can be in: below /dev/null, which is a
// device on every Unix (interpEnv).
func noFifoDir() string { return "/dev/null/eukhe-no-fifos" }
