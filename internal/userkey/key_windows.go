package userkey

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"
)

// oNoFollow: os.OpenFile has no such flag on Windows; a reparse point at
// the key is refused by ownedAlone instead.
const oNoFollow = 0

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

func syncDir(string) {}
