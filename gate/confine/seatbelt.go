package confine

import (
	"fmt"
	"slices"
	"strings"
)

// Seatbelt (macOS): the sandbox plan as a profile for
// /usr/bin/sandbox-exec, in Apple's Sandbox Profile Language (SBPL), so
// that a confined process on macOS sees what bubblewrap's mounts show it
// on Linux (DESIGN §9). It keeps the laws the Linux sandbox keeps:
// a secret shows nothing unless secret is allowed, nothing is written
// but where the step may write, the network is loopback only unless net
// is allowed, and no Unix socket is reached unless net and secret are.
//
// NOTHING HERE HAS RUN ON A MAC. The profiles are built and checked on
// Linux only: structurally, on the rule list (seatbelt_test.go),
// and as text against golden files. Whether sandbox-exec accepts every
// operation and filter below, and confines as described, must be checked
// on macOS before Mechanism "seatbelt" is relied on.
//
// How the mounts become rules. Of the SBPL rules that match an
// operation, the last one decides: Apple documents no SBPL, but users of
// sandbox-exec who tested it say so (agent-safehouse's "Policy
// Architecture": "Ordering Rules Matter. Later rules win", and "deny
// rules must come last to override allows"; profiles that allow a tree
// and then deny a part of it rely on it). Not verified here. A mount of
// the plan also wins over the mounts before it (Reach takes the last
// mount at or above a path). So each mount becomes rules emitted in the
// plan's order, and the profile decides for a path what Reach decides:
//
//   - the base "/": file-read* allowed everywhere; file-write* allowed
//     everywhere when the base is writable (outside), denied otherwise;
//   - MountDev: no file of /dev read or written but the devices a program
//     needs (null, zero, random, urandom, tty, dtracehelper, the
//     descriptors of /dev/fd): never a disk's device, nor the user's
//     terminals;
//   - MountProc: nothing (macOS has no /proc);
//   - MountRW: file-write* allowed under it;
//   - MountRO: file-write* (and file-link) denied under it;
//   - MountHideDir, MountHideFile: file-read*, file-write*, file-link
//     and process-exec denied on it and under it (subpath), or on the
//     file (literal).
//
// Then, last, each directory above a read-only or hidden mount that would
// be writable gets its writes denied, the directory alone (literal): a
// mount stays on its directory when an ancestor is renamed, but a rule of
// Seatbelt is on a path, so `mv sub sub2` would carry sub/.git out of its
// rule (files may still be made and removed inside such a directory: the
// rule covers the directory, not its entries).
//
// Paths are never spliced into the profile: each path of the plan is a
// parameter, passed as `-D P<n>=PATH` and named by (param "P<n>") in the
// profile, so a path with a quote, a backslash, a newline or a non-ASCII
// letter cannot change the profile (and the profile stays ASCII). Only
// constant paths (/dev/null, …) are written into it, escaped.
//
// The temporary directory: Seatbelt cannot show one directory at
// another's path, so the sandbox must be planned with KeepTmp (as for
// Landlock): the caller sets pl.KeepTmp = true before Plan, and
// TMPDIR is s.TempDir, the directory's own path. A mount whose Src is not
// its Dst is granted at Src, where its files are.
//
// Paths must be real (macOS resolves /tmp to /private/tmp, /var to
// /private/var, before it matches a rule): Places' paths are. They
// must also be spelt as on the disk: a file system of macOS ignores case
// by default, the kernel matches subpath and literal against the path it
// finds (said to be the disk's spelling, whatever case a program used:
// not verified here), and filepath.EvalSymlinks keeps the case it is
// given. A secret spelt ~/.SSH would hide nothing.

