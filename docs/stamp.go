package docs

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

// settle marks a stamp settled when its change time is before since (the
// coarse clock sampled before the read looked at the file), has a part of
// a second, and the file is on a file system that stamps to the
// nanosecond with this machine's clock (fine).
func (s Stamp) settle(since int64, fine bool) Stamp {
	s.settled = fine && s.ino != 0 && s.ctime < since && s.ctime%1e9 != 0
	return s
}

func (s Stamp) unsettled() Stamp {
	s.settled = false
	return s
}
