//go:build linux

package settings

// The fourteenth red team's attacks on the end of a login shell asked
// for PATH (shellpath_linux.go endSession) that HELD.

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// Attack (target 5): a ~/.bashrc slower than the wait runs a tool in the
// foreground that holds the user's lock and lets it go on a hangup
// (trap … HUP), as a terminal closed mid-start would have it; the tool
// would otherwise run long. The kernel's hangup of a closed pty master
// signals only the session leader; the tool must still be hung up (by
// bash, or by eukhe) and release the lock before the kill, and its own
// child, orphaned in the foreground group (which eukhe takes for hung
// up by the terminal and does not signal), must not outlive the grace.
// Held: bash hangs its foreground job up; the orphan is killed.
func TestRedteam14_ForegroundToolOfASlowBashrcReleasesItsLock(t *testing.T) {
	shortLinger(t, 200*time.Millisecond)
	before := runtime.NumGoroutine()
	bash, env := attackHome(t, "echo $$ > \"$HOME/shell.pid\"\n"+
		"sh -c 'trap \"rm -f \\\"$HOME/lock\\\"; exit 0\" HUP; : > \"$HOME/lock\"; echo $$ > \"$HOME/tool.pid\"; sleep 30 & echo $! > \"$HOME/sleep.pid\"; wait; rm -f \"$HOME/lock\"'\n")
	if _, ok, _ := askTimed(bash, env); ok {
		t.Fatal("the shell answered")
	}
	gone(t, env, "shell.pid", shellLinger+shellHangupGrace+3*time.Second, before)
	gone(t, env, "tool.pid", time.Second, before)
	// the tool's own child, orphaned in the terminal's foreground group
	// when the tool ended on the hangup: ended by the kill at the grace
	gone(t, env, "sleep.pid", shellHangupGrace+2*time.Second, before)
	if _, err := os.Stat(filepath.Join(env["HOME"], "lock")); err == nil {
		t.Errorf("THROUGH: the tool was killed before it was hung up: the user's lock is left")
	}
}
