package gate

import "strings"

// The process filesystem. A path under /proc
// names a process's memory, environment, descriptors and working
// directory; its links (/proc/self, /proc/<pid>/cwd, /proc/<pid>/fd/N,
// /proc/<pid>/root) mean something else in each process that opens them.
// The gate runs in eukhe's process, while the program that opens the path
// is another, with another working directory, so following such a link
// here would judge the wrong file. Resolve therefore never follows a link
// under /proc: it keeps the rest of the path as written. And every path
// under /proc, and under /dev/fd (a link to /proc/self/fd), is a secret
// entry, but for the short list of harmless read-only files below and a
// process's own standard streams. A secret entry is Secret for every tool
// (read, write, search) and its ancestors (/, /dev) are Protected, as
// G1.2 says for any secret entry; so /proc/*/environ, eukhe's own
// environment included, is never read without a yes.

// procEntries are the secret entries every policy holds, whatever its
// places.
var procEntries = []string{"/proc", "/dev/fd"}

// procHarmless are the files under /proc that say nothing of any process
// and no secret: they are Outside, read-only files like any other.
var procHarmless = setOf(
	"/proc/cpuinfo", "/proc/meminfo", "/proc/loadavg", "/proc/version", "/proc/uptime",
	"/proc/stat", "/proc/filesystems", "/proc/partitions", "/proc/swaps", "/proc/diskstats",
	"/proc/vmstat", "/proc/devices", "/proc/crypto", "/proc/interrupts", "/proc/softirqs",
	"/proc/zoneinfo", "/proc/buddyinfo",
)

// StreamFD is the standard stream (0, 1 or 2) a path names by its alias —
// /dev/stdin, /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N,
// /proc/thread-self/fd/N — as written (cleaned) or as Resolve leaves it.
// Any other descriptor, or any other path, gives ok false. To the process
// that opens it the path is its own stream, which the gate judged as the
// step's pipe or redirection: a word or redirection naming it adds
// nothing.
func StreamFD(path string) (fd int, ok bool) {
	switch path {
	case "/dev/stdin":
		return 0, true
	case "/dev/stdout":
		return 1, true
	case "/dev/stderr":
		return 2, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"} {
		if rest, found := strings.CutPrefix(path, dir); found && len(rest) == 1 && rest[0] >= '0' && rest[0] <= '2' {
			return int(rest[0] - '0'), true
		}
	}
	return 0, false
}

// procExempt reports whether a path under a process entry is not a
// secret: a harmless file, or a standard stream's alias.
func procExempt(path string) bool {
	if procHarmless[path] {
		return true
	}
	_, ok := StreamFD(path)
	return ok
}

// underProc reports whether the real path so far (its parts) is under
// /proc, where Resolve follows no link.
func underProc(real []string) bool { return len(real) > 0 && real[0] == "proc" }
