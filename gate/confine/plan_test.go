package confine

import (
	"slices"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"pgregory.net/rapid"
)

// universe is a small file system the sandbox properties are checked
// over: every directory and file a generated place can name, and what
// lies beside and below them.
var universe = []Entry{
	{"/", true}, {"/etc", true}, {"/etc/passwd", false}, {"/usr", true}, {"/usr/bin", true},
	{"/usr/bin/git", false}, {"/run", true}, {"/run/docker.sock", false},
	{"/home", true}, {"/home/u", true}, {"/home/u/.ssh", true}, {"/home/u/.ssh/id", false},
	{"/home/u/.netrc", false}, {"/home/u/.bashrc", false}, {"/home/u/.cache", true},
	{"/home/u/.cache/go", true}, {"/home/u/.config", true}, {"/home/u/.config/eukhe", true},
	{"/home/u/.config/eukhe/settings.json", false}, {"/home/u/.config/eukhe/auth.json", false},
	{"/home/u/go", true}, {"/home/u/go/bin", true}, {"/home/u/go/bin/tool", false},
	{"/home/u/proj", true}, {"/home/u/proj/main.go", false}, {"/home/u/proj/.git", true},
	{"/home/u/proj/.git/hooks", true}, {"/home/u/proj/.git/config", false},
	{"/home/u/proj/.vscode", true}, {"/home/u/proj/sub", true}, {"/home/u/proj/sub/.git", true},
	{"/home/u/proj/.ssh", true},
	{"/tmp", true}, {"/tmp/sess", true}, {"/tmp/sess/x", false}, {"/tmp/w", true},
	{"/tmp/w/ws", true}, {"/tmp/w/ws/.git", true}, {"/tmp/w/ws/a", false},
	{"/tmp/w/home", true}, {"/tmp/w/home/.ssh", true}, {"/tmp/w/home/.ssh/id", false},
	{"/tmp/other", false},
	{"/sys", true}, {"/sys/kernel", true}, {"/sys/kernel/profiling", false},
}

func entryOf(p string) Entry {
	for _, e := range universe {
		if e.Path == p {
			return e
		}
	}
	panic(p)
}

func readDirOf(dir string) ([]Entry, error) {
	var out []Entry
	for _, e := range universe {
		if e.Path != "/" && parentOf(e.Path) == dir {
			out = append(out, e)
		}
	}
	return out, nil
}

func subsetOf(t *rapid.T, label string, from []string) []string {
	return rapid.SliceOfDistinct(rapid.SampledFrom(from), rapid.ID[string]).Draw(t, label)
}

func entries(ps []string) []Entry {
	var es []Entry
	for _, p := range ps {
		es = append(es, entryOf(p))
	}
	return es
}

// genEffects draws any set of effects (gate's own genEffects).
func genEffects(t *rapid.T, label string) gate.Effects {
	return gate.Effects(rapid.Uint8Range(0, uint8(gate.Of(gate.AllEffects()...))).Draw(t, label))
}

// genPlaces draws places from the universe.
func genPlaces(t *rapid.T) Places {
	return Places{
		Roots: subsetOf(t, "roots", []string{"/home/u/proj", "/tmp/w/ws", "/home/u/proj/sub"}),
		Secrets: entries(subsetOf(t, "secrets", []string{"/home/u/.ssh", "/home/u/.netrc",
			"/home/u/.config/eukhe/auth.json", "/tmp/w/home/.ssh", "/home/u/proj/.ssh"})),
		Protected: entries(subsetOf(t, "protected", []string{"/home/u/proj/.git", "/home/u/proj/.vscode",
			"/home/u/proj/sub/.git", "/home/u/.config/eukhe", "/home/u/go/bin", "/usr/bin", "/tmp/w/ws/.git"})),
		Writable: subsetOf(t, "writable", []string{"/home/u/.cache/go", "/home/u/go", "/tmp/w/home"}),
		TempDir:  rapid.SampledFrom([]string{"/tmp/sess", ""}).Draw(t, "temp"),
		Sockets:  entries(subsetOf(t, "sockets", []string{"/run"})),
		Keep:     subsetOf(t, "keep", []string{"/home/u", "/tmp/w/home", "/home/u/go/bin", "/tmp/w/ws"}),
		KeepTmp:  rapid.Bool().Draw(t, "keepTmp"),
	}
}

