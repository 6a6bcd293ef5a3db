package shell

import "fmt"

// noSandbox is Detect where eukhe has no mechanism for the system yet:
// none, with why. shell.confinement "require" then refuses every
// external program (sandbox.go), and "auto" runs them unconfined, as
// `eukhe check` says. ForceEnv is read as on Linux, so a wrong value is
// named; forcing bubblewrap or landlock here gives none with the reason.
func noSandbox(force, why string) Confinement {
	switch force {
	case "", string(Bubblewrap), string(Landlock), string(Unconfined):
	default:
		return Confinement{Mechanism: Unconfined, Why: fmt.Sprintf("%s=%q is not bubblewrap, landlock or none", ForceEnv, force)}
	}
	if force == string(Unconfined) {
		return Confinement{Mechanism: Unconfined, Why: ForceEnv + "=none"}
	}
	return Confinement{Mechanism: Unconfined, Why: why}
}
