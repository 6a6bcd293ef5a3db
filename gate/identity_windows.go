package gate

import (
	"golang.org/x/sys/windows"
)

// FinalName is the final path Windows gives the file or directory at
// path (in the gate's form): it is opened with no access asked, sharing
// all, as a directory may be (FILE_FLAG_BACKUP_SEMANTICS), following
// links as an open does, and GetFinalPathNameByHandle (VOLUME_NAME_DOS)
// names it. A subst drive, a volume mounted in a folder, and under Wine
// the Z: spelling of a drive and a Unix symlink Wine's open follows all
// end at the one name (finalname.go). ok is false when nothing is there,
// or the final path is no path the gate can place (a volume with no
// drive letter nor folder, Wine's \\?\unix namespace): then the caller
// keeps the spelling.
func (osFS) FinalName(path string) (string, bool) {
	native := nativeFromGate(path)
	if len(native) == 2 && driveLetter(native) {
		native += "/"
	}
	name, err := windows.UTF16PtrFromString(native)
	if err != nil {
		return "", false
	}
	h, err := windows.CreateFile(name, 0,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE,
		nil, windows.OPEN_EXISTING, windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return "", false
	}
	defer windows.CloseHandle(h)
	final, ok := finalPathName(h)
	if !ok {
		return "", false
	}
	return finalGateForm(final)
}

// finalPathName is GetFinalPathNameByHandleW of h with VOLUME_NAME_DOS.
func finalPathName(h windows.Handle) (string, bool) {
	buf := make([]uint16, 512)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), volumeNameDOS)
		if err != nil || n == 0 {
			return "", false
		}
		if int(n) < len(buf) {
			return windows.UTF16ToString(buf[:n]), true
		}
		buf = make([]uint16, n+1)
	}
}

// volumeNameDOS is GetFinalPathNameByHandle's VOLUME_NAME_DOS (0), with
// FILE_NAME_NORMALIZED (0): a drive letter or a folder a volume is
// mounted in, long names.
const volumeNameDOS = 0
