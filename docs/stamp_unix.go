//go:build darwin || freebsd

package docs

import (
	"syscall"
	"time"
)

// stampOf is the stamp of a stat(2) answer, not settled.
func stampOf(s *syscall.Stat_t) Stamp {
	return Stamp{
		dev: uint64(s.Dev), ino: s.Ino, size: s.Size,
		mtime: s.Mtimespec.Nano(), ctime: s.Ctimespec.Nano(),
	}
}

// coarseNow is 0 here: no file system of these kernels is known to stamp
// changes with a clock this process can sample before a read (fineClock),
// so no stamp is settled and every check reads the file again and
// compares its bytes (the safe side of Stamp).
func coarseNow() int64 { return 0 }

// fineClock is false here: no file system is trusted to vouch for a
// change by its times (see coarseNow).
func fineClock(int) bool { return false }

// statMTime is the modification time of a stat(2) answer.
func statMTime(s *syscall.Stat_t) time.Time {
	return time.Unix(s.Mtimespec.Sec, s.Mtimespec.Nsec)
}
