package docs

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"unsafe"

	"golang.org/x/sys/windows"
)

// Windows' own rename (MoveFileEx, FileRenameInfo) replaces no file that
// is open, even by a handle that shares its deletion: it fails with
// ERROR_ACCESS_DENIED. eukhe itself holds open the files it renames over
// during a commit (journal.go: the journal is rewritten under a temp name
// and renamed over itself while its writer holds it locked; disk_keep.go:
// a file's old bytes keep a second name held open and locked, so the file
// an edit replaces is open). Its opens share deletion (openFile), so the
// POSIX rename (Windows 10 1709 and later, NTFS) replaces such a file in
// one step, as rename(2) does: renamePOSIX. Where that rename is not
// there (Wine, older Windows, other file systems), replaceAside does the
// same in two renames. Both keep S8.1's rule that a file holds its old
// bytes or its new ones, renamePOSIX at every instant, replaceAside but
// between its two renames (see there).

// fileRenameInfo is FILE_RENAME_INFO with its Flags (FileRenameInfoEx);
// the name follows it.
type fileRenameInfo struct {
	Flags          uint32
	RootDirectory  windows.Handle
	FileNameLength uint32
	FileName       [1]uint16
}

// renameInfoEx is FileRenameInfoEx's class for SetFileInformationByHandle.
const renameInfoEx = 22

// renameByHandle renames from to to through a handle of from (a reparse
// point there is renamed itself, never followed) with SetFileInformation-
// ByHandle of class (FileRenameInfoEx with flags, or FileRenameInfo,
// whose Flags field is then its ReplaceIfExists).
func renameByHandle(from, to string, class uint32, flags uint32) error {
	h, err := createFile(from, windows.DELETE|windows.SYNCHRONIZE, shareAll, windows.OPEN_EXISTING, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	name, err := windows.UTF16FromString(to)
	if err != nil {
		return err
	}
	off := int(unsafe.Offsetof(fileRenameInfo{}.FileName))
	size := off + len(name)*2 // with the name's closing NUL
	if min := int(unsafe.Sizeof(fileRenameInfo{})); size < min {
		size = min
	}
	buf := make([]uint64, (size+7)/8) // aligned as the struct is
	info := (*fileRenameInfo)(unsafe.Pointer(&buf[0]))
	info.Flags = flags
	info.FileNameLength = uint32((len(name) - 1) * 2)
	copy(unsafe.Slice(&info.FileName[0], len(name)), name)
	return windows.SetFileInformationByHandle(h, class, (*byte)(unsafe.Pointer(&buf[0])), uint32(size))
}

// renamePOSIX renames from over to in one step with POSIX semantics: a
// target open by handles that share its deletion is replaced (they keep
// the old file), a read-only one too. An error of
// ERROR_INVALID_PARAMETER or ERROR_NOT_SUPPORTED says the system or the
// file system has no such rename (Wine 8 has none).
func renamePOSIX(from, to string) error {
	return renameByHandle(from, to, renameInfoEx,
		windows.FILE_RENAME_REPLACE_IF_EXISTS|windows.FILE_RENAME_POSIX_SEMANTICS|windows.FILE_RENAME_IGNORE_READONLY_ATTRIBUTE)
}

var asideN atomic.Int64

// asideName is the name a replaced file is set aside under, beside it:
// its own with "~eukhe-replaced-<pid>-<n>" before its extension. It keeps
// the extension, so a journal set aside is still a journal recovery finds
// (recoverDead), and it is no temp name (temp.go), so no sweep takes the
// bytes it may hold after a crash.
func asideName(path string) string {
	ext := filepath.Ext(path)
	return path[:len(path)-len(ext)] + asideMark + strconv.Itoa(windows.Getpid()) + "-" + strconv.FormatInt(asideN.Add(1), 10) + ext
}

// asideMark is what asideName puts between a name's stem and extension.
const asideMark = "~eukhe-replaced-"

// isAsideOf tells whether the directory entry name is a name target (a
// base name) was set aside under: its stem, asideMark, "<pid>-<n>", its
// extension.
func isAsideOf(name, target string) bool {
	ext := filepath.Ext(target)
	rest, ok := strings.CutPrefix(name, target[:len(target)-len(ext)]+asideMark)
	if !ok {
		return false
	}
	rest, ok = strings.CutSuffix(rest, ext)
	if !ok {
		return false
	}
	pid, n, ok := strings.Cut(rest, "-")
	return ok && number(pid) && number(n)
}

// replaceAside replaces the file to, open by handles that all share its
// deletion, with from where no POSIX rename is: to is renamed aside
// (asideName; a handle that does not share deletion fails this, and
// nothing changed), from renamed to to (when that fails, the file set
// aside is renamed back), and the name set aside removed (the file goes
// once its last handle closes; a read-only one has that attribute
// cleared first). Between the two renames to's name is not there: a
// crash then leaves its old bytes under the aside name (recovery puts
// them back before it looks: beneath.digest), and a journal's old record
// still a journal. A directory at to is not replaced.
func replaceAside(from, to string) error {
	t, err := windows.UTF16PtrFromString(to)
	if err != nil {
		return err
	}
	attrs, err := windows.GetFileAttributes(t)
	if err != nil {
		return err
	}
	if attrs&windows.FILE_ATTRIBUTE_DIRECTORY != 0 {
		return windows.ERROR_ACCESS_DENIED
	}
	f, err := windows.UTF16PtrFromString(from)
	if err != nil {
		return err
	}
	aside := asideName(to)
	a, err := windows.UTF16PtrFromString(aside)
	if err != nil {
		return err
	}
	if err := windows.MoveFileEx(t, a, windows.MOVEFILE_WRITE_THROUGH); err != nil {
		return err
	}
	if err := windows.MoveFileEx(f, t, windows.MOVEFILE_WRITE_THROUGH); err != nil {
		windows.MoveFileEx(a, t, windows.MOVEFILE_WRITE_THROUGH)
		return err
	}
	if attrs&windows.FILE_ATTRIBUTE_READONLY != 0 {
		windows.SetFileAttributes(a, attrs&^windows.FILE_ATTRIBUTE_READONLY)
	}
	windows.DeleteFile(a)
	return nil
}
