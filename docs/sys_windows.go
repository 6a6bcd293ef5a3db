package docs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// sysFD is an open file of the system's own calls: a handle here.
type sysFD = windows.Handle

// badFD is no open file.
const badFD = windows.InvalidHandle

// oNoFollow and oNonBlock have no os.OpenFile flag here: a reparse point
// is refused by the checked opens (openNoReparse, openUnder) where S8.4
// asks it, and a FIFO cannot sit in a file's place.
const (
	oNoFollow = 0
	oNonBlock = 0
)

// The locks of lockFile: exclusive, shared, and failing at once.
const (
	lockEx = 1
	lockSh = 2
	lockNB = 4
)

// lockHandle takes a LockFileEx lock of an open file. Its locks are
// mandatory on the bytes they cover, so it locks one byte far past any
// file's end: readers and writers of the file are not kept out, only
// another lock of that byte (eukhe's writers, sweeps and finders: S8.5).
func lockHandle(h windows.Handle, how int) error {
	var flags uint32
	if how&lockEx != 0 {
		flags |= windows.LOCKFILE_EXCLUSIVE_LOCK
	}
	if how&lockNB != 0 {
		flags |= windows.LOCKFILE_FAIL_IMMEDIATELY
	}
	ol := windows.Overlapped{OffsetHigh: 0x7fffffff}
	return windows.LockFileEx(h, flags, 0, 1, 0, &ol)
}

// lockFile takes a lock of an open file (lockHandle).
func lockFile(f *os.File, how int) error { return lockHandle(windows.Handle(f.Fd()), how) }

// closeFD closes an open file.
func closeFD(fd sysFD) error { return windows.CloseHandle(fd) }

// fileBasicInfo is FILE_BASIC_INFO: times left 0 are not changed.
type fileBasicInfo struct {
	CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
	FileAttributes                                          uint32
	_                                                       uint32
}

// fchmodFD gives an open file a mode: here its read-only attribute, set
// when mode has no write bit for the owner, cleared when it has.
func fchmodFD(fd sysFD, mode uint32) error {
	var bi fileBasicInfo
	if err := windows.GetFileInformationByHandleEx(fd, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&bi)), uint32(unsafe.Sizeof(bi))); err != nil {
		return err
	}
	attrs := bi.FileAttributes &^ windows.FILE_ATTRIBUTE_READONLY
	if mode&0o200 == 0 {
		attrs |= windows.FILE_ATTRIBUTE_READONLY
	}
	if attrs == 0 {
		attrs = windows.FILE_ATTRIBUTE_NORMAL
	}
	set := fileBasicInfo{FileAttributes: attrs}
	return windows.SetFileInformationByHandle(fd, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&set)), uint32(unsafe.Sizeof(set)))
}

// errHeldOpen is why a file was not replaced: Windows replaces no file
// another program holds open without sharing its deletion.
var errHeldOpen = errors.New("another program may hold it open, and Windows replaces no file held open: nothing was written to it")

