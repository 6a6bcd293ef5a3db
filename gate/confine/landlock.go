package confine

import "sort"

// LandlockRule allows one path and everything below it: reading, and
// writing when Write is set. Dir tells a directory from a file (Landlock
// gives them different rights).
type LandlockRule struct {
	Path  string `json:"path"`
	Dir   bool   `json:"dir"`
	Write bool   `json:"write"`
}

// LandlockPlan is a sandbox as Landlock rules: an allow-list. Net false
// denies every TCP bind and connect (Landlock cannot tell loopback from
// the rest), and a seccomp filter refuses every socket but Unix and
// netlink (a UDP datagram or a TCP fast-open sendto passes Landlock's
// TCP rules).
type LandlockPlan struct {
	Rules []LandlockRule `json:"rules"`
	Net   bool           `json:"net"`
	// UnixSockets is true when the process may make Unix sockets:
	// Landlock cannot hide a socket from a connect by its path, so where
	// bubblewrap hides socket directories (secret: eukhe's and the agents';
	// net: /run), a Landlock process makes none (a seccomp filter).
	UnixSockets bool `json:"unixSockets"`
}

// landlockDevices are the devices a confined process may always write.
// Unlike bubblewrap's fresh /dev, Landlock sees the host's: /dev/shm (other
// programs' shared memory) and /dev/pts (the user's terminals) are left
// out.
var landlockDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/tty", "/dev/random", "/dev/urandom"}

// Landlock is the sandbox as Landlock rules. Landlock grants a path's whole
// tree, and cannot take a part of it back, so a directory with a mount
// below it gets no rule of its own, or only a read rule when nothing below
// it is hidden: each of its entries gets one, by the same rule, down to
// the mounts (the siblings of each secret and protected entry are listed,
// not their parent). Thus no file can be made or removed directly in such
// a directory (a root holding a read-only .git, when write is allowed and
// protected is not). readDir lists a directory's
// entries, without symbolic links (a link's rule would grant its target);
// a directory it cannot list gets no rule. Of /dev only the devices a
// program needs are granted (null, zero, tty, random, …: never a disk);
// of /proc, what is not a process (cpuinfo, meminfo, sys, …). The sandbox must have been planned
// with KeepTmp: Landlock cannot move a directory. It is pure given
// readDir.
func (s Sandbox) Landlock(readDir func(dir string) ([]Entry, error)) LandlockPlan {
	plan := LandlockPlan{Net: s.Net, UnixSockets: s.Net && s.Secret}
	// /dev itself is not granted: a disk's device would show every file.
	// Nor is /proc whole: another process's entries (its environ, with the
	// server's credentials) would show. Its entries that are not a
	// process are; the process's own is added as it starts (ConfineMain).
	if kids, err := readDir("/proc"); err == nil {
		sort.Slice(kids, func(i, j int) bool { return kids[i].Path < kids[j].Path })
		for _, k := range kids {
			if !isPid(k.Path[len("/proc/"):]) {
				plan.Rules = append(plan.Rules, LandlockRule{Path: k.Path, Dir: k.Dir})
			}
		}
	}
	for _, d := range landlockDevices {
		plan.Rules = append(plan.Rules, LandlockRule{Path: d, Write: true})
	}
	var visit func(e Entry)
	visit = func(e Entry) {
		if under(e.Path, "/dev") || under(e.Path, "/proc") {
			return
		}
		if !s.mountBelow(e.Path) || !e.Dir {
			if r := s.Reach(e.Path); !r.Hidden && r.Host == e.Path {
				plan.Rules = append(plan.Rules, LandlockRule{Path: e.Path, Dir: e.Dir, Write: r.Write})
			}
			return
		}
		if r := s.Reach(e.Path); !s.hideBelow(e.Path) && !r.Hidden && r.Host == e.Path {
			// Nothing below is hidden: the directory may be read whole; its
			// entries' rules add the writes.
			plan.Rules = append(plan.Rules, LandlockRule{Path: e.Path, Dir: true})
		}
		kids, err := readDir(e.Path)
		if err != nil {
			return
		}
		sort.Slice(kids, func(i, j int) bool { return kids[i].Path < kids[j].Path })
		for _, k := range kids {
			visit(k)
		}
	}
	visit(Entry{Path: "/", Dir: true})
	return plan
}

// mountBelow reports whether a mount other than the base lands strictly
// below dir.
func (s Sandbox) mountBelow(dir string) bool {
	for _, m := range s.Mounts {
		if m.Dst != dir && m.Dst != "/" && under(m.Dst, dir) {
			return true
		}
	}
	return false
}

// hideBelow reports whether a hiding mount lands strictly below dir.
func (s Sandbox) hideBelow(dir string) bool {
	for _, m := range s.Mounts {
		if (m.Kind == MountHideDir || m.Kind == MountHideFile) && m.Dst != dir && under(m.Dst, dir) {
			return true
		}
	}
	return false
}

func isPid(name string) bool {
	if name == "" {
		return false
	}
	for _, c := range name {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}
