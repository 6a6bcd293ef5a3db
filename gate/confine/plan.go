package confine

import (
	"slices"
	"sort"
	"strings"

	"github.com/eukhe/eukhe/gate"
)

// Confinement (DESIGN §9): the gate decides from a step's words;
// the sandbox makes the decision hold whatever a program does. Plan
// turns a step's allowed effects (the auto set ∪ what the user approved
// for it) and the places of the session into the mounts of a sandbox,
// last mount wins, as bubblewrap applies them:
//
//   - the whole file system, read-only, or writable when the step may
//     write outside;
//   - a fresh /dev (null, zero, tty, …) and a /proc of the sandbox's own
//     PID namespace, with /proc/sys and /sys read-only (as root,
//     kernel.core_pattern names a program the kernel runs as root);
//   - the session's private temporary directory at /tmp, writable (the
//     host's /tmp is not seen), unless the step may write outside: then
//     the host's /tmp stays, and the private one is at its own path;
//   - each workspace root and each shell.writableDirs entry, writable when
//     the step may write;
//   - each protected entry read-only, unless protected is allowed;
//   - each secret entry hidden (an empty read-only directory, or
//     /dev/null for a file), unless secret is allowed;
//   - the directories of local sockets (/run) hidden, unless net is
//     allowed; net not allowed also gives the sandbox a network of its own
//     with only loopback.
//
// The order is the order of the classes of G1.2 (secret wins over
// protected, protected over inside, inside over outside).

// MountKind is what one mount of a sandbox does.
type MountKind uint8

// The mount kinds.
const (
	// MountRO binds Src at Dst read-only.
	MountRO MountKind = iota + 1
	// MountRW binds Src at Dst writable.
	MountRW
	// MountHideDir puts an empty read-only directory at Dst.
	MountHideDir
	// MountHideFile puts /dev/null, read-only, at Dst.
	MountHideFile
	// MountDev is a fresh /dev of devices only (null, zero, tty, …).
	MountDev
	// MountProc is the /proc of the sandbox's PID namespace.
	MountProc
)

// Mount is one mount of a sandbox.
type Mount struct {
	Kind     MountKind
	Src, Dst string
}

// Entry is an entry that exists, and whether it is a directory.
type Entry struct {
	Path string
	Dir  bool
}

// Places are the places a sandbox is built from, real and
// absolute, as the session finds them when a process starts. Only
// entries that exist are listed: a mount needs something to cover.
type Places struct {
	// Roots are the real workspace roots.
	Roots []string
	// Secrets are the secret entries (G1.4) and eukhe's own state (its
	// socket and state directories): hidden unless secret is allowed.
	Secrets []Entry
	// Protected are the protected entries (G1.3): read-only unless
	// protected is allowed.
	Protected []Entry
	// Writable are the shell.writableDirs: writable when write is allowed.
	Writable []string
	// TempDir is the session's private temporary directory.
	TempDir string
	// Sockets are directories of local sockets (/run): hidden unless net is
	// allowed.
	Sockets []Entry
	// Keep are places that must stay visible at their own path when /tmp
	// becomes the temporary directory: the working directory, the home,
	// the PATH directories.
	Keep []string
	// KeepTmp keeps /tmp as it is and the temporary directory at its own
	// path (Landlock cannot move a directory).
	KeepTmp bool
	// Pinned are directories no process may rename, remove or replace
	// (the directories above the user settings files, Policy.GateDirs):
	// each is bound onto itself, and a mount point cannot be renamed or
	// removed (EBUSY), whatever may be written in it.
	Pinned []string
	// Frozen are the directories of the user settings files
	// (Policy.GateFileDirs): read-only unless secret is allowed, so no
	// process makes a settings file that is missing (eukhe makes these
	// directories when it makes the policy: settings.Paths.Policy).
	Frozen []string
	// Sealed are directories read-only to every process, whatever it may
	// do (secret and protected too): the process substitutions' pipes,
	// which the shell opens by its own path, past every judgment.
	Sealed []string
	// Private are eukhe's own state (its state and socket directories):
	// hidden from every process, whatever it was allowed. No approval
	// lends them: they hold the key that signs the editor's entries and
	// the copies of places an approval narrowed (the thirty-fourth red
	// team's: a step lent them rewrote another program's copy).
	Private []Entry
}

// Sandbox is the plan of one confined process.
type Sandbox struct {
	Mounts []Mount
	// Net is true when the sandbox shares the network; false gives it a
	// network namespace of its own (loopback only).
	Net bool
	// Secret is true when the sandbox shows the secret entries (secret
	// allowed): with Net, its processes may reach every Unix socket.
	Secret bool
	// TempDir is where the private temporary directory is inside the
	// sandbox: /tmp, or its own path when /tmp cannot be replaced (a root
	// or a place to keep is /tmp or holds it).
	TempDir string
}

