package gate

import (
	"slices"
	"strconv"
	"strings"
	"time"
)

// A directory has as many paths as the mount table shows it at: a bind
// mount (/etc/fstab: /data/config /home/me/.config none bind) makes each
// file of ~/.config also /data/config/…, with one name (no hard link),
// and a place the gate keeps by path is open by the other (the ninth red
// team's). So the policy gives each secret entry and each protected rule
// the other paths the mount table shows it at (mountNames), as it gives
// a linked dot-directory its real path (linkedDots).

// mountRecheck is how long a look at the mount table is trusted: a mount
// made after the policy (a secret directory bound into the workspace: the
// fourteenth red team's) is seen at the first judgment after it, or
// within this long of it.
const mountRecheck = 100 * time.Millisecond

// mount is one line of the mount table (Linux's /proc/self/mountinfo):
// the device, the directory of its file system it shows (Root), and
// where (Point).
type mount struct {
	Dev, Root, Point string
}

// parseMountinfo reads /proc/self/mountinfo's lines ("36 35 98:0 /mnt1
// /mnt2 rw,noatime master:1 - ext3 /dev/root rw"): a line it cannot read
// is left out. Root and Point have their octal escapes (\040 a space)
// undone.
func parseMountinfo(text string) []mount {
	var out []mount
	for _, line := range strings.Split(text, "\n") {
		f := strings.Fields(line)
		if len(f) < 5 || !strings.Contains(f[2], ":") {
			continue
		}
		root, point := unescapeMount(f[3]), unescapeMount(f[4])
		if !strings.HasPrefix(root, "/") || !strings.HasPrefix(point, "/") {
			continue
		}
		out = append(out, mount{Dev: f[2], Root: cleanAbs("/", root), Point: cleanAbs("/", point)})
	}
	return out
}

// unescapeMount undoes the kernel's \NNN (octal) escapes of a space, tab,
// newline and backslash in a mountinfo path.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// mountName is another path of a place: Path shows the place's part Rel
// ("" the place itself, "nvim" its nvim directory mounted elsewhere).
type mountName struct {
	Path, Rel string
}

// mountNames are the other paths the mount table shows the real path p
// at: p lies in the mount that holds it (the deepest point; the last
// mounted at that point), at a path of that device's file system; each
// other mount of the same device showing that path, or a part of it,
// is another name of it, or of that part.
func mountNames(mounts []mount, p string) []mountName {
	at := -1
	for i, m := range mounts {
		if under(p, m.Point) && (at < 0 || len(m.Point) >= len(mounts[at].Point)) {
			at = i
		}
	}
	if at < 0 {
		return nil
	}
	m := mounts[at]
	inFS := joinMount(m.Root, strings.TrimPrefix(strings.TrimPrefix(p, m.Point), "/"))
	var out []mountName
	add := func(n mountName) {
		if n.Path == p && n.Rel == "" {
			return
		}
		for _, o := range out {
			if o == n {
				return
			}
		}
		out = append(out, n)
	}
	for i, n := range mounts {
		if i == at || n.Dev != m.Dev {
			continue
		}
		switch {
		case under(inFS, n.Root):
			add(mountName{Path: joinMount(n.Point, strings.TrimPrefix(strings.TrimPrefix(inFS, n.Root), "/"))})
		case under(n.Root, inFS):
			add(mountName{Path: n.Point, Rel: strings.TrimPrefix(strings.TrimPrefix(n.Root, inFS), "/")})
		}
	}
	return out
}

// placeMountNames are the other paths of a place p (mountNames) and,
// with below, of each mount inside it (a volume mounted at
// ~/.config/mise is the place's part .config/mise, which the mount's
// other paths show too: the tenth red team's).
func placeMountNames(mounts []mount, p string, below bool) []mountName {
	out := mountNames(mounts, p)
	if !below {
		return out
	}
	for _, m := range mounts {
		if m.Point == p || !under(m.Point, p) {
			continue
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(m.Point, p), "/")
		for _, n := range mountNames(mounts, m.Point) {
			n.Rel = relJoin(rel, n.Rel)
			if !slices.Contains(out, n) {
				out = append(out, n)
			}
		}
	}
	return out
}

// relJoin joins two relative paths, either of which may be empty.
func relJoin(a, b string) string {
	if a == "" || b == "" {
		return a + b
	}
	return a + "/" + b
}

func joinMount(dir, rel string) string {
	if rel == "" {
		return dir
	}
	if dir == "/" {
		return "/" + rel
	}
	return dir + "/" + rel
}
