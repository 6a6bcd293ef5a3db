package shell

// detect is Detect on FreeBSD: none (Capsicum and jails are not wired
// in). shell.confinement "require" refuses every external program here.
func detect(force string) Confinement {
	return noSandbox(force, "FreeBSD: no sandbox yet")
}
