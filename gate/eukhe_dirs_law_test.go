package gate

import (
	"fmt"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"
)

// drawEukheDir draws a directory name another eukhe keeps its files in:
// eukhe (XDG_*/eukhe), eukhe-UID (the temporary directory's), eukhe/run
// (Windows' local application data).
func drawEukheDir(rt *rapid.T) string {
	return rapid.SampledFrom([]string{"eukhe", fmt.Sprintf("eukhe-%d", rapid.IntRange(0, 1<<31).Draw(rt, "uid")),
		filepath.Join("eukhe", "run")}).Draw(rt, "dir")
}

// drawParent draws a directory the name may sit under: outside every
// root (the home, /tmp, a runtime directory, a deep path) or inside one.
func drawParent(rt *rapid.T, home, root string) (dir string, inside bool) {
	inside = rapid.Bool().Draw(rt, "inside")
	base := rapid.SampledFrom([]string{home, "/tmp", "/run/user/1000", filepath.Join(home, ".cache", "x")}).Draw(rt, "outside")
	if inside {
		base = root
	}
	for i := rapid.IntRange(0, 2).Draw(rt, "depth"); i > 0; i-- {
		base = filepath.Join(base, rapid.SampledFrom([]string{"a", "sub", "run", ".local"}).Draw(rt, "part"))
	}
	return base, inside
}

// An entry of any eukhe's socket directory — "<pid>-<8 hex>" with .sock,
// .json or .json.tmp, in a directory named eukhe, eukhe-UID or eukhe/run,
// wherever that is, inside a root too — is secret to read and to write:
// a planted entry would make the agent's own server another eukhe's
// editor, and a read would hand the agent another session's socket.
func TestLaw_any_eukhe_socket_entry_is_secret(t *testing.T) {
	_, home, root := redHome(t)
	p := r14policy(home, root)
	rapid.Check(t, func(rt *rapid.T) {
		parent, _ := drawParent(rt, home, root)
		dir := filepath.Join(parent, drawEukheDir(rt))
		name := fmt.Sprintf("%d-%08x%s", rapid.IntRange(1, 1<<31-1).Draw(rt, "pid"), rapid.Uint32().Draw(rt, "random"),
			rapid.SampledFrom([]string{".sock", ".json", ".json.tmp"}).Draw(rt, "suffix"))
		path := filepath.Join(dir, name)
		rp := p.Resolve(root, path)
		if c := p.ClassRead(rp); c != ClassSecret {
			rt.Fatalf("reading %s is %v, not secret", path, c)
		}
		if c := p.ClassWrite(rp); c != ClassSecret {
			rt.Fatalf("writing %s is %v, not secret", path, c)
		}
	})
}

// A write that makes or fills a directory of such a name outside every
// root is secret: what it brings below (a copy into it, a directory
// renamed to it, an archive unpacked there) is named by no word the gate
// reads. Inside a root a folder of that name is the project's own: its
// write is the root's.
func TestLaw_a_write_of_an_eukhe_directory_outside_the_roots_is_secret(t *testing.T) {
	_, home, root := redHome(t)
	p := r14policy(home, root)
	rapid.Check(t, func(rt *rapid.T) {
		parent, inside := drawParent(rt, home, root)
		path := filepath.Join(parent, drawEukheDir(rt))
		c := p.ClassWrite(p.Resolve(root, path))
		switch {
		case !inside && c != ClassSecret:
			rt.Fatalf("writing %s, outside the root, is %v, not secret", path, c)
		case inside && c != ClassInside:
			rt.Fatalf("writing %s, inside the root, is %v, not the root's", path, c)
		}
	})
}
