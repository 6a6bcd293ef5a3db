package shell

// detect is Detect on Windows: none (no AppContainer or restricted token
// is wired in). shell.confinement "require" refuses every external
// program here.
func detect(force string) Confinement {
	return noSandbox(force, "Windows: no sandbox yet")
}
