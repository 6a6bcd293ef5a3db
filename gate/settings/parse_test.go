package settings

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

func TestParseEveryKey(t *testing.T) {
	f, evs := Parse("u.json", []byte(`{
  "shell.autoEffects": ["read", "write"],
  "ssh.hosts": ["box", "me@build-1"],
  "mcp.servers": {"docs": {"command": "docs-mcp", "args": ["--stdio"]}, "web": {"url": "https://x"}},
  "approval.timeoutSeconds": 30,
  "review.style": "off",
  "edit.save": "never",
  "grep.excludes": ["vendor/**"]
}`), UserScope)
	if f == nil || len(evs) != 0 {
		t.Fatalf("file %v events %v", f, evs)
	}
	s := Merge(f)
	if s.AutoEffects != gate.AutoOf(gate.Of(gate.Read, gate.Write)) || len(s.SSHHosts) != 2 ||
		s.MCPServers["docs"].Command != "docs-mcp" || s.MCPServers["web"].URL != "https://x" ||
		s.ApprovalTimeout != 30*time.Second || s.ReviewStyle != "off" || s.EditSave != "never" ||
		len(s.GrepExcludes) != 1 {
		t.Fatalf("settings %+v", s)
	}
}

// A broken file gives an Error event naming the file, line and column, and
// no File: the last good settings stay in force.
func TestParseErrorsNameLineAndColumn(t *testing.T) {
	for _, c := range []struct {
		data      string
		line, col int
		says      string
	}{
		{"", 1, 1, "the file is empty"},
		{"{\n  \"shell.autoEffects\": [\"read\",]\n}", 2, 32, "not valid JSON"},
		{"{\n  \"review.style\": \"off\"\n  \"edit.save\": \"never\"\n}", 3, 3, "not valid JSON"},
		{"[1]", 1, 1, "one JSON object"},
		{"{\n \"shell.autoEffects\": [\"read\", \"secret\"]\n}", 2, 23, `"secret" cannot be in shell.autoEffects`},
		{"{\n \"shell.autoEffects\": [\"raed\"]\n}", 2, 23, `"raed" is not an effect`},
		{"{\"shell.autoEffects\": \"read\"}", 1, 23, "a string where a list belongs"},
		{"{\"ssh.hosts\": [\"-oProxyCommand=x\"]}", 1, 15, "host"},
		{"{\"mcp.servers\": {\"a\": {}}}", 1, 17, `give either "command"`},
		{"{\"mcp.servers\": {\"a\": {\"command\": \"x\", \"bogus\": 1}}}", 1, 17, "bogus"},
		{"{\"approval.timeoutSeconds\": 0}", 1, 29, "from 1 to 86400"},
		{"{\"review.style\": \"fancy\"}", 1, 18, `use one of "inline", "off"`},
		{"{\"edit.save\": \"clean\", \"edit.save\": \"never\"}", 1, 24, "set twice (first at line 1, column 2)"},
		{"{\"grep.excludes\": [\"\"]}", 1, 19, "empty pattern"},
		{"{\"a\": 1} {", 1, 10, "not valid JSON"},
	} {
		f, evs := Parse("s.json", []byte(c.data), UserScope)
		if f != nil || len(evs) != 1 {
			t.Errorf("%q: file %v events %v", c.data, f, evs)
			continue
		}
		e := evs[0]
		if e.Level != Error || e.File != "s.json" || e.Line != c.line || e.Col != c.col ||
			!strings.Contains(e.Message, c.says) || !strings.Contains(e.Message, "last good settings stay") {
			t.Errorf("%q: %v; want line %d column %d saying %q", c.data, e, c.line, c.col, c.says)
		}
	}
}

