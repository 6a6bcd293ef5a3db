package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"pgregory.net/rapid"
)

var rosterNames = []string{"read", "edit", "write", "grep", "glob", "bash", "ipython", "dyn"}

// a roster change of any kind, naming any tools
func rosterChange() *rapid.Generator[Change] {
	return rapid.Custom(func(t *rapid.T) Change {
		kind := rapid.SampledFrom([]ChangeKind{Install, Uninstall, Configure, AddTools}).Draw(t, "kind")
		names := rapid.SliceOfN(rapid.SampledFrom(append(rosterNames, "extra", "ext/tool")), 0, 3).Draw(t, "names")
		var specs []Spec
		for _, n := range names {
			specs = append(specs, Spec{Name: n, Schema: MustObject(`{"type":"object"}`)})
		}
		return Change{Kind: kind, Tools: specs, Names: names}
	})
}

// roster_fixed: once the session is open no change alters the roster; each
// is refused with RosterFixed, and a tool that comes later joins behind
// dyn, not in the roster (S7.1, S7.2).
func TestLaw_roster_fixed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		r, err := OpenRoster()
		if err != nil {
			t.Fatal(err)
		}
		s := &Session{roster: r}
		before := wireOf(r)
		n := rapid.IntRange(1, 12).Draw(t, "events")
		for range n {
			if rapid.Bool().Draw(t, "join") {
				name := rapid.SampledFrom([]string{"editor/open", "read", "bash2"}).Draw(t, "joiner")
				_ = s.Surface().Join(HostTool{Name: name, Run: func(context.Context, json.RawMessage) Result { return Result{} }})
				continue
			}
			c := rosterChange().Draw(t, "change")
			err := r.Apply(c)
			var fixed *RosterFixed
			if !errors.As(err, &fixed) || fixed.Kind != c.Kind {
				t.Fatalf("%v after open: %v, want RosterFixed", c.Kind, err)
			}
		}
		if got := wireOf(r); !reflect.DeepEqual(got, before) {
			t.Fatalf("the roster changed:\n%v\n%v", before, got)
		}
		if !reflect.DeepEqual(r.Names(), rosterNames) {
			t.Fatalf("roster %v", r.Names())
		}
	})
}

// Before Fix a roster may change; Fix refuses an ungated runner (G4).
func TestRosterChangesOnlyBeforeFix(t *testing.T) {
	r := &Roster{}
	if err := r.Apply(Change{Kind: Install, Tools: DefaultSpecs()}); err != nil {
		t.Fatal(err)
	}
	if err := r.Apply(Change{Kind: Uninstall, Names: []string{"bash"}}); err != nil {
		t.Fatal(err)
	}
	if err := r.Fix(); err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(r.Names()) != "[read edit write grep glob ipython dyn]" {
		t.Fatalf("roster %v", r.Names())
	}
	if err := r.Apply(Change{Kind: Install}); err == nil || err.Error()[:11] != "RosterFixed" {
		t.Fatalf("after Fix: %v", err)
	}
}

// gate_covers_every_runner (G4) for the roster: every tool that runs code
// is gated, and bash is such a tool.
func TestRosterGatesEveryRunner(t *testing.T) {
	r, err := OpenRoster()
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range r.Registry().Tools() {
		if tool.Runner != nil && !r.Registry().Gated(tool.Name) {
			t.Fatalf("%s runs code ungated", tool.Name)
		}
	}
	if !r.Registry().Gated("bash") {
		t.Fatal("bash is not gated")
	}
}

// roster_sent_fixed: every tools/list of a session sends the starting
// roster, whatever joins, quits and roster changes come between (S7.1).
func TestLaw_roster_sent_fixed(t *testing.T) {
	w := newWorld(t)
	r := rawConnect(t, w.sess)
	r.initialize()
	first := r.rpc(1, "tools/list", "")
	start, _ := json.Marshal(path(first, "result", "tools"))
	if lc := path(r.rpc(2, "ping", ""), "result"); lc == nil {
		t.Fatal("no ping answer")
	}
	id := 3
	rapid.Check(t, func(t *rapid.T) {
		switch rapid.IntRange(0, 3).Draw(t, "event") {
		case 0:
			_ = w.sess.Surface().Join(HostTool{Name: rapid.SampledFrom([]string{"a", "b"}).Draw(t, "name"),
				Run: func(context.Context, json.RawMessage) Result { return Result{} }})
		case 1:
			w.sess.Surface().Quit(rapid.SampledFrom([]string{"a", "b"}).Draw(t, "name"))
		case 2:
			_ = w.sess.Roster().Apply(rosterChange().Draw(t, "change"))
		}
		id++
		got, _ := json.Marshal(path(r.rpc(id, "tools/list", ""), "result", "tools"))
		if string(got) != string(start) {
			t.Fatalf("tools/list changed:\n%s\n%s", start, got)
		}
	})
	var names []string
	for _, tool := range path(first, "result", "tools").([]any) {
		names = append(names, path(tool, "name").(string))
	}
	if !reflect.DeepEqual(names, rosterNames) {
		t.Fatalf("tools/list sent %v, want %v", names, rosterNames)
	}
}

func wireOf(r *Roster) []string {
	var out []string
	for _, t := range r.Tools() {
		out = append(out, t.Name+" "+string(t.Wire)+" "+t.Description)
	}
	return out
}
