package docs

import (
	"syscall"

	"golang.org/x/sys/unix"
)

// Stamp is what a read of a disk file saw of it besides its bytes: the
// file (device and inode), its size, its modification and change times,
// and whether that change time was already past when the read began, by
// the clock the kernel stamps changes with (settled).
//
// Why a settled stamp stands for the bytes: every write, truncation or
// replacement of a file sets its change time to the kernel's coarse clock
// or later (a finer one where the file system has fine-grained stamps),
// and that clock does not go back. The read sampled the coarse clock, T,
// before it looked at the file; its change time C was before T. A write
// after T would have given the file a change time of T or later — not C.
// So a file found later with the same inode, size and times, C among
// them, had no write since the read began: it holds the bytes the read
// saw. A change time in T's own tick is not settled (a write in the same
// tick could keep it); nor is a read that did not get the size it was
// told. Those files are read again and compared byte for byte.
//
// That holds only where the file system stamps changes with this
// machine's clock to the nanosecond: a local file system known to (ext4,
// xfs, btrfs, tmpfs, f2fs, bcachefs, overlay over them), and a change time
// with a part of a second (ext4 with small inodes, FAT and HFS+ keep whole
// seconds, so two writes in one second share a stamp). A network file
// system stamps with the server's clock, whose ticks this machine's clock
// says nothing about. Elsewhere no stamp is settled.
//
// What a stamp cannot see: a program writing through a shared writable
// memory mapping whose page is still dirty (the kernel stamps the first
// such write after each writeback, not every one), and a clock set back
// by hand. The byte check has no lock over such writers either (only
// eukhe's writers take it): it narrows the window, it never closed it.
//
// The zero Stamp is none: a file read from an editor's buffer, a read of
// anything but a regular file.
type Stamp struct {
	dev, ino           uint64
	size, mtime, ctime int64
	settled            bool
}

// Settled tells whether the stamp can stand for the bytes (see Stamp).
func (s Stamp) Settled() bool { return s.settled }

// stampOf is the stamp of a stat(2) answer, not settled.
func stampOf(s *syscall.Stat_t) Stamp {
	return Stamp{
		dev: s.Dev, ino: s.Ino, size: s.Size,
		mtime: s.Mtim.Nano(), ctime: s.Ctim.Nano(),
	}
}

// coarseNow is the clock the kernel stamps file changes with (its coarse
// real-time clock), in nanoseconds; 0 when it cannot be read, which
// settles nothing.
func coarseNow() int64 {
	var ts unix.Timespec
	if unix.ClockGettime(unix.CLOCK_REALTIME_COARSE, &ts) != nil {
		return 0
	}
	return ts.Nano()
}

// settle marks a stamp settled when its change time is before since (the
// coarse clock sampled before the read looked at the file), has a part of
// a second, and the file is on a file system that stamps to the
// nanosecond with this machine's clock (fine).
func (s Stamp) settle(since int64, fine bool) Stamp {
	s.settled = fine && s.ino != 0 && s.ctime < since && s.ctime%1e9 != 0
	return s
}

// fineClockFS are the local file systems that stamp changes with the
// kernel's clock to the nanosecond.
var fineClockFS = map[int64]bool{
	unix.EXT4_SUPER_MAGIC: true, unix.XFS_SUPER_MAGIC: true, unix.BTRFS_SUPER_MAGIC: true,
	unix.TMPFS_MAGIC: true, unix.F2FS_SUPER_MAGIC: true, unix.BCACHEFS_SUPER_MAGIC: true,
	unix.OVERLAYFS_SUPER_MAGIC: true,
}

// fineClock tells whether the open file fd is on one of fineClockFS.
func fineClock(fd int) bool {
	var fs unix.Statfs_t
	return unix.Fstatfs(fd, &fs) == nil && fineClockFS[int64(fs.Type)]
}

// Unchanged tells whether the file at path is still the one a read
// stamped, unwritten since (a settled stamp, the same file, size and
// times: see Stamp), and gives its Stat then. Any other answer is
// false: the engine reads the file again and compares its bytes. It
// follows links as Read does.
func (d *Disk) Unchanged(path string, was Stamp) (Stat, bool) {
	if !was.settled {
		return Stat{}, false
	}
	var sys syscall.Stat_t
	if err := syscall.Stat(path, &sys); err != nil {
		return Stat{}, false
	}
	st := statOf(&sys)
	if !st.Mode.IsRegular() || stampOf(&sys) != was.unsettled() {
		return Stat{}, false
	}
	return st, true
}

func (s Stamp) unsettled() Stamp {
	s.settled = false
	return s
}
