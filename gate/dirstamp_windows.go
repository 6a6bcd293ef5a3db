package gate

import (
	"unsafe"

	"golang.org/x/sys/windows"
)

// dirStampOf is the directory at path's stamp (CommandList): its volume
// and file index, and its ChangeTime (FILE_BASIC_INFO), which moves when
// an entry is made, removed or renamed in it and which no one can set
// back as a modification time can be (links and junctions followed: a
// PATH entry may be one); the zero stamp when it is no directory or
// cannot be looked at.
func dirStampOf(path string) dirStamp {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return dirStamp{}
	}
	h, err := windows.CreateFile(name, windows.FILE_READ_ATTRIBUTES,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING,
		windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return dirStamp{}
	}
	defer windows.CloseHandle(h)
	var bh windows.ByHandleFileInformation
	if windows.GetFileInformationByHandle(h, &bh) != nil || bh.FileAttributes&windows.FILE_ATTRIBUTE_DIRECTORY == 0 {
		return dirStamp{}
	}
	var bi struct {
		CreationTime, LastAccessTime, LastWriteTime, ChangeTime int64
		FileAttributes                                          uint32
		_                                                       uint32
	}
	if windows.GetFileInformationByHandleEx(h, windows.FileBasicInfo, (*byte)(unsafe.Pointer(&bi)), uint32(unsafe.Sizeof(bi))) != nil {
		return dirStamp{}
	}
	return dirStamp{dev: uint64(bh.VolumeSerialNumber), ino: uint64(bh.FileIndexHigh)<<32 | uint64(bh.FileIndexLow),
		changed: (bi.ChangeTime - 116444736000000000) * 100} // 100 ns units from 1601: nanoseconds from 1970
}
