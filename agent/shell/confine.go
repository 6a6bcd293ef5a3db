package shell

import (
	"fmt"
	"os"
	"sync"
)

// Mechanism is how external processes are confined here.
type Mechanism string

// The mechanisms, best first.
const (
	Bubblewrap Mechanism = "bubblewrap"
	Landlock   Mechanism = "landlock"
	// Seatbelt is macOS's: sandbox-exec with a profile made from the
	// same plan (confine.Sandbox.Seatbelt).
	Seatbelt   Mechanism = "seatbelt"
	Unconfined Mechanism = "none"
)

// ForceEnv names the variable that forces a mechanism (bubblewrap,
// landlock or none), for tests and for a user whose bubblewrap misbehaves.
// A forced mechanism that does not work here is none, with the reason.
const ForceEnv = "EUKHE_CONFINEMENT"

// Confinement is the mechanism in force and, when it is not bubblewrap,
// why (what is missing, what to install).
type Confinement struct {
	Mechanism Mechanism
	// Bwrap is the bubblewrap program.
	Bwrap string
	// SandboxExec is macOS's sandbox-exec.
	SandboxExec string
	// Self is this program, re-run to apply Landlock before the command.
	Self string
	// LandlockABI is the kernel's Landlock version (0: none); below 4 it
	// has no network rules.
	LandlockABI int
	Why         string
}

// String is how `eukhe check` and the editors show it:
// "bubblewrap", "landlock (…)", "none (…)".
func (c Confinement) String() string {
	if c.Why == "" {
		return string(c.Mechanism)
	}
	return fmt.Sprintf("%s (%s)", c.Mechanism, c.Why)
}

// InstallHint says how to get bubblewrap.
const InstallHint = "install bubblewrap (Debian and Ubuntu: apt install bubblewrap; Fedora: dnf install bubblewrap; Arch: pacman -S bubblewrap)"

var detected sync.Map // ForceEnv value → Confinement

// ConfineArg is the hidden first argument that makes eukhe (or a test
// binary) apply a Landlock plan and exec a command: `eukhe __confine PATH
// ARGV...`, with the plan as JSON on descriptor 3 (a pipe: an environment
// variable has a size limit, and a file could be rewritten by another
// confined process before it is read). The program's main calls
// ConfineMain before anything else when it sees it.
// On a system without Landlock, ConfineMain refuses (confine_nolinux.go).
const ConfineArg = "__confine"

// Detect finds the best mechanism that works here, once per value of
// ForceEnv: on Linux bubblewrap when `bwrap` is on PATH and can make its
// namespaces, else Landlock when the kernel has it, else none
// (detect_linux.go); on macOS, FreeBSD and Windows none yet, with why
// (detect_darwin.go, detect_freebsd.go, detect_windows.go).
func Detect() Confinement {
	force := os.Getenv(ForceEnv)
	if c, ok := detected.Load(force); ok {
		return c.(Confinement)
	}
	c := detect(force)
	detected.Store(force, c)
	return c
}

// Describe is the confinement in force under shell.confinement mode, as
// `eukhe check` and the editors show it.
func Describe(mode string) string {
	if mode == "off" {
		return string(Unconfined) + ` (shell.confinement is "off")`
	}
	c := Detect()
	if c.Mechanism == Unconfined && mode == "require" {
		return c.String() + `; shell.confinement is "require", so no external program runs`
	}
	return c.String()
}
