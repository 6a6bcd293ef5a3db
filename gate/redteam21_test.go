//go:build linux

package gate

// The twenty-first red team's attacks on the gate that HELD (the open
// ones are in redteam21_open_attacks_test.go, build tag open_attacks),
// kept as regression tests.

import (
	"os"
	"os/user"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// r21base is a test's temporary directory, its links resolved.
func r21base(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	return base
}

// r21bind bind-mounts src on dst (root only), unmounted at the end.
func r21bind(t *testing.T, src, dst string) bool {
	t.Helper()
	if os.Geteuid() != 0 {
		return false
	}
	if err := syscall.Mount(src, dst, "", syscall.MS_BIND, ""); err != nil {
		t.Logf("bind mount: %v", err)
		return false
	}
	t.Cleanup(func() { _ = syscall.Unmount(dst, syscall.MNT_DETACH) })
	return true
}

// Attack (target 1, Resolve's one-openat2 answer, FS.Plain): paths for
// which the kernel's RESOLVE_NO_SYMLINKS walk and the gate's part-by-part
// walk might differ: a bind mount of a directory holding a link (the
// mount point is a plain directory, what is below is not), a bind mount
// over a symbolic link's target, /proc/self/root and /proc/self/cwd (a
// magic link each), /dev/fd/N and /proc/self/fd/N (a descriptor of a
// secret), /proc/thread-self, a trailing slash, "." and "..", "//", a
// part that is a file, a part longer than NAME_MAX, a path longer than
// PATH_MAX, a last part that is a link, a dangling link, a link to "/".
// Held: Resolve(OS) gives each back exactly as the walk alone does
// (Plain refuses any link, the last part and magic links too, and any
// error is "cannot tell"; an unclean path is never asked).
func TestRedteam21_PlainResolveAgreesWithTheWalkOnEveryStrangePath(t *testing.T) {
	base := r21base(t)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(filepath.Join(root, "sub", "deep"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "mnt"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "mnt2"), 0o755))
	key := filepath.Join(home, ".ssh", "id_ed25519")
	must(t, os.WriteFile(key, []byte("SECRET"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "file"), []byte("x"), 0o644))
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "sub", "keys")))
	must(t, os.Symlink(key, filepath.Join(root, "sub", "deep", "k")))
	must(t, os.Symlink(filepath.Join(base, "nowhere"), filepath.Join(root, "dangling")))
	must(t, os.Symlink("/", filepath.Join(root, "slash")))
	must(t, os.Symlink(filepath.Join(root, "sub"), filepath.Join(root, "sublink")))
	mounted := r21bind(t, filepath.Join(root, "sub"), filepath.Join(root, "mnt"))
	mounted2 := mounted && r21bind(t, filepath.Join(home), filepath.Join(root, "mnt2"))
	f, err := os.Open(key)
	must(t, err)
	defer f.Close()
	fd := strconv.Itoa(int(f.Fd()))
	long := strings.Repeat("a", 300)
	var deep strings.Builder
	deep.WriteString(root)
	for range 30 {
		deep.WriteString("/" + strings.Repeat("d", 200))
	}
	paths := []string{
		root, filepath.Join(root, "file"), root + "/", root + "/file/", root + "//file", root + "/./file",
		root + "/sub/../file", root + "/sub/keys/id_ed25519", root + "/sub/keys", root + "/sub/deep/k",
		root + "/file/x", root + "/" + long, root + "/" + long + "/x", deep.String(),
		root + "/dangling", root + "/dangling/x", root + "/slash", root + "/slash" + key,
		root + "/sublink/keys/id_ed25519", root + "/mnt/keys/id_ed25519", root + "/mnt/deep/k",
		root + "/mnt", root + "/mnt/deep", root + "/mnt2/.ssh/id_ed25519",
		"/proc/self/root" + key, "/proc/self/cwd", "/proc/thread-self/root" + key,
		"/proc/" + strconv.Itoa(os.Getpid()) + "/root" + key, "/proc/self/fd/" + fd, "/dev/fd/" + fd,
		"/proc/" + strconv.Itoa(os.Getpid()) + "/fd/" + fd, "/proc/" + strconv.Itoa(os.Getpid()) + "/cwd/file",
		"/dev/stdin", "/", "/proc", "/proc/self", "/proc/" + strconv.Itoa(os.Getpid()),
	}
	for _, p := range paths {
		got, want := Resolve(OS, root, p), Resolve(walkOnly{OS}, root, p)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Resolve gives %+v, the walk %+v", p, got, want)
		}
	}
	// relative, against the root
	for _, p := range []string{"file", "sub/keys/id_ed25519", "mnt/keys", "./file", "sub/../file", "file/"} {
		got, want := Resolve(OS, root, p), Resolve(walkOnly{OS}, root, p)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Resolve gives %+v, the walk %+v", p, got, want)
		}
	}
	if !mounted || !mounted2 {
		testkit.Missing(t, "bind mounts need root (the mount rows proved nothing)")
	}
	// and the policy: a secret reached through a bind mount is the bind
	// mount's path (the gate knows mounts elsewhere); through a link it
	// is the key
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if r := p.Resolve(root, "sub/keys/id_ed25519"); r.Path != key {
		t.Errorf("the key through a link resolves to %s", r.Path)
	}
}