// below is every universe path at or below p.
func below(p string) []string {
	var out []string
	for _, e := range universe {
		if under(e.Path, p) {
			out = append(out, e.Path)
		}
	}
	return out
}

// images are the sandbox paths where host path h shows, through each
// bind mount whose source holds it.
func images(s Sandbox, h string) []string {
	var out []string
	for _, m := range s.Mounts {
		if (m.Kind == MountRO || m.Kind == MountRW) && under(h, m.Src) {
			rel := strings.TrimPrefix(strings.TrimPrefix(h, m.Src), "/")
			img := m.Dst
			if rel != "" {
				img = strings.TrimSuffix(m.Dst, "/") + "/" + rel
			}
			out = append(out, img)
		}
	}
	return out
}

func holds(list []string, p string) bool {
	for _, x := range list {
		if under(p, x) {
			return true
		}
	}
	return false
}

func TestSandboxHidesEverySecretUnlessAllowed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		allowed, pl := genEffects(t, "allowed"), genPlaces(t)
		s := Plan(allowed, pl)
		for _, sec := range pl.Secrets {
			for _, h := range below(sec.Path) {
				for _, img := range images(s, h) {
					r := s.Reach(img)
					if !allowed.Has(gate.Secret) && r.Host != "" && under(r.Host, sec.Path) {
						t.Fatalf("secret %s shows at %s (reach %+v) with %s allowed; mounts %v", h, img, r, allowed, s.Mounts)
					}
				}
			}
			if allowed.Has(gate.Secret) && !(under(sec.Path, "/tmp") && s.TempDir == "/tmp") {
				if r := s.Reach(sec.Path); r.Host != sec.Path && !holds(entryPaths(pl.Protected), sec.Path) {
					t.Fatalf("allowed secret %s does not show (reach %+v); mounts %v", sec.Path, r, s.Mounts)
				}
			}
		}
		if allowed.Has(gate.Net) {
			return
		}
		if s.Net {
			t.Fatalf("net not allowed, but the sandbox shares the network")
		}
		for _, so := range pl.Sockets {
			if r := s.Reach(so.Path); r.Host != "" {
				t.Fatalf("socket dir %s shows with net not allowed", so.Path)
			}
		}
	})
}

// writableHosts is every host path of the universe a process can write,
// through any sandbox path.
func writableHosts(s Sandbox) []string {
	var out []string
	for _, e := range universe {
		for _, img := range images(s, e.Path) {
			if r := s.Reach(img); r.Write && r.Host == e.Path {
				out = append(out, e.Path)
			}
		}
	}
	return out
}

func TestSandboxWritesOnlyWhereAllowed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		allowed, pl := genEffects(t, "allowed"), genPlaces(t)
		s := Plan(allowed, pl)
		for _, h := range writableHosts(s) {
			if pl.TempDir != "" && under(h, pl.TempDir) {
				continue // the private temporary directory is always writable
			}
			if !allowed.Has(gate.Write) {
				t.Fatalf("%s is writable with %s allowed; mounts %v", h, allowed, s.Mounts)
			}
			if !allowed.Has(gate.Outside) && !holds(pl.Roots, h) && !holds(pl.Writable, h) {
				t.Fatalf("%s (outside) is writable with %s allowed; mounts %v", h, allowed, s.Mounts)
			}
			for _, p := range pl.Protected {
				if !allowed.Has(gate.Protected) && under(h, p.Path) {
					t.Fatalf("protected %s is writable with %s allowed; mounts %v", h, allowed, s.Mounts)
				}
			}
		}
		// And what is allowed is writable: the roots with write, the temp dir.
		if pl.TempDir != "" {
			if r := s.Reach(s.TempDir); !r.Write || r.Host != pl.TempDir {
				t.Fatalf("temp dir %s at %s not writable: %+v", pl.TempDir, s.TempDir, r)
			}
		}
		if allowed.Has(gate.Write) {
			for _, root := range pl.Roots {
				if r := s.Reach(root); !holds(secretEntries(pl), root) && (!r.Write || r.Host != root) {
					t.Fatalf("root %s not writable with %s allowed: %+v; mounts %v", root, allowed, r, s.Mounts)
				}
			}
		}
	})
}

func entryPaths(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Path)
	}
	return out
}