// SeatbeltRule is one rule of a Seatbelt profile: (allow|deny OPS FILTER…).
type SeatbeltRule struct {
	Allow bool
	// Ops are the operations, as SBPL names them: "file-write*", …
	Ops []string
	// Match is how the rule matches a path: "subpath" (Path and all below
	// it), "literal" (Path alone), or "" when the rule is on no path.
	Match string
	// Path is the path matched. Param true: a path of the plan, passed as
	// a parameter; false: a constant of this file, written into the text.
	Path  string
	Param bool
	// Filters are constant SBPL filters, any of which matches, for a rule
	// on no path; none and no Match: the rule matches every object.
	Filters []string
	// Why is written as a comment above the rule.
	Why string
}

// SeatbeltProfile is a sandbox as Seatbelt rules, in order: of the rules
// matching an operation, the last decides; none: denied.
type SeatbeltProfile struct {
	Rules []SeatbeltRule
}

// The operations a rule denies on a read-only place, and on a hidden one.
// file-link: a hard link to a file of a read-only place, made in a
// writable one, would be another name to write it by (bubblewrap's bind
// mount refuses a link across it with EXDEV). Not verified on a Mac that
// Seatbelt checks file-link against the link's source. process-exec: a
// hidden place shows no file to run under bubblewrap.
var (
	seatbeltReadOnlyOps = []string{"file-write*", "file-link"}
	seatbeltHideOps     = []string{"file-read*", "file-write*", "file-link", "process-exec"}
)

// seatbeltDevices are the devices a confined process may read, write
// and ioctl: landlockDevices' (macOS has no /dev/full), and
// /dev/dtracehelper, which dyld opens to register a program's probes. As
// under Landlock, the user's terminals (/dev/ttys*) and /dev/ptmx are
// not: bubblewrap's fresh /dev has pseudo-terminals of its own, Seatbelt
// has only the user's, and one a process may open is one it may write to
// (a step's own standard streams are open already: the rules check an
// open, not a read or write on an open descriptor).
var seatbeltDevices = []string{"/dev/null", "/dev/zero", "/dev/random", "/dev/urandom",
	"/dev/tty", "/dev/dtracehelper"}

// seatbeltDNS is the Unix socket of macOS's name resolver: with net, a
// lookup reaches it even where other Unix sockets are refused.
const seatbeltDNS = "/private/var/run/mDNSResponder"

// Seatbelt is the sandbox as a Seatbelt profile. It is pure. The sandbox
// must have been planned with KeepTmp. The caller runs
// `/usr/bin/sandbox-exec` with p.Args() then the program and its
// arguments, in the working directory (sandbox-exec has no option to
// change it).
func (s Sandbox) Seatbelt() SeatbeltProfile {
	var p SeatbeltProfile
	add := func(r SeatbeltRule) { p.Rules = append(p.Rules, r) }
	p.Rules = append(p.Rules, seatbeltProcess()...)

	for _, m := range s.Mounts {
		path := m.Src
		if m.Kind != MountRO && m.Kind != MountRW || path == "" {
			path = m.Dst
		}
		switch m.Kind {
		case MountRO, MountRW:
			if path == "/" {
				add(SeatbeltRule{Allow: true, Ops: []string{"file-read*"}, Why: "the base: the whole file system is read"})
				if m.Kind == MountRW {
					add(SeatbeltRule{Allow: true, Ops: []string{"file-write*"}, Why: "and written (write outside)"})
				} else {
					add(SeatbeltRule{Ops: []string{"file-write*"}, Why: "and not written"})
				}
				continue
			}
			if m.Kind == MountRW {
				add(SeatbeltRule{Allow: true, Ops: []string{"file-write*"}, Match: "subpath", Path: path, Param: true, Why: "writable"})
			} else {
				add(SeatbeltRule{Ops: seatbeltReadOnlyOps, Match: "subpath", Path: path, Param: true, Why: "read-only"})
			}
		case MountHideDir:
			add(SeatbeltRule{Ops: seatbeltHideOps, Match: "subpath", Path: path, Param: true, Why: "hidden"})
		case MountHideFile:
			add(SeatbeltRule{Ops: seatbeltHideOps, Match: "literal", Path: path, Param: true, Why: "hidden"})
		case MountDev:
			p.Rules = append(p.Rules, seatbeltDev(path)...)
		case MountProc:
			// macOS has no /proc; another process is kept out by
			// process-info and signal (same-sandbox).
		}
	}
	for _, a := range s.seatbeltAncestors() {
		add(SeatbeltRule{Ops: []string{"file-write*"}, Match: "literal", Path: a, Param: true,
			Why: "holds a read-only or hidden place: not renamed, removed or changed itself"})
	}
	p.Rules = append(p.Rules, s.seatbeltNetwork()...)
	return p
}

