//go:build !windows

package agent

import "syscall"

// oNoFollow opens a file without following a link at its name (the
// prune's mark).
const oNoFollow = syscall.O_NOFOLLOW
