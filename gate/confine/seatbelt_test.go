package confine

import (
	"flag"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"pgregory.net/rapid"
)

// These tests run anywhere: they check the Seatbelt profile as a rule
// list and as text. None runs sandbox-exec (no Mac here); whether macOS
// accepts and enforces the profile is not tested.

var updateSeatbelt = flag.Bool("update", false, "rewrite the golden files of testdata/seatbelt")

// seatbeltPlaces are the places of a macOS session, with user u's home
// named home and the workspace named proj.
func seatbeltPlaces(home, proj string) Places {
	h := "/Users/" + home
	root := h + "/" + proj
	return Places{
		Roots: []string{root},
		Secrets: []Entry{{h + "/.ssh", true}, {h + "/.netrc", false},
			{h + "/Library/Application Support/eukhe", true}},
		Protected: []Entry{{root + "/.git", true}, {root + "/.vscode", true}, {h + "/go/bin", true}},
		Writable:  []string{h + "/Library/Caches/go-build"},
		TempDir:   "/private/var/folders/xy/T/eukhe-" + proj,
		Sockets:   []Entry{{"/private/var/run", true}},
		Keep:      []string{h, root},
		KeepTmp:   true,
	}
}

// seatbeltGolden is the golden file's text: the parameters, quoted, as
// comments, then the profile.
func seatbeltGolden(p SeatbeltProfile) string {
	profile, params := p.Render()
	var b strings.Builder
	b.WriteString("; sandbox-exec -D parameters (values Go-quoted):\n")
	for _, kv := range params {
		name, value, _ := strings.Cut(kv, "=")
		b.WriteString(";   " + name + " = " + strconv.QuoteToASCII(value) + "\n")
	}
	b.WriteString(profile)
	return b.String()
}

func TestSeatbeltGolden(t *testing.T) {
	cases := []struct {
		name    string
		allowed gate.Effects
		pl      Places
	}{
		{"read", gate.Of(gate.Read), seatbeltPlaces("u", "proj")},
		{"write", gate.Of(gate.Read, gate.Write), seatbeltPlaces("u", "proj")},
		{"write-outside", gate.Of(gate.Read, gate.Write, gate.Outside), seatbeltPlaces("u", "proj")},
		{"net", gate.Of(gate.Read, gate.Net), seatbeltPlaces("u", "proj")},
		{"write-net-secret", gate.Of(gate.Read, gate.Write, gate.Net, gate.Secret), seatbeltPlaces("u", "proj")},
		{"hostile", gate.Of(gate.Read, gate.Write), seatbeltPlaces(hostileHome, hostileProj)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := seatbeltGolden(Plan(c.allowed, c.pl).Seatbelt())
			file := filepath.Join("testdata", "seatbelt", c.name+".sb")
			if *updateSeatbelt {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden file (run with -update and read the diff):\n%s", file, got)
			}
		})
	}
}

// Names that would break a profile they were spliced into: a quote, a
// backslash, a line end, parentheses, a semicolon (a comment), a hash, a
// non-ASCII letter.
const (
	hostileHome = "u\") (allow default) ;\\"
	hostileProj = "p(r)o\nj;\"\\x00 #\"é"
)

// A path goes into the profile only as a parameter: a plan with hostile
// names has the very profile text of a plan with tame ones, and its
// parameters carry the names unchanged.
func TestSeatbeltHostilePathsStayParameters(t *testing.T) {
	for _, allowed := range []gate.Effects{gate.Of(gate.Read), gate.Of(gate.Read, gate.Write), gate.Of(gate.Read, gate.Write, gate.Outside, gate.Net)} {
		tame, tameParams := Plan(allowed, seatbeltPlaces("u", "proj")).Seatbelt().Render()
		hostile, params := Plan(allowed, seatbeltPlaces(hostileHome, hostileProj)).Seatbelt().Render()
		if hostile != tame {
			t.Fatalf("%s: the profile changes with the paths' names:\n%s\nvs\n%s", allowed, hostile, tame)
		}
		if len(params) != len(tameParams) {
			t.Fatalf("%s: %d parameters, want %d", allowed, len(params), len(tameParams))
		}
		for i, kv := range params {
			name, value, _ := strings.Cut(kv, "=")
			tname, tvalue, _ := strings.Cut(tameParams[i], "=")
			if name != tname {
				t.Fatalf("parameter %d named %s, want %s", i, name, tname)
			}
			if want := strings.NewReplacer("/Users/u", "/Users/"+hostileHome, "proj", hostileProj).Replace(tvalue); value != want {
				t.Fatalf("parameter %s = %q, want %q", name, value, want)
			}
		}
		for _, c := range hostile {
			if c == '\t' || c > 0x7e || c < 0x20 && c != '\n' {
				t.Fatalf("the profile is not printable ASCII: %q", c)
			}
		}
		if strings.Contains(hostile, "allow default") || strings.Contains(hostile, hostileProj) {
			t.Fatalf("a hostile name is in the profile:\n%s", hostile)
		}
	}
}

