package shell

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"

	"golang.org/x/sys/unix"
)

// Mechanism is how external processes are confined here.
type Mechanism string

// The mechanisms, best first.
const (
	Bubblewrap Mechanism = "bubblewrap"
	Landlock   Mechanism = "landlock"
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

// Detect finds the best mechanism that works here, once per value of
// ForceEnv: bubblewrap when `bwrap` is on PATH and can make its
// namespaces, else Landlock when the kernel has it, else none.
func Detect() Confinement {
	force := os.Getenv(ForceEnv)
	if c, ok := detected.Load(force); ok {
		return c.(Confinement)
	}
	c := detect(force)
	detected.Store(force, c)
	return c
}

func detect(force string) Confinement {
	switch force {
	case "", string(Bubblewrap), string(Landlock), string(Unconfined):
	default:
		return Confinement{Mechanism: Unconfined, Why: fmt.Sprintf("%s=%q is not bubblewrap, landlock or none", ForceEnv, force)}
	}
	if force == string(Unconfined) {
		return Confinement{Mechanism: Unconfined, Why: ForceEnv + "=none"}
	}
	var whys []string
	if force != string(Landlock) {
		bw, why := probeBwrap()
		if why == "" {
			abi, _ := probeLandlock()
			return Confinement{Mechanism: Bubblewrap, Bwrap: bw, LandlockABI: abi}
		}
		whys = append(whys, why)
		if force == string(Bubblewrap) {
			return Confinement{Mechanism: Unconfined, Why: why + "; " + InstallHint}
		}
	}
	abi, why := probeLandlock()
	self, err := os.Executable()
	if why == "" && err != nil {
		why = fmt.Sprintf("this program cannot find itself to apply Landlock (%v)", err)
	}
	if why == "" {
		c := Confinement{Mechanism: Landlock, Self: self, LandlockABI: abi}
		if force != string(Landlock) {
			c.Why = strings.Join(whys, "; ") + "; " + InstallHint
		}
		if abi < 4 {
			c.Why = strings.TrimPrefix(c.Why+fmt.Sprintf("; Landlock ABI %d has no network rules", abi), "; ")
		}
		return c
	}
	whys = append(whys, why)
	return Confinement{Mechanism: Unconfined, Why: strings.Join(whys, "; ") + "; " + InstallHint}
}

// probeBwrap finds bwrap and runs it with the namespaces a step needs.
func probeBwrap() (path, why string) {
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return "", "bwrap is not on PATH"
	}
	var stderr bytes.Buffer
	cmd := exec.Command(path, "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
		"--unshare-pid", "--unshare-ipc", "--unshare-net", "--die-with-parent", "--new-session", "true")
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", fmt.Sprintf("bwrap cannot make its namespaces here (%s)", msg)
	}
	return path, ""
}

// probeLandlock is the kernel's Landlock ABI version.
func probeLandlock() (int, string) {
	v, _, errno := unix.Syscall(unix.SYS_LANDLOCK_CREATE_RULESET, 0, 0, unix.LANDLOCK_CREATE_RULESET_VERSION)
	if errno != 0 {
		return 0, fmt.Sprintf("Landlock is not in this kernel (%v)", errno)
	}
	return int(v), ""
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