// Plan is the sandbox of a process allowed these effects in these
// places. It is pure.
func Plan(allowed gate.Effects, pl Places) Sandbox {
	write := allowed.Has(gate.Write)
	outside := write && allowed.Has(gate.Outside)
	s := Sandbox{Net: allowed.Has(gate.Net), Secret: allowed.Has(gate.Secret)}
	base := MountRO
	if outside || write && (slices.Contains(pl.Roots, "/") || slices.Contains(pl.Writable, "/")) {
		base = MountRW
	}
	s.Mounts = append(s.Mounts, Mount{Kind: base, Src: "/", Dst: "/"},
		Mount{Kind: MountDev, Dst: "/dev"}, Mount{Kind: MountProc, Dst: "/proc"})

	// Every place that stays visible, with the mode it gets.
	// A place only kept (keep) is mounted only where it would not show
	// at its own path; it never changes what may be written.
	type place struct {
		path string
		kind MountKind
		keep bool
	}
	var places []place
	add := func(p string, k MountKind, keep bool) {
		if p == "" || p == "/" {
			return
		}
		for i := range places {
			if places[i].path == p {
				if !keep {
					places[i].keep = false
					if k == MountRW {
						places[i].kind = MountRW
					}
				}
				return
			}
		}
		places = append(places, place{p, k, keep})
	}
	placeKind := func(rw bool) MountKind {
		if rw || outside {
			return MountRW
		}
		return MountRO
	}
	for _, r := range pl.Roots {
		add(r, placeKind(write), false)
	}
	for _, w := range pl.Writable {
		add(w, placeKind(write), false)
	}
	for _, k := range pl.Keep {
		add(k, placeKind(false), true)
	}

	sort.SliceStable(places, func(i, j int) bool { return depth(places[i].path) < depth(places[j].path) })

	remap := pl.TempDir != "" && !pl.KeepTmp && !outside
	for _, p := range slices.Concat(pl.Roots, pl.Writable, pl.Keep) {
		if under("/tmp", p) {
			remap = false // the place is /tmp or holds it: /tmp stays
		}
	}
	if pl.TempDir != "" {
		s.TempDir = pl.TempDir
		if remap {
			s.TempDir = "/tmp"
		}
		s.Mounts = append(s.Mounts, Mount{Kind: MountRW, Src: pl.TempDir, Dst: s.TempDir})
	}
	for _, p := range places {
		if under(p.path, "/dev") || under(p.path, "/proc") {
			continue
		}
		r := s.Reach(p.path)
		if p.keep && r.Host == p.path {
			continue
		}
		if remap && under(p.path, "/tmp") || r.Host != p.path || r.Write != (p.kind == MountRW) {
			s.Mounts = append(s.Mounts, Mount{Kind: p.kind, Src: p.path, Dst: p.path})
		}
	}
	// The kernel's settings stay read-only, whatever may be written: run
	// by root, a process that writes /proc/sys/kernel/core_pattern makes
	// the kernel run a program of its choosing as root outside any
	// sandbox at the next crash (and /sys has its like).
	for _, k := range kernelSettings {
		s.Mounts = append(s.Mounts, Mount{Kind: MountRO, Src: k, Dst: k})
	}
	if !allowed.Has(gate.Protected) {
		for _, e := range sortedEntries(pl.Protected) {
			if r := s.Reach(e.Path); r.Host == e.Path && r.Write {
				s.Mounts = append(s.Mounts, Mount{Kind: MountRO, Src: e.Path, Dst: e.Path})
			}
		}
	}
	frozen := pl.Sealed
	if !allowed.Has(gate.Secret) {
		frozen = slices.Concat(pl.Frozen, pl.Sealed)
	}
	for _, d := range sortedByDepth(frozen) {
		if r := s.Reach(d); r.Host == d && r.Write {
			s.Mounts = append(s.Mounts, Mount{Kind: MountRO, Src: d, Dst: d})
		}
	}
	hide := func(es []Entry) {
		for _, e := range sortedEntries(es) {
			if r := s.Reach(e.Path); r.Host != e.Path {
				continue // not visible at its own path: nothing to hide
			}
			k := MountHideFile
			if e.Dir {
				k = MountHideDir
			}
			s.Mounts = append(s.Mounts, Mount{Kind: k, Dst: e.Path})
		}
	}
	if !allowed.Has(gate.Secret) {
		hide(pl.Secrets)
	}
	if !s.Net {
		hide(pl.Sockets)
	}
	hide(pl.Private)
	s.pin(pl.Pinned)
	return s
}

