//go:build darwin || ios || freebsd || netbsd

package gate

import "syscall"

// changedAt is a file's status change time (ctime), in ns: a new name
// (link) sets it.
func changedAt(st *syscall.Stat_t) int64 { return st.Ctimespec.Nano() }
