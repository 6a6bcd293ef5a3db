package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.lsp.dev/jsonrpc2"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/protocol"
)

// eukhe/settingsStatus lists the settings files with the problems of their
// latest load, for a client's health check; a fixed file is ok again.
func TestSettingsStatusNamesABrokenFile(t *testing.T) {
	d := &dialogs{}
	env := settingsEnv(t, `{"shell.autoEffects": ["read",]}`)
	e := dialogEditor(t, d, editorOpts{env: env})
	e.sync()
	user := filepath.Join(env["XDG_CONFIG_HOME"], "eukhe", "settings.json")
	status := func() protocol.SettingsStatusResult {
		var raw jsonrpc2.RawMessage
		if err := call(e.ctx(), e.conn, protocol.MethodSettingsStatus, struct{}{}, &raw); err != nil {
			t.Fatalf("eukhe/settingsStatus: %v", err)
		}
		var res protocol.SettingsStatusResult
		if err := json.Unmarshal(raw, &res); err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := status()
	if len(res.Files) < 2 || res.Files[0].File != user || res.Files[0].Level != "error" || !strings.Contains(strings.Join(res.Files[0].Problems, "\n"), user+":1:") {
		t.Fatalf("a broken user file: %+v", res)
	}
	if res.Files[1].File != e.path(".eukhe/settings.json") || res.Files[1].Level != "ok" {
		t.Fatalf("the project file: %+v", res.Files[1])
	}
	if want := shell.Describe("auto"); res.Confinement != want {
		t.Fatalf("confinement %q, want %q", res.Confinement, want)
	}
	os.WriteFile(user, []byte(`{"shell.autoEffects": ["read"]}`), 0o600)
	waitFor(t, "the fixed file is ok", func() bool {
		r := status()
		return len(r.Files) > 0 && r.Files[0].Level == "ok" && len(r.Files[0].Problems) == 0
	})
	// A project file that sets an execution gate loads (its other keys
	// are in force) with a warning that lasts: the load's "loaded" does
	// not clear it.
	project := e.path(".eukhe/settings.json")
	if err := os.MkdirAll(filepath.Dir(project), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(project, []byte(`{"grep.excludes": ["dist"], "shell.autoEffects": ["read", "write", "exec"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the project file's gate key reported", func() bool {
		r := status()
		return len(r.Files) > 1 && r.Files[1].File == project && r.Files[1].Level == "warning" &&
			strings.Contains(strings.Join(r.Files[1].Problems, "\n"), "shell.autoEffects is an execution gate")
	})
	// A removed file has no problems left: its warning and a broken
	// file's error both go with it.
	if err := os.Remove(project); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(user, []byte(`{"shell.autoEffects": [`), 0o600)
	waitFor(t, "the user file broken again", func() bool {
		r := status()
		return len(r.Files) > 0 && r.Files[0].Level == "error"
	})
	if err := os.Remove(user); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the removed files' problems cleared", func() bool {
		r := status()
		return len(r.Files) > 1 && r.Files[0].Level == "ok" && len(r.Files[0].Problems) == 0 &&
			r.Files[1].File == project && r.Files[1].Level == "ok" && len(r.Files[1].Problems) == 0
	})
}

// TestLaw_SettingsProblemsAreTheLatestLoads: after any sequence of events,
// a file's problems are exactly the non-Info events since its last Info or
// removal, each once.
func TestLaw_SettingsProblemsAreTheLatestLoads(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var p settingsProblems
		files := []string{"/u/settings.json", "/p/.eukhe/settings.json"}
		want := map[string][]settings.Event{}
		for i, n := 0, rapid.IntRange(0, 30).Draw(t, "n"); i < n; i++ {
			e := settings.Event{
				File:    rapid.SampledFrom(files).Draw(t, "file"),
				Level:   rapid.SampledFrom([]settings.Level{settings.Info, settings.Warning, settings.Error}).Draw(t, "level"),
				Line:    rapid.IntRange(0, 3).Draw(t, "line"),
				Message: rapid.SampledFrom([]string{"a key ignored", "broken"}).Draw(t, "message"),
			}
			if e.Level == settings.Warning && rapid.Bool().Draw(t, "removed") {
				e.Removed, e.Line, e.Message = true, 0, "the file was removed; its settings no longer apply"
			}
			p.note(e)
			switch {
			case e.Level == settings.Info || e.Removed:
				delete(want, e.File)
			case !slices.Contains(want[e.File], e):
				want[e.File] = append(want[e.File], e)
			}
		}
		res := p.status(files)
		for _, st := range res.Files {
			var problems []string
			for _, e := range want[st.File] {
				problems = append(problems, e.String())
			}
			if !slices.Equal(st.Problems, problems) {
				t.Fatalf("%s: problems %q, want %q", st.File, st.Problems, problems)
			}
			if (st.Level == "ok") != (len(problems) == 0) {
				t.Fatalf("%s: level %s with problems %q", st.File, st.Level, problems)
			}
		}
	})
}
