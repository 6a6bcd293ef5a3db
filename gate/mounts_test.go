package gate

import (
	"runtime"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The mount table's lines are read with their escapes undone; a line it
// cannot read is left out.
func TestParseMountinfoReadsEachMount(t *testing.T) {
	text := "22 1 254:0 / / rw - ext4 /dev/vda rw\n" +
		"31 22 254:0 /data/my\\040config /home/me/.config rw,relatime shared:1 - ext4 /dev/vda rw\n" +
		"garbage\n" +
		"40 22 0:44 / /mnt/vol rw - tmpfs tmpfs rw\n"
	want := []mount{{"254:0", "/", "/"}, {"254:0", "/data/my config", "/home/me/.config"}, {"0:44", "/", "/mnt/vol"}}
	if got := parseMountinfo(text); !slices.Equal(got, want) {
		t.Fatalf("got %q, want %q", got, want)
	}
}

// A bind mount's place has the path it was bound from; a place whose part
// is mounted elsewhere has that part's other path; a mount inside a place
// is that part of it.
func TestMountNamesAreTheOtherPathsOfAPlace(t *testing.T) {
	mounts := []mount{{"d", "/", "/"}, {"d", "/data/config", "/home/me/.config"}, {"d", "/home/me/.ssh", "/mnt/keys"}, {"v", "/", "/vol"}, {"v", "/mise", "/home/me/.config/mise"}}
	for _, c := range []struct {
		p     string
		below bool
		want  []mountName
	}{
		{"/home/me/.config", false, []mountName{{Path: "/data/config"}}},
		{"/home/me/.config/nvim/init.lua", false, []mountName{{Path: "/data/config/nvim/init.lua"}}},
		{"/home/me", false, []mountName{{Path: "/mnt/keys", Rel: ".ssh"}}},
		{"/home/me", true, []mountName{{Path: "/mnt/keys", Rel: ".ssh"}, {Path: "/data/config", Rel: ".config"}, {Path: "/vol/mise", Rel: ".config/mise"}}},
		{"/home/me/.ssh/id_ed25519", false, []mountName{{Path: "/mnt/keys/id_ed25519"}}},
		{"/etc", true, nil},
	} {
		if got := placeMountNames(mounts, c.p, c.below); !slices.Equal(got, c.want) {
			t.Errorf("%s (below %v): %v, want %v", c.p, c.below, got, c.want)
		}
	}
}

// mountIdent is which file a path shows under a mount table, as the
// kernel finds it: the deepest mount holding the path (the last mounted
// at that point), and the path in that mount's device below its root.
func mountIdent(mounts []mount, p string) (dev, inFS string) {
	at := -1
	for i, m := range mounts {
		if under(p, m.Point) && (at < 0 || len(m.Point) >= len(mounts[at].Point)) {
			at = i
		}
	}
	m := mounts[at]
	return m.Dev, joinMount(m.Root, strings.TrimPrefix(strings.TrimPrefix(p, m.Point), "/"))
}

// Whatever bind mounts show the home's places elsewhere (a part of the
// home, the home itself, a directory above it, a volume mounted inside
// it), every path that shows the same file as a secret key or a
// configuration file of the home is secret or protected as that file is:
// a place is itself at every mount (the ninth and tenth red teams').
func TestLaw_a_place_is_itself_at_every_mount(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the law's mount table and places are Linux's (/proc/self/mountinfo, /home/u, /mnt/a): Windows has no bind mounts")
	}
	roots := []string{"/", "/home", "/home/u", "/home/u/.config", "/home/u/.ssh", "/home/u/.config/nvim", "/data", "/data/cfg", "/w"}
	points := []string{"/mnt/a", "/mnt/b", "/home/u/.config", "/home/u/.config/nvim", "/home/u/.ssh", "/data/cfg", "/w/sub", "/home"}
	rapid.Check(t, func(t *rapid.T) {
		mounts := []mount{{"d", "/", "/"}}
		for range rapid.IntRange(1, 4).Draw(t, "binds") {
			dev := rapid.SampledFrom([]string{"d", "v"}).Draw(t, "dev")
			root := rapid.SampledFrom(roots).Draw(t, "root")
			if dev == "v" {
				root = rapid.SampledFrom([]string{"/", "/cfg", "/keys"}).Draw(t, "vroot")
			}
			mounts = append(mounts, mount{dev, root, rapid.SampledFrom(points).Draw(t, "point")})
		}
		p := Places{Roots: []string{"/w"}, Home: "/home/u"}.Policy(genFSFor(t))
		p.addMountNames(mounts)
		key, cfg := "/home/u/.ssh/id_ed25519", "/home/u/.config/nvim/init.lua"
		kd, kf := mountIdent(mounts, key)
		cd, cf := mountIdent(mounts, cfg)
		for _, pt := range append(points, "/", "/data/cfg", "/data", "/mnt/a/cfg") {
			for _, rest := range []string{"", "id_ed25519", ".ssh/id_ed25519", "u/.ssh/id_ed25519", "nvim/init.lua", "init.lua", ".config/nvim/init.lua", "u/.config/nvim/init.lua", "cfg/nvim/init.lua"} {
				q := joinMount(pt, rest)
				d, f := mountIdent(mounts, q)
				c := p.Class(RealPath{Path: q})
				if d == kd && f == kf && c != ClassSecret {
					t.Fatalf("mounts %v: %s shows the key %s, class %v", mounts, q, key, c)
				}
				if d == cd && f == cf && c != ClassProtected && c != ClassSecret {
					t.Fatalf("mounts %v: %s shows the configuration file %s, class %v", mounts, q, cfg, c)
				}
			}
		}
	})
}

// genFSFor is a file system with the law's home and workspace.
func genFSFor(*rapid.T) fakeFS {
	f := fakeFS{}
	for _, d := range []string{"/home", "/home/u", "/home/u/.ssh", "/home/u/.config", "/home/u/.config/nvim", "/w", "/data", "/mnt"} {
		f[d] = fakeNode{kind: KindDir}
	}
	return f
}

// Whatever the mount table holds, each mount read has an absolute, clean
// root and point.
func FuzzParseMountinfo(f *testing.F) {
	f.Add("22 1 254:0 / / rw - ext4 /dev/vda rw\n31 22 254:0 /data/my\\040config /home/me/.config rw - ext4 /dev/vda rw\n")
	f.Add("1 2 0:1 /a/../b /c/./d\\134 x")
	f.Fuzz(func(t *testing.T, text string) {
		for _, m := range parseMountinfo(text) {
			for _, p := range []string{m.Root, m.Point} {
				if !strings.HasPrefix(p, "/") || cleanAbs("/", p) != p {
					t.Fatalf("%q: a mount %+v with the path %q", text, m, p)
				}
			}
		}
	})
}
