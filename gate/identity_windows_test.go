package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FinalName names a directory by its one name: an existing directory's
// final path is its own (Resolve's), a missing one has none, and under
// Wine the Z: spelling of a directory on C: (the prefix seen from the
// Unix root) has the C: one, so a secret store below it is Secret by
// either name (the law a_secret_or_protected_place_is_itself_by_any_name
// on the real file system).
func TestFinalNameOnThisSystem(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, ".ssh"), 0o700); err != nil {
		t.Fatal(err)
	}
	gp := policyPath(OS, dir)
	f, ok := OS.(FinalNamer).FinalName(gp)
	if !ok || !strings.EqualFold(f, gp) {
		t.Fatalf("FinalName(%s) = %q, %v; want itself", gp, f, ok)
	}
	if f, ok := OS.(FinalNamer).FinalName(gp + "/absent"); ok {
		t.Errorf("FinalName of a missing file = %q", f)
	}
	p := NewPolicy(OS, nil, []string{filepath.Join(dir, ".ssh")}, nil)
	if c := p.Class(p.Resolve("/", filepath.Join(dir, ".ssh", "key"))); c != ClassSecret {
		t.Errorf("%s\\.ssh\\key is %s", dir, c)
	}
	if !underWine() {
		return
	}
	cfg, ok := WineUnixHome(os.Getenv("WINECONFIGDIR")) // the prefix, "Z:\…"
	if !ok || !strings.HasPrefix(strings.ToUpper(dir), `C:\`) {
		t.Skipf("no Z: spelling of %s (WINECONFIGDIR %q)", dir, os.Getenv("WINECONFIGDIR"))
	}
	z := cfg + `\drive_c` + dir[2:]
	r := p.Resolve("/", z+`\.ssh\key`)
	if c := p.Class(r); c != ClassSecret {
		t.Errorf("%s\\.ssh\\key (final %q, spelled %q) is %s, want secret", z, r.Path, r.Spelled, c)
	}
	if !p.HoldsSecret(p.Resolve("/", z)) {
		t.Errorf("%s holds no secret", z)
	}
}