// renameReplace renames from over to in one step (S8.1's atomic replace):
// the POSIX rename first (renamePOSIX: it replaces a target that is open
// by handles sharing its deletion, as eukhe's own opens of a journal or
// a kept old file are), else MoveFileEx with
// MOVEFILE_REPLACE_EXISTING|MOVEFILE_WRITE_THROUGH. It fails whole or
// lands whole. A target with the read-only attribute (which MoveFileEx
// will not replace, where rename(2) would) has it cleared for the rename
// and given back when the rename fails; the file that lands gets its own
// mode after (tempFile.reveal). A target open where there is no POSIX
// rename (Wine) is replaced in two renames (replaceAside). A target held
// open by a handle that does not share its deletion fails it:
// errHeldOpen.
func renameReplace(from, to string) error {
	if renamePOSIX(from, to) == nil {
		return nil
	}
	f, err := windows.UTF16PtrFromString(from)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	t, err := windows.UTF16PtrFromString(to)
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	const flags = windows.MOVEFILE_REPLACE_EXISTING | windows.MOVEFILE_WRITE_THROUGH
	err = windows.MoveFileEx(f, t, flags)
	if err == windows.ERROR_ACCESS_DENIED {
		if attrs, aerr := windows.GetFileAttributes(t); aerr == nil && attrs&windows.FILE_ATTRIBUTE_READONLY != 0 && attrs&windows.FILE_ATTRIBUTE_DIRECTORY == 0 {
			if windows.SetFileAttributes(t, attrs&^windows.FILE_ATTRIBUTE_READONLY) == nil {
				if err = windows.MoveFileEx(f, t, flags); err != nil {
					windows.SetFileAttributes(t, attrs)
				}
			}
		}
	}
	if err == windows.ERROR_ACCESS_DENIED {
		if aerr := replaceAside(from, to); aerr == nil {
			return nil
		} else if aerr == windows.ERROR_SHARING_VIOLATION {
			err = aerr // a handle that does not share its deletion
		}
	}
	if err == windows.ERROR_SHARING_VIOLATION || err == windows.ERROR_ACCESS_DENIED || err == windows.ERROR_LOCK_VIOLATION {
		err = fmt.Errorf("%w (%v)", errHeldOpen, err)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// openFile is os.OpenFile for a file renamed over or removed while it is
// open (a journal, a kept second name): os.OpenFile does not share a
// file's deletion, so such a rename or removal would fail while it is
// open; this open shares it (and reading and writing, as os does).
func openFile(path string, flag int, perm os.FileMode) (*os.File, error) {
	var access uint32
	switch flag & (os.O_RDONLY | os.O_WRONLY | os.O_RDWR) {
	case os.O_WRONLY:
		access = windows.GENERIC_WRITE
	case os.O_RDWR:
		access = windows.GENERIC_READ | windows.GENERIC_WRITE
	default:
		access = windows.GENERIC_READ
	}
	disposition := uint32(windows.OPEN_EXISTING)
	switch {
	case flag&(os.O_CREATE|os.O_EXCL) == os.O_CREATE|os.O_EXCL:
		disposition = windows.CREATE_NEW
	case flag&os.O_CREATE != 0:
		disposition = windows.OPEN_ALWAYS
	}
	attrs := uint32(windows.FILE_ATTRIBUTE_NORMAL)
	if perm&0o200 == 0 && flag&os.O_CREATE != 0 {
		attrs = windows.FILE_ATTRIBUTE_READONLY
	}
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, access, shareAll, nil, disposition, attrs, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	if flag&os.O_TRUNC != 0 {
		if err := windows.SetEndOfFile(h); err != nil {
			windows.CloseHandle(h)
			return nil, &fs.PathError{Op: "truncate", Path: path, Err: err}
		}
	}
	return os.NewFile(uintptr(h), path), nil
}

// unlink removes a name (never a directory), and its name is free at
// once: the name is renamed aside (asideName) and removed there. Windows
// before 10 1903 and Wine remove a name whose file is still open (by
// another name: a kept old file, disk_keep.go) only when its last handle
// closes; until then the name is there, and Wine then removes whatever
// is at it, a file put back there since included. Where the rename or
// the removal aside fails, it is os.Remove.
func unlink(path string) error {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return os.Remove(path)
	}
	aside := asideName(path)
	a, err := windows.UTF16PtrFromString(aside)
	if err != nil || windows.MoveFileEx(p, a, 0) != nil {
		return os.Remove(path)
	}
	if windows.DeleteFile(a) != nil { // read-only, say: os.Remove clears that
		windows.MoveFileEx(a, p, 0)
		return os.Remove(path)
	}
	return nil
}

// owned would refuse a journal another user owns: here the journal
// directory is under the user's profile, whose access list keeps other
// users out; its owner is not checked (untested on Windows).
func owned(*os.File) error { return nil }

// oneName refuses a journal file with more than one name.
func oneName(f *os.File) error {
	info, err := handleInfo(windows.Handle(f.Fd()))
	if err != nil {
		return err
	}
	if info.NumberOfLinks != 1 {
		return fmt.Errorf("it has %d names: a journal eukhe writes has one", info.NumberOfLinks)
	}
	return nil
}

// fileID is what the MAC binds a journal to: the file, not its bytes —
// its volume, file index and creation time (a file made again at the
// same index has another). Wine 8 reads no birth time: the creation time
// it gives is the file's last write time, which the journal's own write
// changes after the MAC is made (a journal then failed its signature
// whenever that write fell on a later clock tick, and recovery set a
// valid journal aside). Under Wine the id is the volume and index alone,
// as on a Linux file system with no birth time (journal_sign_linux.go).
func fileID(fd int) (string, error) {
	info, err := handleInfo(windows.Handle(fd))
	if err != nil {
		return "", err
	}
	if underWine() {
		return fmt.Sprintf("%d:%d", info.VolumeSerialNumber, fileIndex(info)), nil
	}
	return fmt.Sprintf("%d:%d:b:%d", info.VolumeSerialNumber, fileIndex(info), info.CreationTime.Nanoseconds()), nil
}

func handleInfo(h windows.Handle) (*windows.ByHandleFileInformation, error) {
	var info windows.ByHandleFileInformation
	if err := windows.GetFileInformationByHandle(h, &info); err != nil {
		return nil, err
	}
	return &info, nil
}

func fileIndex(info *windows.ByHandleFileInformation) uint64 {
	return uint64(info.FileIndexHigh)<<32 | uint64(info.FileIndexLow)
}

// sameID tells whether two handles are one file. Wine gives a handle
// whose file was renamed since it was opened the volume serial 0 (it
// finds the volume by the name the handle was opened at): under Wine a 0
// is no volume, and the file index alone tells (the handles compared are
// of one directory tree: beneath.is).
func sameID(a, b windows.Handle) bool {
	x, err1 := handleInfo(a)
	y, err2 := handleInfo(b)
	if err1 != nil || err2 != nil || fileIndex(x) != fileIndex(y) {
		return false
	}
	if underWine() && (x.VolumeSerialNumber == 0 || y.VolumeSerialNumber == 0) {
		return true
	}
	return x.VolumeSerialNumber == y.VolumeSerialNumber
}

// statOfInfo is the Stat of an open file's information: the read-only
// attribute is the mode's write bits (as os does), a reparse point a link.
func statOfInfo(info *windows.ByHandleFileInformation) Stat {
	mode := fs.FileMode(0o666)
	if info.FileAttributes&windows.FILE_ATTRIBUTE_READONLY != 0 {
		mode = 0o444
	}
	switch {
	case info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0:
		mode |= fs.ModeSymlink
	case info.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY != 0:
		mode |= fs.ModeDir | 0o111
	}
	return Stat{
		Exists: true, Dir: mode.IsDir(), Mode: mode,
		Size:  int64(info.FileSizeHigh)<<32 | int64(info.FileSizeLow),
		MTime: time.Unix(0, info.LastWriteTime.Nanoseconds()),
		Links: uint64(info.NumberOfLinks),
	}
}

// stampOfInfo is the stamp of an open file's information. It has no
// change time, so no stamp is settled: every check reads again.
func stampOfInfo(info *windows.ByHandleFileInformation) Stamp {
	return Stamp{
		dev: uint64(info.VolumeSerialNumber), ino: fileIndex(info),
		size:  int64(info.FileSizeHigh)<<32 | int64(info.FileSizeLow),
		mtime: info.LastWriteTime.Nanoseconds(),
	}
}

// isReparse tells whether an Lstat answer is a reparse point (a symbolic
// link, a junction, a mount point, or another).
func isReparse(fi fs.FileInfo) bool {
	if d, ok := fi.Sys().(*syscall.Win32FileAttributeData); ok {
		return d.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0
	}
	return fi.Mode()&(fs.ModeSymlink|fs.ModeIrregular) != 0
}

// createFile is CreateFile of a path with FILE_FLAG_OPEN_REPARSE_POINT
// (a reparse point at the last part is opened itself, never followed)
// and FILE_FLAG_BACKUP_SEMANTICS (directories open too).
func createFile(path string, access, share, disposition, attrs uint32) (windows.Handle, error) {
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return windows.InvalidHandle, err
	}
	return windows.CreateFile(p, access, share, nil, disposition, attrs|windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
}

const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

// checkNoReparse refuses a path one of whose parts (from its volume's
// root) is a reparse point: ErrLinkBelow. A missing part is its error.
func checkNoReparse(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return err
	}
	vol := filepath.VolumeName(abs)
	rest := strings.TrimPrefix(abs[len(vol):], `\`)
	cur := vol + `\`
	if rest == "" {
		return nil
	}
	for _, part := range strings.Split(rest, `\`) {
		cur = filepath.Join(cur, part)
		fi, err := os.Lstat(cur)
		if err != nil {
			return err
		}
		if isReparse(fi) {
			return ErrLinkBelow
		}
	}
	return nil
}

// openNoReparse opens path, none of whose parts may be a reparse point
// (S8.4): every part is looked at first (checkNoReparse), then the last
// is opened without following it and the open file checked to be no
// reparse point. A directory on the way swapped for a junction between
// the look and the open is not seen: Windows has no open relative to a
// directory's handle that refuses one (the race that remains).
func openNoReparse(path string, access, share, disposition, attrs uint32) (windows.Handle, error) {
	dir := path
	if disposition != windows.OPEN_EXISTING {
		dir = filepath.Dir(path)
	}
	if err := checkNoReparse(dir); err != nil {
		return windows.InvalidHandle, err
	}
	h, err := createFile(path, access, share, disposition, attrs)
	if err != nil {
		return windows.InvalidHandle, err
	}
	info, err := handleInfo(h)
	if err == nil && info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		err = ErrLinkBelow
	}
	if err != nil {
		windows.CloseHandle(h)
		return windows.InvalidHandle, err
	}
	return h, nil
}

// finalPath is the path Windows gives an open file, every link and
// junction on it resolved.
func finalPath(h windows.Handle) (string, error) {
	buf := make([]uint16, 512)
	for {
		n, err := windows.GetFinalPathNameByHandle(h, &buf[0], uint32(len(buf)), 0)
		if err != nil {
			return "", err
		}
		if int(n) < len(buf) {
			return windows.UTF16ToString(buf[:n]), nil
		}
		buf = make([]uint16, n+1)
	}
}

// within tells whether the final path p is final or below it (names
// compared as Windows does, case aside).
func within(p, final string) bool {
	p, final = strings.ToLower(p), strings.ToLower(strings.TrimSuffix(final, `\`))
	return p == final || strings.HasPrefix(p, final+`\`)
}

// openUnder opens rel below the directory root (whose final path is
// final) with no reparse point on the way nor at its end (S8.4): each
// part is looked at from root down and refused when it is a reparse
// point, then the last is opened without following it, the open file
// checked to be none, and its final path checked to be below final. A
// directory on the way swapped for a junction between the look and the
// open is caught by that last check when it leads out of root; one that
// leads elsewhere below root is not (the race that remains: no open
// relative to a handle).
func openUnder(root, final, rel string, access, share, disposition, attrs uint32) (windows.Handle, error) {
	full := root
	if rel != "." && rel != "" {
		if !filepath.IsLocal(rel) {
			return windows.InvalidHandle, errOutside
		}
		parts := strings.Split(filepath.Clean(rel), `\`)
		if disposition != windows.OPEN_EXISTING {
			parts = parts[:len(parts)-1]
		}
		for _, part := range parts {
			full = filepath.Join(full, part)
			fi, err := os.Lstat(full)
			if err != nil {
				return windows.InvalidHandle, err
			}
			if isReparse(fi) {
				return windows.InvalidHandle, ErrLinkBelow
			}
		}
		full = filepath.Join(root, rel)
	}
	h, err := createFile(full, access, share, disposition, attrs)
	if err != nil {
		return windows.InvalidHandle, err
	}
	info, err := handleInfo(h)
	if err == nil && info.FileAttributes&windows.FILE_ATTRIBUTE_REPARSE_POINT != 0 {
		err = ErrLinkBelow
	}
	if err == nil {
		var p string
		if p, err = finalPath(h); err == nil && !within(p, final) {
			err = ErrLinkBelow
		}
	}
	if err != nil {
		windows.CloseHandle(h)
		return windows.InvalidHandle, err
	}
	return h, nil
}

// deleteHandle removes the open file's name: exactly the file opened
// (it needs DELETE access), whatever is at its path meanwhile.
func deleteHandle(h windows.Handle) error {
	del := uint32(1)
	return windows.SetFileInformationByHandle(h, windows.FileDispositionInfo, (*byte)(unsafe.Pointer(&del)), 4)
}

// syncDir has nothing to do on Windows: a directory cannot be flushed
// there, and the rename that lands a file (MoveFileEx with
// MOVEFILE_WRITE_THROUGH, renameReplace) returns only once it is on disk.
func syncDir(string) error { return nil }

// removeSource removes a moved file's old name so that it is free at once
// (unlink: the name set aside first).
func removeSource(path string) error { return unlink(path) }