// pin makes each directory of dirs that shows at its own path a mount of
// its own, as it shows (its writability kept), placed before every mount
// below it: a mount point cannot be renamed or removed, so no process
// replaces it, and no path's reach changes.
func (s *Sandbox) pin(dirs []string) {
	for _, d := range sortedByDepth(dirs) {
		r := s.Reach(d)
		if r.Host != d || r.Hidden {
			continue // not there as itself: nothing to replace
		}
		at := len(s.Mounts)
		already := false
		for i, m := range s.Mounts {
			if m.Dst == d && (m.Kind == MountRO || m.Kind == MountRW) {
				already = true
			}
			if m.Dst != d && under(m.Dst, d) && i < at {
				at = i
			}
		}
		if already {
			continue
		}
		k := MountRO
		if r.Write {
			k = MountRW
		}
		s.Mounts = slices.Insert(s.Mounts, at, Mount{Kind: k, Src: d, Dst: d})
	}
}

// sortedByDepth is dirs, the shallowest first.
func sortedByDepth(dirs []string) []string {
	out := slices.Clone(dirs)
	sort.SliceStable(out, func(i, j int) bool { return depth(out[i]) < depth(out[j]) })
	return out
}

// kernelSettings are bound read-only over themselves in every sandbox,
// after /proc is mounted.
var kernelSettings = []string{"/sys", "/proc/sys"}

// sortedEntries is es, shallow first, so a deeper entry's mount lands on
// top of an ancestor's.
func sortedEntries(es []Entry) []Entry {
	out := append([]Entry(nil), es...)
	sort.SliceStable(out, func(i, j int) bool { return depth(out[i].Path) < depth(out[j].Path) })
	return out
}

// Reach is what a path inside the sandbox shows.
type Reach struct {
	// Host is the host path it shows; "" when it shows no host file (a
	// hidden entry, /dev, /proc).
	Host string
	// Write is true when it can be written.
	Write bool
	// Hidden is true when the path is a hidden entry or below one.
	Hidden bool
}

// Reach is what the absolute, clean path p shows inside the sandbox: the
// last mount at or above it decides.
func (s Sandbox) Reach(p string) Reach {
	for i := len(s.Mounts) - 1; i >= 0; i-- {
		m := s.Mounts[i]
		if !under(p, m.Dst) {
			continue
		}
		switch m.Kind {
		case MountRO, MountRW:
			host := m.Src
			if rel := strings.TrimPrefix(strings.TrimPrefix(p, m.Dst), "/"); rel != "" {
				host = strings.TrimSuffix(m.Src, "/") + "/" + rel
			}
			return Reach{Host: host, Write: m.Kind == MountRW}
		case MountHideDir, MountHideFile:
			return Reach{Hidden: true}
		default:
			return Reach{Write: true}
		}
	}
	return Reach{Hidden: true}
}

// BwrapArgs are bubblewrap's arguments for the sandbox, up to and
// including "--": a PID namespace of its own (so /proc shows only the
// sandbox), a new session, death with its parent, no capability (even
// for root), an IPC namespace, a
// network namespace unless net is allowed, the mounts in order, and dir
// as the working directory.
func (s Sandbox) BwrapArgs(dir string) []string {
	// Run by root, bubblewrap keeps every capability unless told not to:
	// with them a process could unmount what hides a secret.
	args := []string{"--die-with-parent", "--new-session", "--cap-drop", "ALL", "--unshare-pid", "--unshare-ipc"}
	if !s.Net {
		args = append(args, "--unshare-net")
	}
	for _, m := range s.Mounts {
		switch m.Kind {
		case MountRO:
			if slices.Contains(kernelSettings, m.Dst) {
				// a container without /sys has nothing there to protect
				args = append(args, "--ro-bind-try", m.Src, m.Dst)
				continue
			}
			args = append(args, "--ro-bind", m.Src, m.Dst)
		case MountRW:
			args = append(args, "--bind", m.Src, m.Dst)
		case MountHideDir:
			args = append(args, "--tmpfs", m.Dst, "--remount-ro", m.Dst)
		case MountHideFile:
			args = append(args, "--ro-bind", "/dev/null", m.Dst)
		case MountDev:
			args = append(args, "--dev", m.Dst)
		case MountProc:
			args = append(args, "--proc", m.Dst)
		}
	}
	if dir != "" {
		args = append(args, "--chdir", dir)
	}
	return append(args, "--")
}
