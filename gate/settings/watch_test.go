package settings

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// wait is generous: the tests wait on events, never on time.
const wait = 5 * time.Second

type watched struct {
	t      *testing.T
	w      *Watcher
	events chan Event
	paths  Paths
}

func startWatch(t *testing.T) *watched {
	t.Helper()
	home := t.TempDir()
	root := filepath.Join(home, "proj")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	p := Locate(map[string]string{"HOME": home}, []string{root})
	events := make(chan Event, 1000)
	w, err := Watch(p, func(e Event) { events <- e })
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return &watched{t: t, w: w, events: events, paths: p}
}

// await takes events until one matches, or fails after a while.
func (x *watched) await(what string, match func(Event) bool) Event {
	x.t.Helper()
	deadline := time.After(wait)
	var seen []string
	for {
		select {
		case e := <-x.events:
			if match(e) {
				return e
			}
			seen = append(seen, e.String())
		case <-deadline:
			x.t.Fatalf("no event %s; saw %v", what, seen)
		}
	}
}

func (x *watched) awaitLevel(file string, l Level, says string) Event {
	x.t.Helper()
	return x.await(l.String()+" "+says, func(e Event) bool {
		return e.File == file && e.Level == l && strings.Contains(e.Message, says)
	})
}

// saveAtomic saves as editors do: write a temporary file, rename it over.
func saveAtomic(t *testing.T, name, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp := name + ".tmp~"
	if err := os.WriteFile(tmp, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, name); err != nil {
		t.Fatal(err)
	}
}

func auto(es ...gate.Effect) gate.AutoSet { return gate.AutoOf(gate.Of(es...)) }

func TestWatchFollowsTheUserFile(t *testing.T) {
	x := startWatch(t)
	user := x.paths.UserFile
	if got := x.w.Current().AutoEffects; got != gate.DefaultAuto() {
		t.Fatalf("no file: auto set %s", got)
	}

	// The config directory does not exist yet: made, then saved by rename.
	saveAtomic(t, user, `{"shell.autoEffects": ["read"]}`)
	x.awaitLevel(user, Info, "loaded")
	if got := x.w.Current().AutoEffects; got != auto(gate.Read) {
		t.Fatalf("after save: %s", got)
	}

	// Broken JSON: an error with line and column; the last good stays.
	saveAtomic(t, user, "{\n  \"shell.autoEffects\": [\"read\", \"write\"\n}")
	e := x.awaitLevel(user, Error, "not valid JSON")
	if e.Line != 3 || e.Col != 1 {
		t.Errorf("error at %d:%d, want 3:1: %v", e.Line, e.Col, e)
	}
	if got := x.w.Current().AutoEffects; got != auto(gate.Read) {
		t.Fatalf("a broken file changed the auto set to %s", got)
	}

	// A bad name is refused the same way.
	saveAtomic(t, user, `{"shell.autoEffects": ["read", "secret"]}`)
	x.awaitLevel(user, Error, "secret")
	if got := x.w.Current().AutoEffects; got != auto(gate.Read) {
		t.Fatalf("a refused value changed the auto set to %s", got)
	}

	// Fixed, written in place (truncate and write).
	if err := os.WriteFile(user, []byte(`{"shell.autoEffects": ["read", "write"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	x.await("the fixed file loaded", func(e Event) bool {
		return e.File == user && e.Level == Info && x.w.Current().AutoEffects == auto(gate.Read, gate.Write)
	})

	// Deleted: a warning, and the defaults again.
	if err := os.Remove(user); err != nil {
		t.Fatal(err)
	}
	x.awaitLevel(user, Warning, "removed")
	if got := x.w.Current().AutoEffects; got != gate.DefaultAuto() {
		t.Fatalf("after removal: %s", got)
	}

	// Re-created.
	saveAtomic(t, user, `{"shell.autoEffects": ["exec"]}`)
	x.awaitLevel(user, Info, "loaded")
	if got := x.w.Current().AutoEffects; got != auto(gate.Exec) {
		t.Fatalf("after re-creation: %s", got)
	}

	// The whole directory removed and made again.
	if err := os.RemoveAll(x.paths.UserDir); err != nil {
		t.Fatal(err)
	}
	x.awaitLevel(user, Warning, "removed")
	saveAtomic(t, user, `{"shell.autoEffects": ["net"]}`)
	x.awaitLevel(user, Info, "loaded")
	if got := x.w.Current().AutoEffects; got != auto(gate.Net) {
		t.Fatalf("after the directory came back: %s", got)
	}
}

func TestWatchIgnoresGatesInAProjectFile(t *testing.T) {
	x := startWatch(t)
	saveAtomic(t, x.paths.UserFile, `{"shell.autoEffects": ["read"], "grep.excludes": ["a"]}`)
	x.awaitLevel(x.paths.UserFile, Info, "loaded")
	project := x.paths.ProjectFiles[0]
	saveAtomic(t, project, "{\n \"grep.excludes\": [\"dist\"],\n \"shell.autoEffects\": [\"read\", \"write\", \"exec\"]\n}")
	// "loaded" first, then the load's warning: a reader clearing a file's
	// problems on Info keeps the warning (lsp's settingsStatus).
	x.awaitLevel(project, Info, "loaded")
	e := x.awaitLevel(project, Warning, "execution gate")
	if e.Line != 3 || e.Col != 2 {
		t.Errorf("warning at %d:%d: %v", e.Line, e.Col, e)
	}
	s := x.w.Current()
	if s.AutoEffects != auto(gate.Read) || strings.Join(s.GrepExcludes, ",") != "a,dist" {
		t.Fatalf("settings %+v", s)
	}
	// A broken project file keeps its last good version, and the user's.
	saveAtomic(t, project, `{"grep.excludes": "dist"}`)
	x.awaitLevel(project, Error, "grep.excludes")
	if s := x.w.Current(); s.AutoEffects != auto(gate.Read) || strings.Join(s.GrepExcludes, ",") != "a,dist" {
		t.Fatalf("settings after a broken project file %+v", s)
	}
}

func TestLoadOnce(t *testing.T) {
	home := t.TempDir()
	p := Locate(map[string]string{"HOME": home}, []string{home})
	saveAtomic(t, p.UserFile, `{"shell.autoEffects": ["read"]}`)
	saveAtomic(t, p.ProjectFiles[0], `{"ssh.hosts": ["x"]`)
	s, evs := Load(p)
	if s.AutoEffects != auto(gate.Read) || len(evs) != 1 || evs[0].Level != Error || evs[0].File != p.ProjectFiles[0] {
		t.Fatalf("settings %+v events %v", s, evs)
	}
}
