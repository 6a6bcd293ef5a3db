//go:build !windows

package docs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/unix"
)

// TestLaw_beneath_walk_follows_no_link: the component walk darwin and
// FreeBSD use for S8.4 (walkBeneath; Linux has openat2) opens a nested
// file below its directory, and refuses a symbolic link as a directory on
// the way, as the last part, and a ".." (never above its directory).
func TestLaw_beneath_walk_follows_no_link(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.MkdirAll(filepath.Join(root, "a", "b"), 0o755))
	must(os.WriteFile(filepath.Join(root, "a", "b", "f.txt"), []byte("inside"), 0o644))
	must(os.WriteFile(filepath.Join(outside, "secret"), []byte("outside"), 0o644))
	must(os.Symlink(outside, filepath.Join(root, "a", "dirlink")))
	must(os.Symlink(filepath.Join(outside, "secret"), filepath.Join(root, "a", "filelink")))
	must(os.Symlink("b", filepath.Join(root, "a", "rellink")))

	dir, err := unix.Open(root, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	must(err)
	defer unix.Close(dir)

	read := func(rel string) (string, error) {
		fd, err := walkBeneath(dir, rel, unix.O_RDONLY|unix.O_NONBLOCK)
		if err != nil {
			return "", err
		}
		f := os.NewFile(uintptr(fd), rel)
		defer f.Close()
		b, err := readAllFD(f)
		return string(b), err
	}

	if got, err := read("a/b/f.txt"); err != nil || got != "inside" {
		t.Fatalf("a nested file: %q, %v; want its bytes", got, err)
	}
	for _, rel := range []string{"a/dirlink/secret", "a/rellink/f.txt"} {
		if got, err := read(rel); !errors.Is(err, ErrLinkBelow) {
			t.Errorf("%s (a link as a directory on the way): %q, %v; want ErrLinkBelow", rel, got, err)
		}
	}
	if got, err := read("a/filelink"); !errors.Is(err, ErrLinkBelow) {
		t.Errorf("a link as the last part: %q, %v; want ErrLinkBelow", got, err)
	}
	for _, rel := range []string{"..", "a/../..", "a/b/../../../" + filepath.Base(outside) + "/secret", "/etc/passwd", "", "a//b/f.txt"} {
		if got, err := read(rel); !errors.Is(err, errOutside) {
			t.Errorf("%q: %q, %v; want errOutside", rel, got, err)
		}
	}
	if _, err := read("a/b/missing"); !isNotExist(err) {
		t.Errorf("a missing file: %v; want not-exist", err)
	}
	// "." is the directory itself; a directory is opened with O_DIRECTORY
	for _, rel := range []string{".", "a/b"} {
		fd, err := walkBeneath(dir, rel, unix.O_RDONLY|unix.O_DIRECTORY)
		if err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		unix.Close(fd)
	}
	// a link to a directory as the last part of a directory open
	if fd, err := walkBeneath(dir, "a/dirlink", unix.O_RDONLY|unix.O_DIRECTORY); !errors.Is(err, ErrLinkBelow) {
		if err == nil {
			unix.Close(fd)
		}
		t.Errorf("a/dirlink opened as a directory: %v; want ErrLinkBelow", err)
	}
	// a create below: made where the walk says, refused through a link
	fd, err := walkBeneath(dir, "a/b/new", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL)
	must(err)
	unix.Close(fd)
	if _, err := os.Stat(filepath.Join(root, "a", "b", "new")); err != nil {
		t.Errorf("created file not there: %v", err)
	}
	if fd, err := walkBeneath(dir, "a/dirlink/new", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL); !errors.Is(err, ErrLinkBelow) {
		if err == nil {
			unix.Close(fd)
		}
		t.Errorf("a create through a link: %v; want ErrLinkBelow", err)
	}
	if _, err := os.Stat(filepath.Join(outside, "new")); err == nil {
		t.Errorf("a create through a link made a file outside")
	}
}

// TestLaw_no_link_walk_from_the_root: the walk from the file system's
// root darwin and FreeBSD use for ReadNoLinks, OpenTree(real) and the
// temp file's create (walkNoLinks, createWalk) opens and creates at a
// real path, and refuses a link anywhere on the path: the create makes
// nothing through it.
func TestLaw_no_link_walk_from_the_root(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	real := filepath.Join(base, "real")
	if err := os.MkdirAll(filepath.Join(real, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(real, "sub", "f"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, filepath.Join(base, "link")); err != nil {
		t.Fatal(err)
	}
	fd, err := walkNoLinks(filepath.Join(real, "sub", "f"), unix.O_RDONLY)
	if err != nil {
		t.Fatalf("a real path: %v", err)
	}
	unix.Close(fd)
	if fd, err := walkNoLinks(filepath.Join(base, "link", "sub", "f"), unix.O_RDONLY); !errors.Is(err, ErrLinkBelow) {
		if err == nil {
			unix.Close(fd)
		}
		t.Errorf("a path through a link: %v; want ErrLinkBelow", err)
	}
	if fd, err := walkNoLinks(filepath.Join(base, "link"), unix.O_RDONLY|unix.O_DIRECTORY); !errors.Is(err, ErrLinkBelow) {
		if err == nil {
			unix.Close(fd)
		}
		t.Errorf("a link as the last part: %v; want ErrLinkBelow", err)
	}

	f, err := createWalk(filepath.Join(real, "sub", "new"))
	if err != nil {
		t.Fatalf("a create at a real path: %v", err)
	}
	st, err := f.Stat()
	f.Close()
	if err != nil || st.Mode().Perm() != 0 {
		t.Errorf("the created file: %v, mode %v; want mode 0000", err, st.Mode().Perm())
	}
	if _, err := createWalk(filepath.Join(real, "sub", "new")); !errors.Is(err, fs.ErrExist) {
		t.Errorf("a second create: %v; want fs.ErrExist", err)
	}
	if _, err := createWalk(filepath.Join(base, "link", "sub", "other")); !errors.Is(err, ErrLinkBelow) {
		t.Errorf("a create through a link: %v; want ErrLinkBelow", err)
	}
	if _, err := os.Lstat(filepath.Join(real, "sub", "other")); err == nil {
		t.Errorf("a create through a link made the file")
	}
	// a dangling link where the file would be is not created through
	if err := os.Symlink(filepath.Join(base, "elsewhere"), filepath.Join(real, "sub", "dangling")); err != nil {
		t.Fatal(err)
	}
	if _, err := createWalk(filepath.Join(real, "sub", "dangling")); err == nil {
		t.Errorf("a create at a dangling link succeeded")
	}
	if _, err := os.Lstat(filepath.Join(base, "elsewhere")); err == nil {
		t.Errorf("a create at a dangling link made its target")
	}
}
