//go:build linux

package shell

import (
	"slices"
	"testing"
)

// ioc is the kernel's _IOC: a request's direction, type, number and
// argument size, as the headers make it (asm-generic/ioctl.h: amd64,
// arm64 and riscv64, the architectures the filter supports).
func ioc(dir, typ, nr, size uint32) uint32 { return dir<<30 | size<<16 | typ<<8 | nr }

const (
	iocWrite     = 1
	iocRead      = 2
	iocReadWrite = 3
)

// The filter's inode ioctls are the numbers the kernel's headers define,
// each computed here from its header's definition: two of them were
// wrong (FS_IOC_SETVERSION spelled as 'f' 3, which is no request), and
// the real ones ran (the twenty-fifth red team's).
func TestInodeIoctlsAreTheHeadersNumbers(t *testing.T) {
	const long, int32Size = 8, 4
	want := map[string]uint32{
		"FS_IOC_SETFLAGS":                        ioc(iocWrite, 'f', 2, long),
		"FS_IOC32_SETFLAGS":                      ioc(iocWrite, 'f', 2, int32Size),
		"FS_IOC_FSSETXATTR":                      ioc(iocWrite, 'X', 32, 28), // struct fsxattr
		"FS_IOC_ENABLE_VERITY":                   ioc(iocWrite, 'f', 133, 128),
		"FS_IOC_SET_ENCRYPTION_POLICY":           ioc(iocRead, 'f', 19, 12), // struct fscrypt_policy_v1
		"FS_IOC_SETVERSION":                      ioc(iocWrite, 'v', 2, long),
		"FS_IOC32_SETVERSION":                    ioc(iocWrite, 'v', 2, int32Size),
		"EXT4_IOC_SETVERSION":                    ioc(iocWrite, 'f', 4, long),
		"EXT4_IOC32_SETVERSION":                  ioc(iocWrite, 'f', 4, int32Size),
		"FS_IOC_REMOVE_ENCRYPTION_KEY":           ioc(iocReadWrite, 'f', 24, 64),
		"FS_IOC_REMOVE_ENCRYPTION_KEY_ALL_USERS": ioc(iocReadWrite, 'f', 25, 64),
		"BTRFS_IOC_SUBVOL_SETFLAGS":              ioc(iocWrite, 0x94, 26, 8),
		// struct btrfs_ioctl_vol_args and _v2 are 4096 bytes, struct
		// btrfs_ioctl_received_subvol_args 200
		"BTRFS_IOC_SNAP_CREATE":         ioc(iocWrite, 0x94, 1, 4096),
		"BTRFS_IOC_SUBVOL_CREATE":       ioc(iocWrite, 0x94, 14, 4096),
		"BTRFS_IOC_SNAP_CREATE_V2":      ioc(iocWrite, 0x94, 23, 4096),
		"BTRFS_IOC_SUBVOL_CREATE_V2":    ioc(iocWrite, 0x94, 24, 4096),
		"BTRFS_IOC_SNAP_DESTROY":        ioc(iocWrite, 0x94, 15, 4096),
		"BTRFS_IOC_SNAP_DESTROY_V2":     ioc(iocWrite, 0x94, 63, 4096),
		"BTRFS_IOC_SET_RECEIVED_SUBVOL": ioc(iocReadWrite, 0x94, 37, 200),
		"FAT_IOCTL_SET_ATTRIBUTES":      ioc(iocWrite, 'r', 0x11, int32Size),
	}
	for name, req := range want {
		if !slices.Contains(inodeIoctls, req) {
			t.Errorf("%s (%#x) is not refused", name, req)
		}
	}
	if len(inodeIoctls) != len(want) {
		t.Errorf("the filter refuses %d requests; %d are accounted for here: %#x", len(inodeIoctls), len(want), inodeIoctls)
	}
}