func secretEntries(pl Places) []string {
	var out []string
	for _, e := range pl.Secrets {
		out = append(out, e.Path)
	}
	return out
}

// landlockAccess is what the plan's rules give path p: Landlock adds up
// every rule at or above it.
func landlockAccess(plan LandlockPlan, p string) (read, write bool) {
	for _, r := range plan.Rules {
		if under(p, r.Path) {
			read = true
			write = write || r.Write
		}
	}
	return read, write
}

func TestLandlockGrantsNoMoreThanTheSandbox(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		allowed, pl := genEffects(t, "allowed"), genPlaces(t)
		pl.KeepTmp = true
		s := Plan(allowed, pl)
		plan := s.Landlock(readDirOf)
		if plan.Net != allowed.Has(gate.Net) {
			t.Fatalf("net %v with %s allowed", plan.Net, allowed)
		}
		if plan.UnixSockets != (allowed.Has(gate.Net) && allowed.Has(gate.Secret)) {
			t.Fatalf("Unix sockets %v with %s allowed: Landlock cannot hide one, so only secret and net together allow them", plan.UnixSockets, allowed)
		}
		for _, e := range universe {
			read, write := landlockAccess(plan, e.Path)
			r := s.Reach(e.Path)
			if read && (r.Hidden || r.Host != e.Path) {
				t.Fatalf("landlock reads %s, which the sandbox hides (%+v); rules %v", e.Path, r, plan.Rules)
			}
			if write && !r.Write {
				t.Fatalf("landlock writes %s, which the sandbox keeps read-only; rules %v", e.Path, plan.Rules)
			}
			// Every visible file is readable: only directories above a
			// mount lose their own listing.
			if !e.Dir && !r.Hidden && r.Host == e.Path && !read {
				t.Fatalf("landlock does not read %s, which the sandbox shows; rules %v", e.Path, plan.Rules)
			}
		}
	})
}

func TestBwrapArgs(t *testing.T) {
	pl := Places{Roots: []string{"/home/u/proj"}, TempDir: "/tmp/sess",
		Secrets:   []Entry{{"/home/u/.ssh", true}, {"/home/u/.netrc", false}},
		Protected: []Entry{{"/home/u/proj/.git", true}}, Sockets: []Entry{{"/run", true}},
		Writable: []string{"/home/u/.cache/go"}}
	cases := []struct {
		allowed gate.Effects
		want    string
	}{
		{gate.Of(gate.Read), "--die-with-parent --new-session --cap-drop ALL --unshare-pid --unshare-ipc --unshare-net " +
			"--ro-bind / / --dev /dev --proc /proc --bind /tmp/sess /tmp --ro-bind-try /sys /sys --ro-bind-try /proc/sys /proc/sys " +
			"--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh --ro-bind /dev/null /home/u/.netrc " +
			"--tmpfs /run --remount-ro /run --chdir /home/u/proj --"},
		{gate.Of(gate.Read, gate.Write, gate.Net), "--die-with-parent --new-session --cap-drop ALL --unshare-pid --unshare-ipc " +
			"--ro-bind / / --dev /dev --proc /proc --bind /tmp/sess /tmp " +
			"--bind /home/u/proj /home/u/proj --bind /home/u/.cache/go /home/u/.cache/go " +
			"--ro-bind-try /sys /sys --ro-bind-try /proc/sys /proc/sys --ro-bind /home/u/proj/.git /home/u/proj/.git " +
			"--tmpfs /home/u/.ssh --remount-ro /home/u/.ssh --ro-bind /dev/null /home/u/.netrc --chdir /home/u/proj --"},
		{gate.Of(gate.Read, gate.Write, gate.Net, gate.Outside, gate.Protected, gate.Secret), "--die-with-parent --new-session --cap-drop ALL --unshare-pid --unshare-ipc " +
			"--bind / / --dev /dev --proc /proc --bind /tmp/sess /tmp/sess --ro-bind-try /sys /sys --ro-bind-try /proc/sys /proc/sys --chdir /home/u/proj --"},
	}
	for _, c := range cases {
		got := strings.Join(Plan(c.allowed, pl).BwrapArgs("/home/u/proj"), " ")
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.allowed, got, c.want)
		}
	}
}

