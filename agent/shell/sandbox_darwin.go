package shell

import "github.com/eukhe/eukhe/gate/confine"

// wrapLaunch puts Seatbelt around the program at path: sandbox-exec with
// the profile of the plan, every path of it passed as a parameter (-D),
// never spliced into the profile's text. The profile refuses Unix
// sockets itself unless net and secret are allowed, so noUnix (the Linux
// seccomp filter's) is not needed here. sandbox-exec has no option for a
// working directory: the process starts in dir as any other does.
func wrapLaunch(l *launch, c Confinement, s confine.Sandbox, path string, argv []string, dir string, noUnix bool) string {
	l.path = c.SandboxExec
	l.argv = seatbeltArgv(s, path, argv)
	return ""
}
