package shell

import (
	"os"
	"path/filepath"
)

// noFifoDir is a directory no file can be in: below eukhe's own program,
// a file (interpEnv). The interpreter makes no FIFOs on Windows, but its
// shortcut by name still opens a path there past the open handler.
func noFifoDir() string {
	exe, err := os.Executable()
	if err != nil || !filepath.IsAbs(exe) {
		exe = filepath.Join(os.Getenv("SystemRoot"), "System32", "ntdll.dll")
	}
	return filepath.Join(exe, "eukhe-no-fifos")
}
