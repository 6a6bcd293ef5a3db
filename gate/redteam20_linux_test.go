package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// The twentieth red team's rows that read a change time (Linux's
// Stat_t.Ctim).

// Held (was open): gate.CommandList stamps each PATH directory by device, inode and change time (links followed).
// Attack (target 2, commandsFresh and the stamps): a PATH entry that is
// a symbolic link to a directory (a version manager's "current"), and
// two versions' bin directories a and b made in one clock tick (one
// install or unpack: the same change time to the nanosecond, the coarse
// clock). The gate lists a's commands (past changedSlack: not racy);
// then "current" is pointed at b (a version switch), where the command
// r20new is. The agent writes tools/r20new with the PATH unknown.
// THROUGH (severity low: needs the same change time on two directories
// and a switch during the session; the gate only: the sandbox's
// pathShadow stamps the device and inode too): the write is Inside:
// the stamp did not move, so b was never listed.
// Root cause: gate/policy.go Policy.isCommandName stamps each PATH
// directory by its change time alone (dirChanged), not its identity
// (device and inode), where agent/shell protected_shadow.go stampOf
// keeps both.
func TestRedteam20_PathLinkSwitchedToADirectoryOfTheSameChangeTime(t *testing.T) {
	base := r20base(t)
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.MkdirAll(filepath.Join(base, "a"), 0o755))
	must(t, os.MkdirAll(filepath.Join(base, "b"), 0o755))
	var a, b string
	for i := 0; ; i++ {
		if i == 500 {
			t.Fatal("no two directories with one change time: the row proves nothing here")
		}
		v := fmt.Sprintf("v%d", i)
		a, b = filepath.Join(base, "a", v), filepath.Join(base, "b", v)
		must(t, os.Mkdir(a, 0o755))
		must(t, os.Mkdir(b, 0o755))
		must(t, os.WriteFile(filepath.Join(a, "r20old"), nil, 0o755))
		must(t, os.WriteFile(filepath.Join(b, "r20new"), nil, 0o755))
		if r20ctime(t, a) == r20ctime(t, b) {
			break
		}
	}
	cur := filepath.Join(base, "current")
	must(t, os.Symlink(a, cur))
	time.Sleep(changedSlack + 200*time.Millisecond) // not racy when listed
	p := Places{Roots: []string{root}, PathDirs: []string{cur}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20old"))); c != ClassProtected {
		t.Fatalf("control: a write of tools/r20old is %v", c)
	}
	must(t, os.Symlink(b, cur+".new"))
	must(t, os.Rename(cur+".new", cur))
	time.Sleep(3 * commandsFresh)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20new"))); c != ClassProtected {
		t.Errorf("after the PATH link was switched, a write of tools/r20new is %v, want protected", c)
	}
}

// r20ctime is the change time of the directory at p (links followed).
func r20ctime(t *testing.T, p string) syscall.Timespec {
	var st syscall.Stat_t
	must(t, syscall.Stat(p, &st))
	return st.Ctim
}
