package gate

import "golang.org/x/sys/unix"

// The magic numbers of Linux file systems that fold case on every name
// (vfat, exfat, ntfs, ntfs3, SMB/CIFS shares of Windows servers), and of
// those that fold only in a directory marked casefold (ext4, f2fs, tmpfs).
const (
	ntfsMagic  = 0x5346544e
	ntfs3Magic = 0x7366746e
	cifsMagic  = 0xff534d42
	smb2Magic  = 0xfe534d42
	// fsCasefoldFL is FS_CASEFOLD_FL, the casefold attribute
	// (chattr +F) FS_IOC_GETFLAGS reports.
	fsCasefoldFL = 0x40000000
)

// foldAlways is the answer of an OS that need not ask (none on Linux).
func foldAlways() (bool, bool) { return false, false }

// caseInsensitiveOS asks the volume of dir: statfs's magic, and on a
// file system with casefold directories, the directory's attribute.
// exists is false when dir cannot be looked at (asked again above it).
func caseInsensitiveOS(dir string) (insensitive, exists bool) {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return false, false
	}
	switch uint32(st.Type) {
	case unix.MSDOS_SUPER_MAGIC, unix.EXFAT_SUPER_MAGIC, ntfsMagic, ntfs3Magic, cifsMagic, smb2Magic, unix.SMB_SUPER_MAGIC:
		return true, true
	case unix.EXT4_SUPER_MAGIC, unix.F2FS_SUPER_MAGIC, unix.TMPFS_MAGIC:
		fd, err := unix.Open(dir, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
		if err != nil {
			return false, true
		}
		defer unix.Close(fd)
		flags, err := unix.IoctlGetUint32(fd, unix.FS_IOC_GETFLAGS)
		return err == nil && flags&fsCasefoldFL != 0, true
	}
	return false, true
}
