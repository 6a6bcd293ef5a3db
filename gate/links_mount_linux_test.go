package gate

// The tenth red team's mount row, held: Linux only (a bind mount).

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// Held (was open: the tenth red team's): linkWalk does not go down a
// directory on another device than the file's, so a mount inside the
// home's configuration (a dev container's volume at ~/.config/mise, the
// workspace a mount of the same disk) was never searched: the file's
// other name in the workspace was written Inside. The policy now reads
// the mount table: the volume's own path is that part of the home
// (mounts.go), and its files' other names are searched there. Needs
// root (a bind mount); skipped without.
func TestRedTeam10_configuration_on_a_mount_inside_the_home_is_searched(t *testing.T) {
	base, home, _ := redHome(t)
	disk := filepath.Join(base, "disk")
	must(t, os.MkdirAll(disk, 0o755))
	if err := unix.Mount("tmpfs", disk, "tmpfs", 0, ""); err != nil {
		t.Skip("a mount is needed: ", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(disk, unix.MNT_DETACH) })
	root := filepath.Join(disk, "work")
	hardLink(t, filepath.Join(disk, "mise", "config.toml"), filepath.Join(root, "mise.toml"))
	at := filepath.Join(home, ".config", "mise")
	must(t, os.MkdirAll(at, 0o755))
	if err := unix.Mount(filepath.Join(disk, "mise"), at, "", unix.MS_BIND, ""); err != nil {
		t.Skip("a bind mount is needed: ", err)
	}
	t.Cleanup(func() { _ = unix.Unmount(at, unix.MNT_DETACH) })
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if got := p.ClassWrite(Resolve(OS, root, filepath.Join(root, "mise.toml"))); got != ClassProtected {
		t.Errorf("write the workspace's name of ~/.config/mise/config.toml (a mount): %v, want %v", got, ClassProtected)
	}
}
