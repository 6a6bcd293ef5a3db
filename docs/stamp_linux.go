package docs

import (
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

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

// statMTime is the modification time of a stat(2) answer.
func statMTime(s *syscall.Stat_t) time.Time { return time.Unix(s.Mtim.Sec, s.Mtim.Nsec) }