// Attack (target 1, a race): Resolve answers at once that a directory's
// file is plain; the directory is then swapped for a link to a secret's
// directory (rename over it), and the path resolved again.
// Held: each Resolve is its own answer (the later one follows the link
// to the key), as the walk's; no answer is kept across calls.
func TestRedteam21_PlainResolveSeesADirectorySwappedForALink(t *testing.T) {
	base := r21base(t)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(filepath.Join(root, "d"), 0o755))
	key := filepath.Join(home, ".ssh", "id_ed25519")
	must(t, os.WriteFile(key, []byte("SECRET"), 0o600))
	must(t, os.WriteFile(filepath.Join(root, "d", "id_ed25519"), []byte("x"), 0o644))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if r := p.Resolve(root, "d/id_ed25519"); r.Path != filepath.Join(root, "d", "id_ed25519") {
		t.Fatalf("control: %s", r.Path)
	}
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "d2")))
	must(t, os.Rename(filepath.Join(root, "d2"), filepath.Join(root, "d")+"x"))
	must(t, os.RemoveAll(filepath.Join(root, "d")))
	must(t, os.Rename(filepath.Join(root, "d")+"x", filepath.Join(root, "d")))
	deadline := time.Now().Add(time.Second)
	for time.Now().Before(deadline) {
		if r := p.Resolve(root, "d/id_ed25519"); r.Path != key {
			t.Fatalf("after the swap, d/id_ed25519 resolves to %s", r.Path)
		}
	}
}

// Attack (target 5, HomeTilde): a PATH entry that is the home itself,
// spelled "~", "~/", "~//", "~/." or "~/./" (a quoted assignment in a
// startup file): bash reads each as the home. The agent writes
// home/r21tool, and, with the PATH unknown, tools/r21cmd in the
// workspace, r21cmd being a program of the home.
// Held: each spelling is the home to the protected rules and to the
// command list (HomeTilde, then the rules' and the list's own cleaning).
func TestRedteam21_PathEntryThatIsTheHomeItself(t *testing.T) {
	base := r21base(t)
	root, home := filepath.Join(base, "root"), filepath.Join(base, "home")
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.MkdirAll(home, 0o755))
	must(t, os.WriteFile(filepath.Join(home, "r21cmd"), []byte("#!/bin/sh\n"), 0o755))
	for _, e := range []string{"~", "~/", "~//", "~/.", "~/./"} {
		p := Places{Roots: []string{root}, Home: home, PathDirs: []string{e}, PathUnknown: true}.Policy(OS)
		for _, w := range []string{filepath.Join(home, "r21tool"), filepath.Join(root, "tools", "r21cmd")} {
			if c := p.ClassWrite(p.Resolve(root, w)); c != ClassProtected {
				t.Errorf("PATH entry %q: a write of %s is %v", e, w, c)
			}
		}
	}
}

// Attack (target 5, CommandList.InUnlisted: a stat of dir/name in each
// PATH directory that cannot be listed — another user's 0711 tools,
// played here by a lister that refuses it, as the test runs as root):
// names that climb out of it or name something else: "", ".", "..",
// "../r21cmd", "sub/r21cmd", "r21cmd/", "/r21cmd", a name with a NUL,
// and a name that is a directory there.
// Held: each is no command (a name with a slash is never searched on
// PATH by bash), and the program r21cmd of the directory is one.
func TestRedteam21_InUnlistedTakesOnlyAPlainName(t *testing.T) {
	base := r21base(t)
	d := filepath.Join(base, "tools")
	must(t, os.MkdirAll(filepath.Join(d, "sub"), 0o755))
	must(t, os.WriteFile(filepath.Join(d, "r21cmd"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(d, "sub", "r21cmd"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "r21cmd"), []byte("#!/bin/sh\n"), 0o755))
	c := newCommandList([]string{d}, func(string) ([]string, error) { return nil, os.ErrPermission })
	c.Look(0)
	if !c.InUnlisted("r21cmd") || !c.Is("r21cmd", false, time.Hour) {
		t.Fatalf("control: r21cmd of the unlisted directory is no command")
	}
	for _, n := range []string{"", ".", "..", "../r21cmd", "sub/r21cmd", "r21cmd/", "/r21cmd", "r21cmd\x00", "sub", "./r21cmd"} {
		if c.InUnlisted(n) || c.Is(n, false, time.Hour) {
			t.Errorf("%q is a command of the unlisted directory", n)
		}
	}
}

// Held (was open): HomeTilde reads "~NAME/…" through the user database, as bash does (not the directory stack's ~+, ~-, ~N).
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

// Held (was open): InUnlisted asks Lstat: the entry itself counts, as in a listing.
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