func TestSandboxKeepsTmpWhenARootHoldsIt(t *testing.T) {
	s := Plan(gate.Of(gate.Read, gate.Write), Places{Roots: []string{"/"}, TempDir: "/tmp/sess"})
	if s.TempDir != "/tmp/sess" {
		t.Fatalf("temp dir inside: %s, want its own path", s.TempDir)
	}
	s = Plan(gate.Of(gate.Read), Places{Roots: []string{"/tmp/w/ws"}, TempDir: "/tmp/sess", Keep: []string{"/tmp/w/home"}})
	if s.TempDir != "/tmp" {
		t.Fatalf("temp dir inside: %s, want /tmp", s.TempDir)
	}
	for _, p := range []string{"/tmp/w/ws", "/tmp/w/home"} {
		if r := s.Reach(p); r.Host != p || r.Write {
			t.Fatalf("%s under the new /tmp: %+v, want it read-only at its own path", p, r)
		}
	}
	if r := s.Reach("/tmp/other"); r.Host != "/tmp/sess/other" {
		t.Fatalf("/tmp/other shows %+v, want the temp dir's", r)
	}
	if !slices.ContainsFunc(s.Mounts, func(m Mount) bool { return m.Kind == MountRO && m.Dst == "/tmp/w/ws" }) {
		t.Fatalf("no mount keeps the root: %v", s.Mounts)
	}
}

// A place kept only to stay visible (the working directory, the home, a
// PATH directory) never makes a writable root read-only.
func TestSandboxKeepNeverNarrowsWrites(t *testing.T) {
	for _, root := range []string{"/home/u/proj", "/tmp/w/ws"} {
		pl := Places{Roots: []string{root}, TempDir: "/tmp/sess", Keep: []string{root + "/sub", "/home/u"}}
		s := Plan(gate.Of(gate.Read, gate.Write), pl)
		if r := s.Reach(root + "/sub"); !r.Write || r.Host != root+"/sub" {
			t.Fatalf("the working directory %s/sub in a writable root: %+v; mounts %v", root, r, s.Mounts)
		}
	}
}

// A sandbox never lets the kernel's settings be written, whatever is
// allowed: /sys and /proc/sys are read-only in the mounts and get no
// Landlock write rule.
func TestLaw_kernel_settings_are_never_writable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		allowed, pl := genEffects(t, "allowed"), genPlaces(t)
		s := Plan(allowed, pl)
		for _, p := range []string{"/sys", "/sys/kernel/profiling", "/proc/sys", "/proc/sys/kernel/core_pattern"} {
			if r := s.Reach(p); r.Write {
				t.Fatalf("%s is writable with %s allowed; mounts %v", p, allowed, s.Mounts)
			}
		}
		pl.KeepTmp = true
		plan := Plan(allowed, pl).Landlock(readDirOf)
		for _, p := range []string{"/sys", "/sys/kernel/profiling"} {
			if _, write := landlockAccess(plan, p); write {
				t.Fatalf("Landlock writes %s with %s allowed; rules %v", p, allowed, plan.Rules)
			}
		}
	})
}

// TestLaw_a_sealed_directory_is_never_writable: the process
// substitutions' pipes (Places.Sealed) are read-only to a confined
// process whatever it may do, secret and protected too, in the mounts and
// in the Landlock rules: the shell opens a name there by its own path,
// past every judgment (the twenty-ninth red team's).
func TestLaw_a_sealed_directory_is_never_writable(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		allowed, pl := genEffects(t, "allowed"), genPlaces(t)
		sealed := rapid.SampledFrom([]string{"/tmp/eukhe-fifos-1", "/home/u/proj/f", "/var/tmp/f"}).Draw(t, "sealed")
		pl.Keep = append(pl.Keep, sealed)
		pl.Sealed = []string{sealed}
		s := Plan(allowed, pl)
		for _, p := range []string{sealed, sealed + "/sh-interp-1"} {
			if r := s.Reach(p); r.Write {
				t.Fatalf("%s is writable with %s allowed; mounts %v", p, allowed, s.Mounts)
			}
		}
		pl.KeepTmp = true
		plan := Plan(allowed, pl).Landlock(readDirOf)
		if _, write := landlockAccess(plan, sealed+"/sh-interp-1"); write {
			t.Fatalf("Landlock writes in %s with %s allowed; rules %v", sealed, allowed, plan.Rules)
		}
	})
}
