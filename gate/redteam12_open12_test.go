//go:build open_attacks

package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// The twelfth red team's attacks on the gate that got through: each test
// asserts the safe outcome and fails today.

// Attack (settings file, its directory made a link after the policy): the
// directory was renamed away and a symlink to the workspace's cfg put in
// its place; the workspace's cfg/settings.json is now the file the
// loader reads, yet a write to it by its workspace name is Inside.
func TestRedTeam12_settings_file_behind_a_swapped_directory_link_is_secret(t *testing.T) {
	_, home, root, pl := r12world(t)
	p := pl.Policy(OS)
	user := filepath.Join(home, ".config", "eukhe")
	must(t, os.Rename(user, user+".old"))
	must(t, os.MkdirAll(filepath.Join(root, "cfg"), 0o755))
	must(t, os.Symlink(filepath.Join(root, "cfg"), user))
	r12secret(t, p, root, filepath.Join(root, "cfg", "settings.json"), "the settings file behind a directory link made after the policy")
}