func TestProjectFileCannotSetAGate(t *testing.T) {
	data := []byte("{\n \"shell.autoEffects\": [\"read\"],\n \"ssh.hosts\": [\"box\"],\n \"mcp.servers\": {},\n \"grep.excludes\": [\"dist\"],\n \"colour\": 1\n}")
	f, evs := Parse("p.json", data, ProjectScope)
	if f == nil || f.AutoEffects != nil || f.SSHHosts != nil || f.MCPServers != nil || len(f.GrepExcludes) != 1 {
		t.Fatalf("project file %+v", f)
	}
	if len(evs) != 4 {
		t.Fatalf("events %v", evs)
	}
	for i, k := range []string{"shell.autoEffects", "ssh.hosts", "mcp.servers"} {
		if evs[i].Level != Warning || evs[i].Line != i+2 || !strings.Contains(evs[i].Message, k+" is an execution gate") {
			t.Errorf("event %v", evs[i])
		}
	}
	if evs[3].Level != Warning || !strings.Contains(evs[3].Message, `unknown key "colour"`) {
		t.Errorf("event %v", evs[3])
	}
	user, _ := Parse("u.json", []byte(`{"shell.autoEffects": ["read"], "grep.excludes": ["node_modules"]}`), UserScope)
	s := Merge(user, f)
	if s.AutoEffects != gate.AutoOf(gate.Of(gate.Read)) || strings.Join(s.GrepExcludes, ",") != "node_modules,dist" {
		t.Fatalf("merged %+v", s)
	}
}

// A name other than the six is a typed error.
func TestAutoEffectsErrorIsTyped(t *testing.T) {
	for _, names := range [][]string{{"secret"}, {"read", "all"}, {""}} {
		_, err := gate.ParseAutoSet(names)
		var ae *gate.AutoEffectError
		if !errors.As(err, &ae) {
			t.Errorf("%v: %v", names, err)
		}
	}
}

func TestLocate(t *testing.T) {
	p := Locate(map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "rel"}, []string{"/w"})
	if p.UserFile != "/h/.config/eukhe/settings.json" || p.ProjectFiles[0] != "/w/.eukhe/settings.json" {
		t.Fatalf("%+v", p)
	}
	p = Locate(map[string]string{"HOME": "/h", "XDG_CONFIG_HOME": "/x"}, nil)
	if p.UserDir != "/x/eukhe" {
		t.Fatalf("%+v", p)
	}
	pl := p.Places(map[string]string{"PATH": "/bin:/usr/bin"})
	if len(pl.SettingsFiles) != 1 || pl.SettingsFiles[0] != "/x/eukhe/settings.json" || len(pl.PathDirs) != 2 {
		t.Fatalf("%+v", pl)
	}
}

// Every settings file the loader reads is protected (G1.3), and a
// project file is not inside for writes; the user file, which holds the
// execution gates, is secret (beyond the seed: no setting grants it).
func TestEveryLoaderFileIsProtected(t *testing.T) {
	home := t.TempDir()
	p := Locate(map[string]string{"HOME": home}, []string{home + "/proj"})
	pol := p.Places(map[string]string{"HOME": home}).Policy(gate.OS)
	for _, f := range p.Files() {
		want := gate.ClassProtected
		if f == p.UserFile {
			want = gate.ClassSecret
		}
		if c := pol.Class(pol.Resolve("/", f)); c != want {
			t.Errorf("%s is %s, want %s", f, c, want)
		}
	}
	if c := pol.Class(pol.Resolve("/", p.UserDir+"/auth.json")); c != gate.ClassSecret {
		t.Errorf("auth.json is %s", c)
	}
}

// approval.elicitation is on by default; the user file turns it off; a
// project file cannot (where questions go is the user's to say).
func TestElicitationSetting(t *testing.T) {
	if !Defaults().Elicitation {
		t.Fatal("approval.elicitation is off by default")
	}
	u, evs := Parse("u.json", []byte(`{"approval.elicitation": false}`), UserScope)
	if len(evs) != 0 || Merge(u).Elicitation {
		t.Fatalf("user file: events %v, settings %+v", evs, Merge(u))
	}
	p, evs := Parse("p.json", []byte(`{"approval.elicitation": false}`), ProjectScope)
	if len(evs) != 1 || !Merge(nil, p).Elicitation {
		t.Fatalf("project file: events %v, settings %+v", evs, Merge(nil, p))
	}
	if _, evs := Parse("u.json", []byte(`{"approval.elicitation": "no"}`), UserScope); len(evs) != 1 || evs[0].Level != Error {
		t.Fatalf("a string: events %v", evs)
	}
}
