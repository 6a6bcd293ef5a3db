package gate

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// The twelfth red team's open row, held: ~/.config/eukhe renamed away
// after the policy was made and a symlink to the workspace's cfg put in
// its place (by the user: a step cannot, a write above the settings file
// is secret). cfg/settings.json is now the file the settings loader
// reads, so by its workspace name it is secret.
func TestRedTeam12_settings_file_behind_a_swapped_directory_link_is_secret(t *testing.T) {
	needSymlinks(t)
	_, home, root, pl := r12world(t)
	p := pl.Policy(OS)
	user := filepath.Join(home, ".config", "eukhe")
	must(t, os.Rename(user, user+".old"))
	must(t, os.MkdirAll(filepath.Join(root, "cfg"), 0o755))
	must(t, os.Symlink(filepath.Join(root, "cfg"), user))
	r12secret(t, p, root, filepath.Join(root, "cfg", "settings.json"), "the settings file behind a directory link made after the policy")
}

// Three ways around it. The link one level up (~/.config itself moved
// into the workspace), judged after an earlier judgement was kept: past
// gateRecheck the file's new real path is secret, a write to the
// directory above it (a rename of cfg) is secret, and a sandbox's secret
// entries hold it.
func TestSettingsFileMovedByALinkAboveItIsSecretEverywhere(t *testing.T) {
	needSymlinks(t)
	_, home, root, pl := r12world(t)
	p := pl.Policy(OS)
	in := filepath.Join(root, "dot", "eukhe", "settings.json")
	must(t, os.MkdirAll(filepath.Dir(in), 0o755))
	must(t, os.WriteFile(in, []byte(`{}`), 0o644))
	if c := p.ClassWrite(Resolve(OS, root, in)); c != ClassSecret {
		t.Fatalf("before the swap, the workspace's copy is %v, want Secret (any eukhe/settings.json is)", c) // kept a gateRecheck
	}
	if c := p.ClassWrite(Resolve(OS, root, filepath.Join(root, "dot", "eukhe"))); c != ClassProtected && c != ClassInside {
		t.Fatalf("before the swap, the directory of the workspace's copy is %v", c)
	}
	cfg := filepath.Join(home, ".config")
	must(t, os.Rename(cfg, cfg+".old"))
	must(t, os.Symlink(filepath.Join(root, "dot"), cfg))
	time.Sleep(gateRecheck + 10*time.Millisecond)
	r12secret(t, p, root, in, "the settings file after ~/.config became a link into the workspace")
	if c := p.ClassWrite(Resolve(OS, root, filepath.Join(root, "dot", "eukhe"))); c != ClassSecret {
		t.Errorf("a write to the directory above the moved settings file is %v, want Secret", c)
	}
	if c := p.ClassWrite(Resolve(OS, root, filepath.Join(root, "dot"))); c != ClassSecret {
		t.Errorf("a write to the directory two above the moved settings file is %v, want Secret", c)
	}
	if secrets, _, _ := p.SandboxRules(); !slices.Contains(secrets, in) {
		t.Errorf("the sandbox's secret entries %q do not hold the moved settings file %s", secrets, in)
	}
	if dirs := p.GateDirs(); !slices.Contains(dirs, filepath.Join(root, "dot", "eukhe")) {
		t.Errorf("the sandbox's pinned directories %q do not hold the moved settings file's directory", dirs)
	}
}
