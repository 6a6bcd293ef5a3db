package settings

import (
	"slices"
	"strings"
	"testing"
)

func TestConfinementKeys(t *testing.T) {
	f, evs := Parse("u.json", []byte(`{"shell.writableDirs": ["~/.cache/go-build", "/var/cache/x"], "shell.confinement": "require"}`), UserScope)
	if f == nil || len(evs) != 0 {
		t.Fatalf("user file: %v %v", f, evs)
	}
	s := Merge(f)
	if !slices.Equal(s.WritableDirs, []string{"~/.cache/go-build", "/var/cache/x"}) || s.Confinement != "require" {
		t.Fatalf("merged: %v %q", s.WritableDirs, s.Confinement)
	}
	if d := Defaults(); d.Confinement != "auto" || len(d.WritableDirs) != 0 {
		t.Fatalf("defaults: %q %v", d.Confinement, d.WritableDirs)
	}
	// A project cannot widen what a confined step may write, nor turn the
	// sandbox off.
	f, evs = Parse("p.json", []byte(`{"shell.writableDirs": ["/"], "shell.confinement": "off"}`), ProjectScope)
	if f == nil || len(evs) != 2 {
		t.Fatalf("project file: %v %v", f, evs)
	}
	if s := Merge(nil, f); len(s.WritableDirs) != 0 || s.Confinement != "auto" {
		t.Fatalf("a project file set a gate: %v %q", s.WritableDirs, s.Confinement)
	}
	for _, bad := range []string{`{"shell.writableDirs": ["cache"]}`, `{"shell.writableDirs": "~/.cache"}`,
		`{"shell.confinement": "on"}`, `{"shell.writableDirs": ["~user/x"]}`} {
		if f, evs := Parse("u.json", []byte(bad), UserScope); f != nil || len(evs) != 1 || !strings.Contains(evs[0].Message, "shell.") {
			t.Errorf("%s: %v %v", bad, f, evs)
		}
	}
}