// seatbeltAncestors are the directories strictly above a read-only or
// hidden mount (not "/") that the plan lets a process write, in the order
// found.
func (s Sandbox) seatbeltAncestors() []string {
	var out []string
	for _, m := range s.Mounts {
		if m.Kind != MountRO && m.Kind != MountHideDir && m.Kind != MountHideFile {
			continue
		}
		for a := parentOf(m.Dst); a != "/" && a != ""; a = parentOf(a) {
			if r := s.Reach(a); r.Write && r.Host == a && !slices.Contains(out, a) {
				out = append(out, a)
			}
		}
	}
	return out
}

// seatbeltProcess are the rules every confined process has, before the
// file rules: what a shell and the programs it runs need of the system,
// and no more. Learnt from the structure of Chromium's and Codex CLI's
// macOS policies; written here, and not verified on a Mac.
func seatbeltProcess() []SeatbeltRule {
	return []SeatbeltRule{
		{Allow: true, Ops: []string{"process-exec", "process-fork"},
			Why: "run programs; a child inherits the profile"},
		{Allow: true, Ops: []string{"signal"}, Filters: []string{"(target same-sandbox)"},
			Why: "signal itself and its children, nothing outside (bubblewrap's PID namespace)"},
		{Allow: true, Ops: []string{"process-info*"}, Filters: []string{"(target same-sandbox)"},
			Why: "see itself and its children"},
		{Allow: true, Ops: []string{"sysctl-read"}, Filters: []string{
			`(sysctl-name-prefix "hw.")`,
			`(sysctl-name-prefix "machdep.cpu.")`,
			`(sysctl-name "kern.ostype")`, `(sysctl-name "kern.osrelease")`, `(sysctl-name "kern.osrevision")`,
			`(sysctl-name "kern.osversion")`, `(sysctl-name "kern.osproductversion")`, `(sysctl-name "kern.version")`,
			`(sysctl-name "kern.osvariant_status")`, `(sysctl-name "kern.hostname")`, `(sysctl-name "kern.boottime")`,
			`(sysctl-name "kern.argmax")`, `(sysctl-name "kern.maxproc")`, `(sysctl-name "kern.maxfiles")`,
			`(sysctl-name "kern.maxfilesperproc")`, `(sysctl-name "kern.ngroups")`, `(sysctl-name "kern.usrstack64")`,
			`(sysctl-name "kern.secure_kernel")`, `(sysctl-name "kern.clockrate")`,
			`(sysctl-name "sysctl.proc_cputype")`, `(sysctl-name "sysctl.proc_translated")`,
			`(sysctl-name "vm.loadavg")`,
		}, Why: "the machine's description; never kern.proc* nor kern.procargs* (another process's arguments and environment)"},
		{Allow: true, Ops: []string{"sysctl-write"}, Filters: []string{`(sysctl-name "kern.grade_cputype")`},
			Why: "a read the JVM makes through a write"},
		{Allow: true, Ops: []string{"mach-host*"}, Why: "the processors' counts and load (host_processor_info)"},
		{Allow: true, Ops: []string{"mach-lookup"}, Filters: []string{
			`(global-name "com.apple.system.opendirectoryd.libinfo")`,
			`(global-name "com.apple.system.opendirectoryd.membership")`,
			`(global-name "com.apple.system.notification_center")`,
			`(global-name "com.apple.system.logger")`,
			`(global-name "com.apple.logd")`,
			`(global-name "com.apple.bsd.dirhelper")`,
			`(global-name "com.apple.cfprefsd.daemon")`,
			`(global-name "com.apple.cfprefsd.agent")`,
		}, Why: "users and groups, notifications, logging, the user's directories, preferences (read); " +
			"never launchd, launchservicesd nor a pasteboard (each runs a program outside the sandbox)"},
		{Allow: true, Ops: []string{"user-preference-read"}, Why: "read preferences, never write them"},
		{Allow: true, Ops: []string{"ipc-posix-shm", "ipc-posix-sem"}, Why: "POSIX shared memory and semaphores"},
	}
}

