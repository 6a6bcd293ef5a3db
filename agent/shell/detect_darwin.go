package shell

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/confine"
)

// sandboxExec is where macOS keeps sandbox-exec (every macOS since 10.5;
// Apple marks it deprecated but ships it, and Codex and Claude Code
// confine with it too).
const sandboxExec = "/usr/bin/sandbox-exec"

// detect is Detect on macOS: Seatbelt when sandbox-exec runs a trivial
// profile here and then a profile of eukhe's own making (a step allowed
// read and write in a temporary root, a secret hidden), else none with
// the reason: a profile this macOS will not load must not stop every
// program of every step. Nothing of this has run on a Mac yet: the
// profile's rules are tested on Linux as text
// (gate/confine/seatbelt_test.go).
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
	if why := probeProfile(); why != "" {
		return Confinement{Mechanism: Unconfined, Why: "macOS: " + why}
	}
	return Confinement{Mechanism: Seatbelt, SandboxExec: sandboxExec}
}

// probeProfile runs /usr/bin/true under a profile made as a step's is;
// "" when it ran.
func probeProfile() string {
	root, err := os.MkdirTemp("", "eukhe-seatbelt-probe-")
	if err != nil {
		return fmt.Sprintf("no temporary directory to probe Seatbelt in (%v)", err)
	}
	defer os.RemoveAll(root)
	s := confine.Plan(gate.Of(gate.Read, gate.Write), confine.Places{
		Roots:   []string{root},
		Secrets: []confine.Entry{{Path: root + "/secret", Dir: true}},
		TempDir: root,
		KeepTmp: true,
	})
	argv := seatbeltArgv(s, "/usr/bin/true", []string{"true"})
	var stderr bytes.Buffer
	cmd := exec.Command(sandboxExec, argv[1:]...)
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "eukhe's Seatbelt profile does not load here (" + msg + "); please report it"
	}
	return ""
}