// sbplUnquote reads an SBPL string literal as a Scheme reader does
// (backslash escapes \" \\ \xHH), and reports whether the literal was one
// string and nothing more.
func sbplUnquote(lit string) (string, bool) {
	if len(lit) < 2 || lit[0] != '"' || lit[len(lit)-1] != '"' {
		return "", false
	}
	var b strings.Builder
	body := lit[1 : len(lit)-1]
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case c == '"':
			return "", false // the string would end here
		case c == '\\':
			if i+1 >= len(body) {
				return "", false
			}
			i++
			switch body[i] {
			case '"', '\\':
				b.WriteByte(body[i])
			case 'x':
				if i+2 >= len(body) {
					return "", false
				}
				n, err := strconv.ParseUint(body[i+1:i+3], 16, 8)
				if err != nil {
					return "", false
				}
				b.WriteByte(byte(n))
				i += 2
			default:
				return "", false
			}
		case c < 0x20 || c > 0x7e:
			return "", false
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), true
}

// sbplString (for this file's constants) round-trips hostile strings and
// writes printable ASCII only.
func TestSeatbeltStringEscapes(t *testing.T) {
	for _, s := range []string{"/dev/null", `a"b`, `a\b`, "a\nb", "(allow default)", "a;b", `\"`, `"\`, "é\x00\x7f", hostileHome, hostileProj} {
		lit := sbplString(s)
		got, ok := sbplUnquote(lit)
		if !ok || got != s {
			t.Errorf("sbplString(%q) = %s, read back %q (ok %v)", s, lit, got, ok)
		}
	}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.String().Draw(t, "s")
		if got, ok := sbplUnquote(sbplString(s)); !ok || got != s {
			t.Fatalf("sbplString(%q) = %s, read back %q", s, sbplString(s), got)
		}
	})
}

func TestSeatbeltArgs(t *testing.T) {
	p := Plan(gate.Of(gate.Read, gate.Write), seatbeltPlaces("u", "proj")).Seatbelt()
	args := p.Args()
	profile, params := p.Render()
	if args[0] != "-p" || args[1] != profile || args[len(args)-1] != "--" {
		t.Fatalf("args %q", args)
	}
	var got []string
	for i := 2; i < len(args)-1; i += 2 {
		if args[i] != "-D" {
			t.Fatalf("args[%d] = %q, want -D", i, args[i])
		}
		got = append(got, args[i+1])
	}
	if !slices.Equal(got, params) {
		t.Fatalf("parameters %q, want %q", got, params)
	}
}

// sbFileDecides is what the profile's rules decide for an operation on a
// path ("read": a file's data; "write"; "exec": running it): the last
// rule that matches, none: denied.
func sbFileDecides(t sbFatal, p SeatbeltProfile, op, path string) (allowed bool, at int) {
	at = -1
	for i, r := range p.Rules {
		if !sbHasFileOp(r, op) {
			continue
		}
		if sbMatchesPath(t, r, path) {
			allowed, at = r.Allow, i
		}
	}
	return allowed, at
}

func sbHasFileOp(r SeatbeltRule, op string) bool {
	for _, o := range r.Ops {
		switch {
		case o == "default", o == "file*":
			return true
		case op == "read" && (o == "file-read*" || o == "file-read-data"):
			return true
		case op == "write" && strings.HasPrefix(o, "file-write"):
			return true
		case op == "exec" && (o == "process-exec" || o == "process*"):
			return true
		}
	}
	return false
}

func sbMatchesPath(t sbFatal, r SeatbeltRule, path string) bool {
	switch r.Match {
	case "":
		if len(r.Filters) != 0 {
			t.Fatalf("a file rule with filters that are not paths: %+v", r)
		}
		return true
	case "subpath":
		return under(path, r.Path)
	case "literal":
		return path == r.Path
	}
	t.Fatalf("unknown match %q", r.Match)
	return false
}

// sbFatal is a *testing.T or a *rapid.T.
type sbFatal interface {
	Fatalf(format string, args ...any)
}

// A network event, as the test's model of the filters the profile uses.
type sbNet struct {
	op   string // network-outbound, network-bind, network-inbound
	unix bool
	path string // a Unix socket's path
	host string // an IP's host: "localhost" or another
}

func sbNetDecides(t *rapid.T, p SeatbeltProfile, ev sbNet) bool {
	allowed := false
	for _, r := range p.Rules {
		if !slices.Contains(r.Ops, ev.op) && !slices.Contains(r.Ops, "network*") {
			continue
		}
		if r.Match != "" {
			t.Fatalf("a network rule on a path: %+v", r)
		}
		match := len(r.Filters) == 0
		for _, f := range r.Filters {
			match = match || sbNetFilter(t, f, ev)
		}
		if match {
			allowed = r.Allow
		}
	}
	return allowed
}

var sbUnixLiteral = regexp.MustCompile(`^\(remote unix-socket \(path-literal ("[^"]*")\)\)$`)

func sbNetFilter(t *rapid.T, f string, ev sbNet) bool {
	outbound := ev.op == "network-outbound"
	switch f {
	case `(remote ip "localhost:*")`:
		return outbound && !ev.unix && ev.host == "localhost"
	case `(local ip "localhost:*")`:
		return !outbound && !ev.unix && ev.host == "localhost"
	case "(remote unix-socket)":
		return outbound && ev.unix
	case "(local unix-socket)":
		return !outbound && ev.unix
	}
	if m := sbUnixLiteral.FindStringSubmatch(f); m != nil {
		path, ok := sbplUnquote(m[1])
		return ok && outbound && ev.unix && ev.path == path
	}
	t.Fatalf("a network filter the test does not model: %s", f)
	return false
}

// The law seatbelt_profile_follows_the_plan: for any plan (made with
// KeepTmp, as the caller must), the profile decides for every path what
// the plan's mounts show: a hidden entry is in a rule that denies reading
// it, and nothing at or below it is read; nothing is written that the
// plan keeps read-only (every rule allowing a write there has a later
// deny); what the plan lets be written is written, but the directories
// above a read-only or hidden place (so no rename carries the place out
// of its rule); the network is the host's with net, loopback only
// without; a Unix socket is reached only with net and secret (macOS's
// name resolver with net). A path of the plan is never in the text.
func TestLaw_seatbelt_profile_follows_the_plan(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		allowed, pl := genEffects(t, "allowed"), genPlaces(t)
		pl.KeepTmp = true
		s := Plan(allowed, pl)
		p := s.Seatbelt()

		fixed := map[string]bool{} // directories above a read-only or hidden mount
		for i, m := range s.Mounts {
			switch m.Kind {
			case MountHideDir, MountHideFile:
				match := "subpath"
				if m.Kind == MountHideFile {
					match = "literal"
				}
				if !slices.ContainsFunc(p.Rules, func(r SeatbeltRule) bool {
					return !r.Allow && r.Param && r.Path == m.Dst && r.Match == match &&
						slices.Contains(r.Ops, "file-read*") && slices.Contains(r.Ops, "file-write*") &&
						slices.Contains(r.Ops, "process-exec")
				}) {
					t.Fatalf("hidden %s (mount %d) is in no rule that denies reading and writing it; rules %+v", m.Dst, i, p.Rules)
				}
			case MountRO:
				if m.Src != m.Dst {
					t.Fatalf("planned with KeepTmp, a mount moved %s to %s", m.Src, m.Dst)
				}
			default:
				continue
			}
			for a := parentOf(m.Dst); a != "/"; a = parentOf(a) {
				fixed[a] = true
			}
			// Every rule allowing a write at the mount has a later deny,
			// unless the plan lets it be written (a later mount).
			if s.Reach(m.Dst).Write {
				continue
			}
			for i, r := range p.Rules {
				if !r.Allow || !sbHasFileOp(r, "write") || !sbMatchesPath(t, r, m.Dst) {
					continue
				}
				if !slices.ContainsFunc(p.Rules[i+1:], func(d SeatbeltRule) bool {
					return !d.Allow && sbHasFileOp(d, "write") && sbMatchesPath(t, d, m.Dst)
				}) {
					t.Fatalf("rule %d %+v allows writing %s, which the plan keeps read-only, and no later rule denies it", i, r, m.Dst)
				}
			}
		}

		for _, e := range universe {
			if under(e.Path, "/dev") || under(e.Path, "/proc") {
				continue
			}
			r := s.Reach(e.Path)
			read, _ := sbFileDecides(t, p, "read", e.Path)
			write, at := sbFileDecides(t, p, "write", e.Path)
			if !r.Hidden && r.Host != e.Path {
				t.Fatalf("planned with KeepTmp, %s shows %+v", e.Path, r)
			}
			if read != !r.Hidden {
				t.Fatalf("%s: read %v, but the plan shows %+v; mounts %v", e.Path, read, r, s.Mounts)
			}
			if exec, _ := sbFileDecides(t, p, "exec", e.Path); exec != !r.Hidden {
				t.Fatalf("%s: run %v, but the plan shows %+v; mounts %v", e.Path, exec, r, s.Mounts)
			}
			if write && !r.Write {
				t.Fatalf("%s: written (rule %d %+v), but the plan keeps it read-only (%+v); mounts %v", e.Path, at, p.Rules[at], r, s.Mounts)
			}
			if r.Write && !write && !fixed[e.Path] {
				t.Fatalf("%s: not written, but the plan lets it be (%+v); mounts %v", e.Path, r, s.Mounts)
			}
			if fixed[e.Path] && write {
				t.Fatalf("%s holds a read-only or hidden place, and is written (rule %d)", e.Path, at)
			}
		}
		// The devices: the null device is written, a disk or another
		// terminal is not.
		if w, _ := sbFileDecides(t, p, "write", "/dev/null"); !w {
			t.Fatalf("/dev/null not written")
		}
		for _, op := range []string{"read", "write"} {
			for _, dev := range []string{"/dev/disk0", "/dev/rdisk1s1", "/dev/ttys003", "/dev/ptmx"} {
				if ok, at := sbFileDecides(t, p, op, dev); ok {
					t.Fatalf("%s: %s allowed by rule %d", dev, op, at)
				}
			}
		}

		// No path of the plan is in the text; every parameter is one.
		profile, params := p.Render()
		for _, kv := range params {
			_, v, _ := strings.Cut(kv, "=")
			if strings.Contains(profile, `"`+v+`"`) {
				t.Fatalf("path %s spliced into the profile", v)
			}
		}
		for _, r := range p.Rules {
			if r.Match != "" && !r.Param && !under(r.Path, "/dev") {
				t.Fatalf("a path of the plan is not a parameter: %+v", r)
			}
			if r.Param && (r.Path == "" || r.Path == "/" || r.Path[0] != '/') {
				t.Fatalf("a parameter that is not a path below /: %+v", r)
			}
		}

		// The network.
		if s.Net != allowed.Has(gate.Net) {
			t.Fatalf("net %v with %s allowed", s.Net, allowed)
		}
		dns := seatbeltDNS
		for _, c := range []struct {
			ev   sbNet
			want bool
		}{
			{sbNet{op: "network-outbound", host: "example.org"}, s.Net},
			{sbNet{op: "network-bind", host: "example.org"}, s.Net},
			{sbNet{op: "network-outbound", host: "localhost"}, true},
			{sbNet{op: "network-bind", host: "localhost"}, true},
			{sbNet{op: "network-inbound", host: "localhost"}, true},
			{sbNet{op: "network-outbound", unix: true, path: "/Users/u/.ssh/agent.sock"}, s.Net && s.Secret},
			{sbNet{op: "network-outbound", unix: true, path: "/run/docker.sock"}, s.Net && s.Secret},
			{sbNet{op: "network-bind", unix: true, path: "/Users/u/proj/s.sock"}, s.Net && s.Secret},
			{sbNet{op: "network-inbound", unix: true, path: "/Users/u/proj/s.sock"}, s.Net && s.Secret},
			{sbNet{op: "network-outbound", unix: true, path: dns}, s.Net},
		} {
			if got := sbNetDecides(t, p, c.ev); got != c.want {
				t.Fatalf("%+v: allowed %v, want %v (net %v, secret %v)", c.ev, got, c.want, s.Net, s.Secret)
			}
		}
		keychain := strings.Contains(profile, `"com.apple.SecurityServer"`) || strings.Contains(profile, `"com.apple.secd"`)
		if keychain != s.Secret {
			t.Fatalf("the keychain's services reachable %v with secret %v", keychain, s.Secret)
		}
		for _, r := range p.Rules {
			for _, f := range r.Filters {
				for _, never := range []string{"launchservicesd", "com.apple.xpc.launchd", "pasteboard", "kern.proc"} {
					if strings.Contains(f, never) {
						t.Fatalf("a rule names %s: %+v", never, r)
					}
				}
			}
		}
	})
}

// Planned without KeepTmp (which the caller must not do), the temporary
// directory's mount moves it to /tmp: Seatbelt cannot move it, and grants
// it where its files are, never the host's /tmp.
func TestSeatbeltGrantsAMovedMountAtItsSource(t *testing.T) {
	pl := seatbeltPlaces("u", "proj")
	pl.KeepTmp = false
	s := Plan(gate.Of(gate.Read), pl)
	if s.TempDir != "/tmp" {
		t.Skipf("the plan keeps the temporary directory at %s", s.TempDir)
	}
	p := s.Seatbelt()
	if w, _ := sbFileDecides(t, p, "write", pl.TempDir+"/f"); !w {
		t.Fatalf("the temporary directory %s is not written", pl.TempDir)
	}
	if w, at := sbFileDecides(t, p, "write", "/tmp/f"); w {
		t.Fatalf("the host's /tmp is written (rule %d)", at)
	}
}