// seatbeltDev are the rules of a MountDev at dev: /dev's entries may be
// stat'ed and listed, the devices of seatbeltDevices read, written and
// ioctl'ed, the descriptors of /dev/fd read and written, nothing else.
func seatbeltDev(dev string) []SeatbeltRule {
	rules := []SeatbeltRule{
		{Ops: []string{"file-read-data", "file-write*"}, Match: "subpath", Path: dev,
			Why: "a fresh /dev: no disk's device"},
		{Allow: true, Ops: []string{"file-read*"}, Match: "literal", Path: dev, Why: "listed"},
	}
	for _, d := range seatbeltDevices {
		rules = append(rules, SeatbeltRule{Allow: true, Ops: []string{"file-read*", "file-write*", "file-ioctl"},
			Match: "literal", Path: d, Why: "a device"})
	}
	return append(rules, SeatbeltRule{Allow: true, Ops: []string{"file-read*", "file-write*"}, Match: "subpath",
		Path: "/dev/fd", Why: "its own descriptors (/dev/stdin, <(…))"})
}

// seatbeltNetwork are the network rules. Without net, bubblewrap gives a
// network namespace of its own, loopback only: here the loopback is
// allowed (bind, accept, connect). Seatbelt has one loopback, the host's:
// unlike bubblewrap's, a process may reach a server of the host that
// listens on localhost. With net, the network is allowed, with what a
// program needs to resolve names, see the network's configuration and
// check a certificate. Unix sockets: unless net and secret are both
// allowed, none is connected to or bound (as the seccomp filter of
// agent/shell refuses them under bubblewrap and Landlock), but macOS's
// name resolver with net; a socketpair needs neither. The keychain's
// services (securityd, secd) are a secret store: only with secret.
func (s Sandbox) seatbeltNetwork() []SeatbeltRule {
	var rules []SeatbeltRule
	if s.Net {
		rules = append(rules,
			SeatbeltRule{Allow: true, Ops: []string{"network*"}, Why: "net: the network"},
			SeatbeltRule{Allow: true, Ops: []string{"system-socket"}, Why: "sockets of every domain"},
			SeatbeltRule{Allow: true, Ops: []string{"mach-lookup"}, Filters: []string{
				`(global-name "com.apple.SystemConfiguration.configd")`,
				`(global-name "com.apple.SystemConfiguration.DNSConfiguration")`,
				`(global-name "com.apple.networkd")`,
				`(global-name "com.apple.trustd")`,
				`(global-name "com.apple.trustd.agent")`,
				`(global-name "com.apple.ocspd")`,
			}, Why: "the network's configuration, certificates' trust"})
	} else {
		rules = append(rules,
			SeatbeltRule{Allow: true, Ops: []string{"system-socket"}, Filters: []string{
				"(socket-domain AF_INET)", "(socket-domain AF_INET6)", "(socket-domain AF_UNIX)"},
				Why: "make sockets (a socketpair; loopback); what they reach is below"},
			SeatbeltRule{Allow: true, Ops: []string{"network-bind", "network-inbound"}, Filters: []string{`(local ip "localhost:*")`},
				Why: "no net: loopback only (the host's loopback, not a namespace's)"},
			SeatbeltRule{Allow: true, Ops: []string{"network-outbound"}, Filters: []string{`(remote ip "localhost:*")`},
				Why: "no net: loopback only"})
	}
	if s.Secret {
		rules = append(rules, SeatbeltRule{Allow: true, Ops: []string{"mach-lookup"}, Filters: []string{
			`(global-name "com.apple.SecurityServer")`,
			`(global-name "com.apple.securityd.xpc")`,
			`(global-name "com.apple.secd")`,
		}, Why: "secret: the keychain"})
	}
	if !(s.Net && s.Secret) {
		rules = append(rules,
			SeatbeltRule{Ops: []string{"network-outbound"}, Filters: []string{"(remote unix-socket)"},
				Why: "no Unix socket is connected to unless net and secret are allowed"},
			SeatbeltRule{Ops: []string{"network-bind", "network-inbound"}, Filters: []string{"(local unix-socket)"},
				Why: "nor made"})
		if s.Net {
			rules = append(rules, SeatbeltRule{Allow: true, Ops: []string{"network-outbound"},
				Filters: []string{"(remote unix-socket (path-literal " + sbplString(seatbeltDNS) + "))"},
				Why:     "but the name resolver, with net"})
		}
	}
	return rules
}

