package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/docs"
)

var hostNames = []string{"editor/open", "editor/diagnostics", "notes", "x"}

// joinQuit plays any sequence of joins and quits on s and returns which
// names are joined at the end, by the model: a name is reachable iff its
// last event was a join.
func joinQuit(t *rapid.T, s *Session, check func(joined map[string]bool)) {
	joined := map[string]bool{}
	n := rapid.IntRange(0, 16).Draw(t, "events")
	for range n {
		name := rapid.SampledFrom(hostNames).Draw(t, "name")
		if rapid.Bool().Draw(t, "join") {
			reply := "ran " + name
			if err := s.Surface().Join(HostTool{Name: name, Description: "does " + name,
				Schema: json.RawMessage(`{"type":"object"}`),
				Run:    func(context.Context, json.RawMessage) Result { return done(reply) }}); err != nil {
				t.Fatal(err)
			}
			joined[name] = true
		} else {
			s.Surface().Quit(name)
			delete(joined, name)
		}
		check(joined)
	}
}

func newSurfaceSession(t *rapid.T) *Session {
	s, err := Open(Options{Host: &Headless{RootDir: "/", Disk: docs.NewDisk()}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// dyn_reaches_joined: a joined tool is listed by dyn and runs through it
// (S7.2).
func TestLaw_dyn_reaches_joined(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newSurfaceSession(t)
		defer s.Close()
		joinQuit(t, s, func(joined map[string]bool) {
			list := handleDyn(context.Background(), s, json.RawMessage(`{}`)).Text()
			for name := range joined {
				r := s.DynCall(context.Background(), name, nil)
				if r.Failed() || r.Text() != "ran "+name {
					t.Fatalf("joined %s: dyn gave %q", name, r.Text())
				}
				if !strings.Contains(list, "\n"+name+": does "+name+"\n") {
					t.Fatalf("joined %s is not listed:\n%s", name, list)
				}
			}
		})
	})
}

// dyn_drops_quit: a tool that quit is neither listed nor reachable (S7.2).
func TestLaw_dyn_drops_quit(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		s := newSurfaceSession(t)
		defer s.Close()
		joinQuit(t, s, func(joined map[string]bool) {
			list := handleDyn(context.Background(), s, json.RawMessage(`{}`)).Text()
			for _, name := range hostNames {
				if joined[name] {
					continue
				}
				r := s.DynCall(context.Background(), name, json.RawMessage(`{}`))
				if !r.Failed() || strings.Contains(r.Text(), "ran ") {
					t.Fatalf("quit %s still ran: %q", name, r.Text())
				}
				if strings.Contains(list, "\n"+name+": ") {
					t.Fatalf("quit %s is still listed:\n%s", name, list)
				}
			}
		})
	})
}

func TestSurfaceRefusesDynsOwnNames(t *testing.T) {
	var s Surface
	run := func(context.Context, json.RawMessage) Result { return Result{} }
	for _, n := range []string{"", "report_issue", "mcp/x/y"} {
		if err := s.Join(HostTool{Name: n, Run: run}); err == nil {
			t.Fatalf("joined %q", n)
		}
	}
	if err := s.Join(HostTool{Name: "ok"}); err == nil {
		t.Fatal("joined a tool with no Run")
	}
}
