package transcript

import (
	"os"
	"path/filepath"
	"testing"
)

// The parent chain is read from each session's meta.json, and a
// directory is a session's only when its meta names that session: on a
// file system that folds case (NTFS, APFS) "LEAF" opens leaf's directory,
// which is not session LEAF's (made here by a copy, on any system).
func TestOnParentChainTakesADirectoryByTheSessionItNames(t *testing.T) {
	sessions := t.TempDir()
	for _, s := range []struct{ id, parent string }{{"root", ""}, {"mid", "root"}, {"leaf", "mid"}} {
		tr, err := Open(filepath.Join(sessions, s.id), s.id, s.parent)
		if err != nil {
			t.Fatal(err)
		}
		tr.Close()
	}
	if found, on := OnParentChain(sessions, "leaf", "root"); !found || !on {
		t.Fatalf("leaf for root: found %v, on %v", found, on)
	}
	if found, on := OnParentChain(sessions, "leaf", "nobody"); !found || on {
		t.Fatalf("leaf for nobody: found %v, on %v", found, on)
	}
	b, err := os.ReadFile(filepath.Join(sessions, "leaf", "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"LEAF", "MID"} {
		if err := os.MkdirAll(filepath.Join(sessions, dir), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(sessions, "LEAF", "meta.json"), b, 0o600); err != nil {
		t.Fatal(err)
	}
	if found, on := OnParentChain(sessions, "LEAF", "root"); found || on {
		t.Fatalf("LEAF, whose directory holds leaf's meta: found %v, on %v", found, on)
	}
	// a parent's directory holding another session's meta ends the chain
	m, err := os.ReadFile(filepath.Join(sessions, "mid", "meta.json"))
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(sessions, "MID", "meta.json"), m, 0o600)
	if err := os.WriteFile(filepath.Join(sessions, "leaf", "meta.json"), []byte(`{"session":"leaf","parent":"MID"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if found, on := OnParentChain(sessions, "leaf", "root"); !found || on {
		t.Fatalf("leaf through MID, whose directory holds mid's meta: found %v, on %v", found, on)
	}
}
