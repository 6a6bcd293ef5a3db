package shell

// detect is Detect on macOS: none yet. This is the seam where Seatbelt
// (sandbox-exec with a profile made from gate's sandbox plan) will be
// added as a mechanism: a Seatbelt Mechanism constant, a probe here that
// finds /usr/bin/sandbox-exec and runs it once with a trivial profile,
// and the launch wrapping in a sandbox_darwin.go beside sandbox_linux.go
// (wrapLaunch). Until then shell.confinement "require" refuses every
// external program on macOS, and "auto" runs them unconfined.
func detect(force string) Confinement {
	return noSandbox(force, "macOS: Seatbelt is not wired in yet")
}
