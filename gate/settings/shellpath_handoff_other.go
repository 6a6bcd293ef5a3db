//go:build !linux

package settings

// LingerArg is the argument of eukhe's re-run that holds asked shells'
// terminals: Linux only (shellpath_handoff_linux.go); elsewhere no shell
// is asked on a terminal of eukhe's.
const LingerArg = "__hold-shells"

// HandOffAskedShells has nothing to hand here.
func HandOffAskedShells() {}

// LingerMain holds nothing here.
func LingerMain([]string) int { return 0 }
