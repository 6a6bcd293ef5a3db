package shell

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
)

// sandboxExec is where macOS keeps sandbox-exec (every macOS since 10.5;
// Apple marks it deprecated but ships it, and Codex and Claude Code
// confine with it too).
const sandboxExec = "/usr/bin/sandbox-exec"

// detect is Detect on macOS: Seatbelt when sandbox-exec runs a trivial
// profile here, else none with the reason. Nothing of this has run on a
// Mac yet: the profile's rules are tested on Linux as text
// (gate/confine_seatbelt_test.go).
func detect(force string) Confinement {
	switch force {
	case "", string(Seatbelt):
	case string(Unconfined):
		return Confinement{Mechanism: Unconfined, Why: ForceEnv + "=none"}
	default:
		return Confinement{Mechanism: Unconfined, Why: fmt.Sprintf("%s=%q is not seatbelt or none (macOS has no %s)", ForceEnv, force, force)}
	}
	var stderr bytes.Buffer
	cmd := exec.Command(sandboxExec, "-p", "(version 1)(allow default)", "/usr/bin/true")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return Confinement{Mechanism: Unconfined, Why: fmt.Sprintf("macOS: %s does not run a profile here (%s)", sandboxExec, msg)}
	}
	return Confinement{Mechanism: Seatbelt, SandboxExec: sandboxExec}
}
