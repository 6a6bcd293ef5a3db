//go:build fs_live && linux

package shell

// The twenty-sixth red team's rows on file systems this machine's CI
// cannot mount: a btrfs image and a FAT image on a loop device, which
// need root, a loop device and mkfs.btrfs or mkfs.vfat. They are held by
// the filter (inodeIoctls; TestRedteam26_FilterAllowsIoctlsThatMakeOrChmod
// checks the filter itself in every run). Run them where those exist:
//
//	go test -tags fs_live -run TestRedteam26_ ./agent/shell/
//
// Each fails when the ioctl does what the filter must refuse.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// Attack (change 2, the inode ioctls; real, on a btrfs filesystem): a
// Landlock step that may write only in/ makes a subvolume (a directory)
// in out/, which it may only read, with BTRFS_IOC_SUBVOL_CREATE on a
// read-only descriptor of out/; and plants a file there: a subvolume it
// makes and fills in in/, snapshotted into out/ (BTRFS_IOC_SNAP_CREATE_V2)
// as out/planted/hook. A plain mkdir in out/ is refused (Landlock works).
// Was THROUGH (severity high on btrfs: Fedora's, openSUSE's default; a step
// without protected plants a tree of files, a hook or an autostart entry
// of its choosing, in any directory it can read and the user owns):
// btrfs makes a subvolume by its own ioctl, through none of the path
// hooks (security_path_mkdir) Landlock decides by, and Landlock's ioctl
// right covers devices only. Fix: refuse the btrfs ioctls that make or
// remove subvolumes and snapshots (SNAP_CREATE, SNAP_CREATE_V2,
// SUBVOL_CREATE, SUBVOL_CREATE_V2, SNAP_DESTROY, SNAP_DESTROY_V2, and
// SET_RECEIVED_SUBVOL, which changes a subvolume's metadata) in the
// filter's inodeIoctls; better, refuse every ioctl of type 0x94 (btrfs)
// and 'r' 0x10-0x13 (FAT) but a read list, or allow only the ioctls a
// build needs (a list of known read-only requests) in a Landlock step.
func TestRedteam26_BtrfsSubvolumeMadeWhereLandlockForbids(t *testing.T) {
	mnt := r26btrfs(t, "")
	in, out := filepath.Join(mnt, "in"), filepath.Join(mnt, "out")
	for _, d := range []string{in, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	script := `
import fcntl, os, struct
out, inn = ` + strconv.Quote(out) + `, ` + strconv.Quote(in) + `
try:
    os.mkdir(os.path.join(out, "plain"))
    print("mkdir: made")
except OSError as e:
    print("mkdir:", e.strerror)
def v1(name): return bytearray(struct.pack("q4088s", 0, name.encode()))
def v2(fd, name): return bytearray(struct.pack("qQQ32s4040s", fd, 0, 0, b"", name.encode()))
fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
try:
    fcntl.ioctl(fd, ` + strconv.Itoa(r26BtrfsSubvolCreate) + `, v1("subvol"))
    print("subvol: made")
except OSError as e:
    print("subvol:", e.strerror)
ifd = os.open(inn, os.O_RDONLY | os.O_DIRECTORY)
try:
    fcntl.ioctl(ifd, ` + strconv.Itoa(r26BtrfsSubvolCreate) + `, v1("src"))
    with open(os.path.join(inn, "src", "hook"), "w") as f:
        f.write("planted")
    sfd = os.open(os.path.join(inn, "src"), os.O_RDONLY | os.O_DIRECTORY)
    fcntl.ioctl(fd, ` + strconv.Itoa(r26BtrfsSnapCreateV2) + `, v2(sfd, "planted"))
    print("snapshot: made")
except OSError as e:
    print("snapshot:", e.strerror)
`
	res := confineDirect(t, []string{in}, in, script)
	if _, err := os.Stat(filepath.Join(out, "plain")); err == nil {
		t.Fatalf("Landlock let a plain mkdir into out/ (the world is wrong):\n%s", res)
	}
	if _, err := os.Stat(filepath.Join(out, "subvol")); err == nil {
		t.Errorf("THROUGH: a subvolume was made in out/, which the step may only read:\n%s", res)
	}
	if b, err := os.ReadFile(filepath.Join(out, "planted", "hook")); err == nil && strings.Contains(string(b), "planted") {
		t.Errorf("THROUGH: a snapshot planted out/planted/hook, which the step may only read:\n%s", res)
	}
}

// Attack (change 2, the inode ioctls; real, on btrfs mounted with
// user_subvol_rm_allowed, as a distribution's home volume may be): a
// Landlock step that may write only in/ removes out/victim, a subvolume
// holding a file, with BTRFS_IOC_SNAP_DESTROY on a read-only descriptor
// of out/. A plain rmdir/unlink there is refused. THROUGH (severity high
// where the option is set: a whole tree the step may only read is gone):
// as the row above, btrfs removes a subvolume through no path hook of
// Landlock's. Fix: refuse SNAP_DESTROY and SNAP_DESTROY_V2 too.
func TestRedteam26_BtrfsSubvolumeRemovedWhereLandlockForbids(t *testing.T) {
	mnt := r26btrfs(t, "user_subvol_rm_allowed")
	needTool(t, "btrfs")
	in, out := filepath.Join(mnt, "in"), filepath.Join(mnt, "out")
	for _, d := range []string{in, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	victim := filepath.Join(out, "victim")
	if b, err := exec.Command("btrfs", "subvolume", "create", victim).CombinedOutput(); err != nil {
		t.Fatalf("btrfs subvolume create: %v\n%s", err, b)
	}
	if err := os.WriteFile(filepath.Join(victim, "keep"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := confineDirect(t, []string{in}, in, `
import fcntl, os, struct
out = `+strconv.Quote(out)+`
try:
    os.unlink(os.path.join(out, "victim", "keep"))
    print("unlink: done")
except OSError as e:
    print("unlink:", e.strerror)
fd = os.open(out, os.O_RDONLY | os.O_DIRECTORY)
try:
    fcntl.ioctl(fd, `+strconv.Itoa(r26BtrfsSnapDestroy)+`, bytearray(struct.pack("q4088s", 0, b"victim")))
    print("destroy: done")
except OSError as e:
    print("destroy:", e.strerror)
`)
	if _, err := os.Stat(filepath.Join(victim, "keep")); err != nil {
		if _, err2 := os.Stat(victim); err2 == nil {
			t.Fatalf("Landlock let an unlink in out/ (the world is wrong):\n%s", res)
		}
		t.Errorf("THROUGH: out/victim, a subvolume the step may only read, was removed:\n%s", res)
	}
}

// Attack (change 2, the inode ioctls; real, on a vfat filesystem, as a
// removable disk or the EFI partition is): a Landlock step that may
// write only in/ makes out/f read-only (and hidden, system) with
// FAT_IOCTL_SET_ATTRIBUTES on a descriptor open for reading: a chmod by
// another name, performed by fat_setattr, which the supervisor never
// sees. THROUGH (severity low: vfat only; the mode FAT keeps is one bit):
// out/f's mode loses its write bits. Fix: refuse FAT_IOCTL_SET_ATTRIBUTES
// in inodeIoctls.
func TestRedteam26_FatAttributesChangedWhereLandlockForbids(t *testing.T) {
	mnt := r26loop(t, "vfat", "", "mkfs.vfat")
	in, out := filepath.Join(mnt, "in"), filepath.Join(mnt, "out")
	for _, d := range []string{in, out} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	f := filepath.Join(out, "f")
	if err := os.WriteFile(f, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	res := confineDirect(t, []string{in}, in, `
import fcntl, os, struct
f = `+strconv.Quote(f)+`
try:
    os.chmod(f, 0o444)
    print("chmod: done")
except OSError as e:
    print("chmod:", e.strerror)
fd = os.open(f, os.O_RDONLY)
try:
    fcntl.ioctl(fd, `+strconv.Itoa(r26FatSetAttributes)+`, bytearray(struct.pack("I", 0x01 | 0x02 | 0x04)))
    print("set attributes: done")
except OSError as e:
    print("set attributes:", e.strerror)
`)
	if !strings.Contains(res, "chmod: Operation not permitted") {
		t.Fatalf("the supervisor let a chmod of out/f (the world is wrong):\n%s", res)
	}
	after, err := os.Stat(f)
	if err != nil {
		t.Fatal(err)
	}
	if after.Mode() != before.Mode() {
		t.Errorf("THROUGH: out/f's mode went from %v to %v:\n%s", before.Mode(), after.Mode(), res)
	}
}

// r26btrfs makes a btrfs filesystem in an image file and mounts it (as
// root, on a loop device, with opts) at a new directory, unmounted in
// t.Cleanup; with no mkfs.btrfs, no root or no loop device it is a
// missing tool.
func r26btrfs(t *testing.T, opts string) string {
	t.Helper()
	return r26loop(t, "btrfs", opts, "mkfs.btrfs", "-q")
}

// r26loop is r26btrfs for a filesystem of type kind made by mkfs.
func r26loop(t *testing.T, kind, opts string, mkfs ...string) string {
	t.Helper()
	useMechanism(t, Landlock)
	needTool(t, "python3")
	if _, err := exec.LookPath(mkfs[0]); err != nil {
		testkit.Missing(t, mkfs[0]+": "+err.Error())
	}
	if os.Geteuid() != 0 {
		testkit.Missing(t, "root, to mount a "+kind+" image on a loop device")
	}
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	img, mnt := filepath.Join(base, "img"), filepath.Join(base, "mnt")
	if err := os.WriteFile(img, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(img, 128<<20); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(mkfs[0], append(mkfs[1:], img)...).CombinedOutput(); err != nil {
		testkit.Missing(t, mkfs[0]+": "+string(out))
	}
	if err := os.Mkdir(mnt, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"-t", kind, "-o", "loop"}
	if opts != "" {
		args[3] += "," + opts
	}
	if out, err := exec.Command("mount", append(args, img, mnt)...).CombinedOutput(); err != nil {
		testkit.Missing(t, "a loop mount of a "+kind+" image: "+string(out))
	}
	t.Cleanup(func() { exec.Command("umount", mnt).Run() })
	return mnt
}
