//go:build open_attacks

package gate

// The twenty-first red team's attacks on the gate that got THROUGH: each
// fails now and passes once fixed. The held ones are in
// redteam21_test.go.

import (
	"os"
	"os/user"
	"path/filepath"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// Attack (target 5, HomeTilde: a PATH entry as bash reads it): the
// user's PATH holds "~NAME" or "~NAME/…" (a quoted assignment in a
// startup file, export PATH="~me/tools:$PATH", as the fifth red team's
// "~/bin" but with a user's name; the row uses the user daemon, whose
// home holds programs on most systems, and names no file of it). bash
// expands ~NAME in a PATH entry at each command search through the user
// database (bash_tilde_expand: `PATH="~daemon"; nologin` runs the daemon
// user's home's nologin), so the directory is a PATH directory. The
// agent writes the directory's r21tool (a program the user runs by
// name; only judged here, never written), and, with the PATH unknown, a
// file in the workspace named like a command of that directory.
// THROUGH (severity low: needs the unusual quoted ~NAME entry; the write
// into that directory is an outside write too, which a policy may grant):
// the write is not protected, and the command name is not one; the
// control with the expanded directory written out is protected.
// Root cause: gate/places.go HomeTilde (and Places.Rules, Policy's
// pathDirs) expand only "~" and "~/…"; "~NAME/…" stays a relative entry
// (a directory named "~NAME" wherever the shell is), where bash reads
// NAME's home from the user database (gate/settings homes.go knows
// them: UserHomes).
func TestRedteam21_PathEntryTildeUserIsTheUsersHomeToBash(t *testing.T) {
	base := r21base(t)
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	home := filepath.Join(base, "home")
	must(t, os.MkdirAll(home, 0o755))
	d, err := user.Lookup("daemon")
	if err != nil || d.HomeDir == "" {
		testkit.Missing(t, "no user daemon in the user database")
	}
	var cmd string
	if ents, err := os.ReadDir(d.HomeDir); err == nil {
		for _, e := range ents {
			if !e.IsDir() {
				cmd = e.Name()
				break
			}
		}
	}
	if cmd == "" {
		testkit.Missing(t, "the daemon user's home holds no program")
	}
	for _, c := range []struct {
		what, entry, expanded, write string
		unknown                      bool
	}{
		{"a write into ~daemon", "~daemon", d.HomeDir, filepath.Join(d.HomeDir, "r21tool"), false},
		{"a write into ~daemon/", "~daemon/", d.HomeDir, filepath.Join(d.HomeDir, "r21tool"), false},
		{"a command of ~daemon named in the workspace", "~daemon", d.HomeDir, filepath.Join(root, "tools", cmd), true},
	} {
		judge := func(entry string) Class {
			p := Places{Roots: []string{root}, Home: home, PathDirs: []string{entry}, PathUnknown: c.unknown}.Policy(OS)
			return p.ClassWrite(p.Resolve(root, c.write))
		}
		if got := judge(c.expanded); got != ClassProtected {
			t.Fatalf("%s: control (the entry written out): %v", c.what, got)
		}
		if got := judge(c.entry); got != ClassProtected {
			t.Errorf("%s: with PATH entry %q the write is %v, not protected", c.what, c.entry, got)
		}
	}
}

// Attack (target 5, CommandList.InUnlisted): a PATH directory that
// cannot be listed (another user's 0711 tools; a lister that refuses it
// here, as the test runs as root) holds r21dang, a link to a program
// that is gone (an uninstalled version). With the PATH unknown, the
// agent writes tools/r21dang in the workspace: bash's search skips the
// dangling entry and runs the next PATH directory's r21dang, and any
// directory may be on PATH.
// THROUGH (severity low: needs an unlisted PATH directory holding a
// dangling link): r21dang is no command of the unlisted directory (so
// the write is judged as any file's), where the same link in a directory
// that can be listed makes r21dang a command (its name is listed) — the
// control. (bash skipping the dangling entry for the next directory's
// program was checked by hand: PATH=a:b, a/r21x dangling, runs b/r21x.)
// Root cause: gate/commandlist.go inDirs asks os.Stat (links followed),
// which fails on a dangling link; a listing counts every entry, so
// the two ways disagree (an Lstat would not).
func TestRedteam21_InUnlistedCountsADanglingLinkAsTheListingDoes(t *testing.T) {
	base := r21base(t)
	d := filepath.Join(base, "tools")
	must(t, os.MkdirAll(d, 0o755))
	must(t, os.Symlink(filepath.Join(base, "gone", "r21dang"), filepath.Join(d, "r21dang")))
	listed := newCommandList([]string{d}, entryNames)
	if !listed.Is("r21dang", false, 0) {
		t.Fatalf("control: the listed directory's dangling r21dang is no command")
	}
	c := newCommandList([]string{d}, func(string) ([]string, error) { return nil, os.ErrPermission })
	if c.Is("r21dang", false, 0) {
		return
	}
	t.Errorf("the unlisted directory's dangling r21dang is no command; the listed one's is")
}