// Render is the profile's text, for `sandbox-exec -p`, and its
// parameters, "NAME=VALUE" each, for `sandbox-exec -D`: a path of the plan
// is P<n>, the same path the same name.
func (p SeatbeltProfile) Render() (profile string, params []string) {
	var b strings.Builder
	b.WriteString("(version 1)\n")
	b.WriteString("; eukhe's sandbox (confine.Sandbox.Seatbelt): of the rules matching an operation, the last decides\n")
	b.WriteString("(deny default)\n")
	names := map[string]string{}
	for _, r := range p.Rules {
		if r.Why != "" {
			b.WriteString("; " + asciiComment(r.Why) + "\n")
		}
		b.WriteString("(")
		if r.Allow {
			b.WriteString("allow ")
		} else {
			b.WriteString("deny ")
		}
		b.WriteString(strings.Join(r.Ops, " "))
		switch r.Match {
		case "":
			if len(r.Filters) == 1 {
				b.WriteString(" " + r.Filters[0])
			} else {
				for _, f := range r.Filters {
					b.WriteString("\n    " + f)
				}
			}
		default:
			var arg string
			if r.Param {
				name, ok := names[r.Path]
				if !ok {
					name = fmt.Sprintf("P%d", len(names))
					names[r.Path] = name
					params = append(params, name+"="+r.Path)
				}
				arg = `(param "` + name + `")`
			} else {
				arg = sbplString(r.Path)
			}
			b.WriteString(" (" + r.Match + " " + arg + ")")
		}
		b.WriteString(")\n")
	}
	return b.String(), params
}

// Args are sandbox-exec's arguments up to and including "--":
// -p PROFILE, then -D NAME=VALUE for each parameter.
func (p SeatbeltProfile) Args() []string {
	profile, params := p.Render()
	args := []string{"-p", profile}
	for _, kv := range params {
		args = append(args, "-D", kv)
	}
	return append(args, "--")
}

// sbplString is s as an SBPL string literal: a backslash and a quote
// escaped. It is for the constants of this file; a character that is not
// printable ASCII is written as \xHH (not verified on a Mac: Seatbelt is
// said to refuse a profile that is not ASCII, and parameters carry the
// plan's paths for this reason).
func sbplString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\\' || c == '"':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			fmt.Fprintf(&b, `\x%02x`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// asciiComment is s fit for a comment line: printable ASCII, no line end.
func asciiComment(s string) string {
	s = strings.NewReplacer("…", "...", "§", "S").Replace(s)
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r >= 0x7f {
			return '?'
		}
		return r
	}, s)
}
