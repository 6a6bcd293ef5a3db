package settings

import (
	"os"
	"path/filepath"
	"strconv"
)

// runDirs are the directories eukhe's servers may publish their sockets
// in (lsp/discovery.Dir, which sits above this package): $XDG_RUNTIME_DIR/eukhe,
// <temp>/eukhe-UID, /tmp/eukhe-UID (macOS's short fallback), and on
// Windows %LOCALAPPDATA%\eukhe\run. Each that the environment can give
// is listed, whether it exists or not: the gate makes them secret.
func runDirs(env map[string]string) []string {
	uid := strconv.Itoa(os.Getuid())
	var out []string
	if rt := env["XDG_RUNTIME_DIR"]; filepath.IsAbs(rt) {
		out = append(out, filepath.Join(rt, "eukhe"))
	}
	out = append(out, filepath.Join(os.TempDir(), "eukhe-"+uid))
	if t := "/tmp/eukhe-" + uid; filepath.IsAbs(t) && t != out[len(out)-1] {
		out = append(out, t)
	}
	if la := env["LOCALAPPDATA"]; filepath.IsAbs(la) {
		out = append(out, filepath.Join(la, "eukhe", "run"))
	}
	return out
}
