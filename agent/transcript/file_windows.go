package transcript

import (
	"io/fs"
	"os"
	"unsafe"

	"golang.org/x/sys/windows"
)

// On Windows a file cannot be renamed over while any handle to it is open
// that does not share its deletion, and os.Open shares no deletion: a
// reader of calls.log (memory://, agent:// from a parent session) kept
// the writer's compaction from renaming the new file over it. Every open
// of calls.log here shares deletion (openShared), and renameOver takes
// Windows' POSIX rename (Windows 10 1709 and later, NTFS): it replaces a
// file such handles hold open, and they read the old file on, as on Unix.
// Where there is none (older Windows, other file systems, Wine 8) it is
// MoveFileEx, which replaces no open file: a compaction then fails while
// another reader holds calls.log (the session's log says so) and is tried
// again at the next write; nothing is lost, the file is only larger
// meanwhile.

// shareAll shares reading, writing and deletion (renames) with others.
const shareAll = windows.FILE_SHARE_READ | windows.FILE_SHARE_WRITE | windows.FILE_SHARE_DELETE

// openShared opens a transcript file as os.OpenFile does with flag
// (O_RDONLY, or O_WRONLY|O_APPEND with or without O_CREATE), sharing its
// deletion; the handle is not inherited by child processes.
func openShared(path string, flag int) (*os.File, error) {
	access := uint32(windows.GENERIC_READ)
	if flag&(os.O_WRONLY|os.O_RDWR) != 0 {
		// as os.OpenFile's O_APPEND: every write lands at the end
		access = windows.FILE_APPEND_DATA | windows.FILE_WRITE_ATTRIBUTES | windows.FILE_WRITE_EA | windows.STANDARD_RIGHTS_WRITE | windows.SYNCHRONIZE
		if flag&os.O_RDWR != 0 {
			access |= windows.GENERIC_READ
		}
	}
	disposition := uint32(windows.OPEN_EXISTING)
	if flag&os.O_CREATE != 0 {
		disposition = windows.OPEN_ALWAYS
	}
	p, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	h, err := windows.CreateFile(p, access, shareAll, nil, disposition, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// renameOver renames from over to: the POSIX rename where the system has
// it, else MoveFileEx (os.Rename).
func renameOver(from, to string) error {
	if renamePOSIX(from, to) == nil {
		return nil
	}
	return os.Rename(from, to)
}

// fileRenameInfo is FILE_RENAME_INFO as FileRenameInfoEx takes it (Flags
// in place of ReplaceIfExists); the name follows it.
type fileRenameInfo struct {
	Flags          uint32
	RootDirectory  windows.Handle
	FileNameLength uint32
	FileName       [1]uint16
}

// fileRenameInfoEx is FileRenameInfoEx's class for
// SetFileInformationByHandle.
const fileRenameInfoEx = 22

// renamePOSIX renames from over to in one step with POSIX semantics (a
// target open by handles that share its deletion is replaced). Systems
// without it answer ERROR_INVALID_PARAMETER or ERROR_NOT_SUPPORTED.
func renamePOSIX(from, to string) error {
	p, err := windows.UTF16PtrFromString(from)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(p, windows.DELETE|windows.SYNCHRONIZE, shareAll, nil, windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	name, err := windows.UTF16FromString(to)
	if err != nil {
		return err
	}
	off := int(unsafe.Offsetof(fileRenameInfo{}.FileName))
	size := max(off+len(name)*2, int(unsafe.Sizeof(fileRenameInfo{})))
	buf := make([]uint64, (size+7)/8) // aligned as the struct is
	info := (*fileRenameInfo)(unsafe.Pointer(&buf[0]))
	info.Flags = windows.FILE_RENAME_REPLACE_IF_EXISTS | windows.FILE_RENAME_POSIX_SEMANTICS
	info.FileNameLength = uint32((len(name) - 1) * 2)
	copy(unsafe.Slice(&info.FileName[0], len(name)), name)
	return windows.SetFileInformationByHandle(h, fileRenameInfoEx, (*byte)(unsafe.Pointer(&buf[0])), uint32(size))
}
