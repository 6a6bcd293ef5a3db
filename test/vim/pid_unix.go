//go:build unix

package vim

import (
	"fmt"
	"os"
	"strings"
	"syscall"
)

// pidGone tells whether a process has ended: no such process, or a
// zombie not reaped yet (Linux's /proc tells; where there is none, signal
// 0 alone). It keeps no rule of the product: the quit row measures with it.
func pidGone(pid int) bool {
	if syscall.Kill(pid, 0) != nil {
		return true
	}
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	_, rest, _ := strings.Cut(string(b), ") ")
	return strings.HasPrefix(rest, "Z")
}
