package userkey

import (
	"errors"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// keyDir is a key's directory by path: on Windows it is opened by path
// each time, links on the way followed (os.OpenFile has no O_NOFOLLOW
// there). The directory is under the user's profile, whose access list
// keeps other users out; its owner is not checked, and a reparse point
// at the key itself is refused by ownedAlone.
type keyDir struct{ path string }

// openDir is dir, made (0700) with make.
func openDir(dir string, make bool) (*keyDir, error) {
	if make {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, err
		}
	}
	return &keyDir{path: dir}, nil
}

func (d *keyDir) close() {}

func (d *keyDir) open(name string) (*os.File, error) {
	return os.Open(filepath.Join(d.path, name))
}

func (d *keyDir) create(name string) (*os.File, error) {
	return os.OpenFile(filepath.Join(d.path, name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
}

func (d *keyDir) link(from, to string) error {
	return os.Link(filepath.Join(d.path, from), filepath.Join(d.path, to))
}

func (d *keyDir) remove(name string) { os.Remove(filepath.Join(d.path, name)) }

func (d *keyDir) sync() {}

// ownedAlone refuses a key that is not a regular file. The key's
// directory is under the user's profile, whose access list keeps other
// users out; its owner is not checked.
func ownedAlone(f *os.File) error {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(windows.Handle(f.Fd()), &info); err != nil {
		return err
	}
	if info.FileAttributes&(windows.FILE_ATTRIBUTE_DIRECTORY|windows.FILE_ATTRIBUTE_REPARSE_POINT) != 0 {
		return errors.New("it is not a regular file: remove it and start eukhe again")
	}
	return nil
}
