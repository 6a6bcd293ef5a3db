package shell

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"

	"golang.org/x/sys/unix"
)

// sandboxHint is what the refusal under shell.confinement "require" adds
// when no sandbox works: how to get bubblewrap.
const sandboxHint = InstallHint

// detect is Detect on Linux: bubblewrap, else Landlock, else none, each
// with why the better ones do not work here.
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
