package shell

import (
	"os"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// The protected tree, the PATH shadow and the places' look (which need
// fileStat) only matter while a sandbox is in force, and Windows has none
// yet (detect_windows.go): nothing here runs before one is added. They
// are built on file IDs so that they hold once it is: an entry's identity
// is its volume's serial number and its file index
// (GetFileInformationByHandle), and its change time is the ChangeTime of
// FILE_BASIC_INFO, which moves when an entry in a directory is made,
// removed or renamed, as a Unix ctime does.

// timespec is a change time: seconds and nanoseconds since 1601 (the
// FILETIME epoch; only equality and order are used).
type timespec struct{ Sec, Nsec int64 }

// fileStat is what the protected tree, the PATH shadow and the places'
// look need of an entry: its identity, its change time and whether it
// is a directory (not a junction or a link to one). It keeps the law
// that an entry made where a protected one was is noticed
// (protected_tree.go).
type fileStat struct {
	dev, ino uint64
	ctime    timespec
	dir      bool
	mayShut  bool // never on Windows (shutDir)
}

// fileBasicInfo is FILE_BASIC_INFO (four LARGE_INTEGER times in 100 ns
// units, and the attributes).
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

// statHandle is fileStat of an open handle.
func statHandle(h windows.Handle) (fileStat, bool) {
	var bh windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(h, &bh) != nil {
		return fileStat{}, false
	}
	var bi fileBasicInfo
	if windows.GetFileInformationByHandleEx(h, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&bi)), uint32(unsafe.Sizeof(bi))) != nil {
		return fileStat{}, false
	}
	attrs := bh.FileAttributes
	return fileStat{
		dev:   uint64(bh.VolumeSerialNumber),
		ino:   uint64(bh.FileIndexHigh)<<32 | uint64(bh.FileIndexLow),
		ctime: timespec{Sec: bi.ChangeTime / 1e7, Nsec: bi.ChangeTime % 1e7 * 100},
		dir:   attrs&windows.FILE_ATTRIBUTE_DIRECTORY != 0 && attrs&windows.FILE_ATTRIBUTE_REPARSE_POINT == 0,
	}, true
}

// statPath opens p for its attributes only (a directory too: backup
// semantics), the link itself when noFollow, and stats it.
func statPath(p string, noFollow bool) (fileStat, bool) {
	name, err := windows.UTF16PtrFromString(p)
	if err != nil {
		return fileStat{}, false
	}
	flags := uint32(windows.FILE_FLAG_BACKUP_SEMANTICS)
	if noFollow {
		flags |= windows.FILE_FLAG_OPEN_REPARSE_POINT
	}
	h, err := windows.CreateFile(name, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING, flags, 0)
	if err != nil {
		return fileStat{}, false
	}
	defer windows.CloseHandle(h)
	return statHandle(h)
}

// lstatFile is the entry at p, a link or junction itself rather than its
// target.
func lstatFile(p string) (fileStat, bool) { return statPath(p, true) }

// statFile is the entry at p, through links.
func statFile(p string) (fileStat, bool) { return statPath(p, false) }

// openDirNoFollow opens the directory at p, not when p is a link or a
// junction, and gives what it is. The check and the open are two steps:
// a swap between them is possible, and is one of the things a sandbox
// must rule out before this is relied on.
func openDirNoFollow(p string) (*os.File, fileStat, bool) {
	st, ok := lstatFile(p)
	if !ok || !st.dir {
		return nil, fileStat{}, false
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, fileStat{}, false
	}
	return f, st, true
}

// inodeOf is the file index of the entry at p (info, from a listing,
// holds none on Windows).
func inodeOf(p string, _ os.FileInfo) (uint64, bool) {
	st, ok := lstatFile(p)
	return st.ino, ok
}

// coarseNow is the time a listing begins, no later than the change time
// of an entry made after it: the system time, a tick (15.6 ms) back, as
// NTFS stamps entries with the tick's time.
func coarseNow() timespec {
	const epochDiff = 11644473600 // seconds from 1601 to 1970
	t := time.Now().Add(-16 * time.Millisecond)
	return timespec{Sec: t.Unix() + epochDiff, Nsec: int64(t.Nanosecond())}
}

// shutDir: a directory shut to its owner by its ACL is not looked for on
// Windows.
func shutDir(string) (fileStat, bool) { return fileStat{}, false }
