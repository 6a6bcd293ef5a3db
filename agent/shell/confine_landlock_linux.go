package shell

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"syscall"

	"github.com/eukhe/eukhe/gate/confine"
	"github.com/landlock-lsm/go-landlock/landlock"
	"golang.org/x/sys/unix"
)

// planFD is the descriptor the plan comes on.
const planFD = 3

// ConfineMain runs args[0] with argv args[1:] confined by the plan on
// descriptor 3: as the supervisor of its processes (confine_supervise_linux.go),
// whose inner run applies the plan to itself (Landlock stays with it
// across exec) and execs the program. It gives the program's status, or
// 126, as a command that cannot run.
func ConfineMain(args []string) int {
	if len(args) > 0 && args[0] == innerArg {
		return confineAndExec(args[1:])
	}
	if len(args) < 2 {
		fmt.Fprintf(os.Stderr, "eukhe %s: want PATH ARGV...\n", ConfineArg)
		return 126
	}
	return superviseConfined(args)
}

// confineAndExec applies the plan on descriptor 3 to this process and
// execs args[0] with argv args[1:]; it returns only on failure.
func confineAndExec(args []string) int {
	if len(args) < 2 {
		fmt.Fprintf(os.Stderr, "eukhe %s: want PATH ARGV...\n", ConfineArg)
		return 126
	}
	// The listener's socket (listenFD) is closed before the exec, and by
	// the exec if this run fails first.
	unix.CloseOnExec(listenFD)
	var plan confine.LandlockPlan
	f := os.NewFile(planFD, "landlock-plan")
	data, err := io.ReadAll(f)
	f.Close()
	if err == nil {
		err = json.Unmarshal(data, &plan)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "eukhe %s: the Landlock plan cannot be read from descriptor %d (%v); nothing ran\n", ConfineArg, planFD, err)
		return 126
	}
	// Capabilities are per thread; the exec below runs on this one.
	runtime.LockOSThread()
	unixOK := plan.UnixSockets
	// Each rule's object is opened once, here, with no link on the way:
	// Landlock takes those objects, and the supervisor judges by the same
	// ones, so no swap of a rule's path for a link, before Landlock or
	// between it and the supervisor, moves what either allows (the
	// twenty-fifth red team's).
	objects, err := openRuleObjects(plan)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: the sandbox (Landlock) could not open its rules (%v); nothing ran\n", args[1], err)
		return 126
	}
	defer objects.close()
	if err := applyLandlock(plan, objects); err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: the sandbox (Landlock) could not be set up (%v); nothing ran\n", args[1], err)
		return 126
	}
	// Every step gets the filter: it sends the calls that change a file's
	// metadata to the supervisor (and refuses io_uring, whose requests
	// seccomp does not see, and other ABIs' calls, whose numbers it does
	// not know), besides the sockets the plan forbids.
	listener, err := loadLandlockFilter(unixOK, plan.Net)
	if err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: the sandbox (Landlock) could not load its seccomp filter (%v); nothing ran\n", args[1], err)
		return 126
	}
	if listener >= 0 {
		// with the write rules' objects, the very ones Landlock took:
		// the supervisor judges by those, not by paths it would read
		// again later
		err := sendRules(listenFD, listener, objects.writes())
		unix.Close(listener) // the program never holds it
		objects.close()
		if err != nil {
			fmt.Fprintf(os.Stderr, "bash: %s: the sandbox (Landlock) could not hand its filter to its supervisor (%v); nothing ran\n", args[1], err)
			return 126
		}
	}
	unix.Close(listenFD)
	if err := dropCapabilities(); err != nil {
		fmt.Fprintf(os.Stderr, "bash: %s: the sandbox (Landlock) could not drop this process's capabilities (%v); nothing ran\n", args[1], err)
		return 126
	}
	err = syscall.Exec(args[0], args[1:], os.Environ())
	fmt.Fprintf(os.Stderr, "bash: %s: %v\n", args[1], err)
	return 126
}

// applyLandlock restricts this process to the plan's rules, on the
// objects openRuleObjects opened (through their /proc/self/fd entries,
// which name the open object, not a path read again): every file system
// right is handled, so what no rule names is denied; TCP bind and connect
// too when net is not allowed; signals and abstract sockets never leave
// the sandbox (ABI 6).
func applyLandlock(plan confine.LandlockPlan, objects ruleObjectSet) error {
	var rules []landlock.Rule
	for _, o := range objects {
		r, path := o.rule, "/proc/self/fd/"+strconv.Itoa(o.fd)
		var fr landlock.FSRule
		switch {
		case r.Dir && r.Write:
			fr = landlock.RWDirs(path).WithRefer().WithIoctlDev()
		case r.Dir:
			fr = landlock.RODirs(path)
		case r.Write:
			fr = landlock.RWFiles(path).WithIoctlDev()
		default:
			fr = landlock.ROFiles(path)
		}
		rules = append(rules, fr)
	}
	// The process's own /proc entry (exec keeps the pid): /proc/self/fd,
	// /proc/self/exe. A child it starts does not get its own.
	rules = append(rules, landlock.RODirs(fmt.Sprintf("/proc/%d", os.Getpid())))
	cfg := landlock.V6.BestEffort()
	if !plan.Net {
		return cfg.Restrict(rules...)
	}
	if err := cfg.RestrictPaths(rules...); err != nil {
		return err
	}
	return cfg.RestrictScoped()
}

// dropCapabilities drops every capability of this thread, bounding and
// ambient sets too, as bubblewrap does for root: Landlock does not stop a
// privileged process from loading a module or making a disk's device
// node and reading it.
func dropCapabilities() error {
	hdr := unix.CapUserHeader{Version: unix.LINUX_CAPABILITY_VERSION_3}
	var data [2]unix.CapUserData
	if err := unix.Capget(&hdr, &data[0]); err != nil {
		return err
	}
	if data[0].Permitted|data[1].Permitted|data[0].Effective|data[1].Effective == 0 {
		return nil // an unprivileged process: nothing to drop
	}
	for c := 0; c <= unix.CAP_LAST_CAP; c++ {
		if err := unix.Prctl(unix.PR_CAPBSET_DROP, uintptr(c), 0, 0, 0); err != nil && err != unix.EINVAL {
			return fmt.Errorf("bounding set, capability %d: %w", c, err)
		}
	}
	if err := unix.Prctl(unix.PR_CAP_AMBIENT, unix.PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0); err != nil && err != unix.EINVAL {
		return fmt.Errorf("ambient set: %w", err)
	}
	data = [2]unix.CapUserData{}
	return unix.Capset(&hdr, &data[0])
}
