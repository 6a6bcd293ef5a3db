package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

const settingsUsage = `Usage: eukhe settings [--root DIR]

Prints the settings in force for the workspace root DIR (default: the
current directory), as eukhe mcp and eukhe tool would use them: each key
with its value and the file that set it ("default" when no file did),
then each settings file read and whether it is in force, not present or
broken. The keys, their types and defaults: SETTINGS.md.

Files: $XDG_CONFIG_HOME/eukhe/settings.json (default ~/.config/eukhe),
the user file, which may set every key; DIR/.eukhe/settings.json, the
project file, which may not set an execution gate (shell.autoEffects,
ssh.hosts, mcp.servers, shell.writableDirs, shell.confinement,
approval.elicitation, ipython.python). Warnings and errors of reading
them go to standard error.
`

// settingValues are the values in force, by key, as JSON would show them.
var settingValues = map[string]func(settings.Settings) any{
	"shell.autoEffects":           func(s settings.Settings) any { return s.AutoEffects.Effects().Names() },
	"shell.blockingBudgetSeconds": func(s settings.Settings) any { return int(s.ShellBudget.Seconds()) },
	"ssh.hosts":                   func(s settings.Settings) any { return s.SSHHosts },
	"mcp.servers":                 func(s settings.Settings) any { return s.MCPServers },
	"approval.timeoutSeconds":     func(s settings.Settings) any { return int(s.ApprovalTimeout.Seconds()) },
	"review.style":                func(s settings.Settings) any { return s.ReviewStyle },
	"edit.save":                   func(s settings.Settings) any { return s.EditSave },
	"grep.excludes":               func(s settings.Settings) any { return s.GrepExcludes },
	"shell.writableDirs":          func(s settings.Settings) any { return s.WritableDirs },
	"shell.confinement":           func(s settings.Settings) any { return s.Confinement },
	"approval.elicitation":        func(s settings.Settings) any { return s.Elicitation },
	"ipython.python":              func(s settings.Settings) any { return s.IPythonPython },
}

// fileState is one settings file as read: its state and the keys it set.
type fileState struct {
	path, scope string
	state       string   // "in force", "not present", "broken: …"
	set         []string // the keys this file set, in the order of KeyNames
}

// effective is the settings in force for these paths and, per key, the
// files that set it (none: the default).
type effective struct {
	settings settings.Settings
	events   []settings.Event
	files    []fileState
	from     map[string][]string
}

// readEffective loads the settings files once and finds which file set
// each key: a key counts as set by a file when the file is in force and
// the key, read alone in that file's scope, applies without a warning
// (a project file's execution gate does not).
func readEffective(paths settings.Paths) effective {
	e := effective{from: map[string][]string{}}
	e.settings, e.events = settings.Load(paths)
	for i, name := range paths.Files() {
		scope, scopeName := settings.UserScope, "user"
		if i > 0 {
			scope, scopeName = settings.ProjectScope, "project"
		}
		st := fileState{path: name, scope: scopeName, state: "in force"}
		data, err := os.ReadFile(name)
		switch {
		case errors.Is(err, os.ErrNotExist):
			st.state = "not present"
		case err != nil:
			st.state = "broken: " + err.Error()
		default:
			if f, evs := settings.Parse(name, data, scope); f == nil {
				st.state = "broken: " + firstError(evs)
			} else {
				st.set = keysApplied(name, data, scope)
			}
		}
		for _, k := range st.set {
			e.from[k] = append(e.from[k], name)
		}
		e.files = append(e.files, st)
	}
	return e
}

func firstError(evs []settings.Event) string {
	for _, ev := range evs {
		if ev.Level == settings.Error {
			return ev.String()
		}
	}
	return "unreadable"
}

// keysApplied are the known keys data sets that apply in scope.
func keysApplied(name string, data []byte, scope settings.Scope) []string {
	var top map[string]json.RawMessage
	if json.Unmarshal(data, &top) != nil {
		return nil
	}
	var set []string
	for _, k := range settings.KeyNames() {
		raw, ok := top[k]
		if !ok {
			continue
		}
		alone, _ := json.Marshal(map[string]json.RawMessage{k: raw})
		f, evs := settings.Parse(name, alone, scope)
		if f != nil && len(evs) == 0 {
			set = append(set, k)
		}
	}
	return set
}

// origin says where a key's value came from, for a person.
func (e effective) origin(key string) string {
	from := e.from[key]
	switch {
	case len(from) == 0:
		return "default"
	case key == "grep.excludes":
		return strings.Join(from, " + ")
	}
	return from[len(from)-1]
}

// autoLine is check's last line: the auto set in force and where it came
// from.
func (e effective) autoLine() string {
	auto := e.settings.AutoEffects.String()
	if auto == "" {
		auto = "none (every step asks)"
	}
	if len(e.from["shell.autoEffects"]) == 0 {
		return fmt.Sprintf("auto set: %s (the default: no settings file sets shell.autoEffects; see eukhe settings)", auto)
	}
	return fmt.Sprintf("auto set: %s (shell.autoEffects in %s)", auto, e.origin("shell.autoEffects"))
}

func runSettings(args []string, stdout, stderr io.Writer) int {
	root := "."
	cmd := subcommand{"settings", settingsUsage, stdout, stderr}
	if code, done := cmd.options(flags{values: map[string]*string{"--root": &root}}, args); done {
		return code
	}
	absRoot, err := directory("--root", root)
	if err != nil {
		return cmd.bad("%v", err)
	}
	env := gate.EnvFromList(os.Environ())
	e := readEffective(settings.Locate(env, []string{absRoot}))
	for _, ev := range e.events {
		if ev.Level != settings.Info {
			fmt.Fprintf(stderr, "eukhe settings: %s\n", ev)
		}
	}
	printSettings(stdout, e)
	return 0
}

// printSettings writes the keys in force, then the files.
func printSettings(w io.Writer, e effective) {
	width := 0
	for _, k := range settings.KeyNames() {
		width = max(width, len(k))
	}
	for _, k := range settings.KeyNames() {
		value := "(unknown)"
		if get, ok := settingValues[k]; ok {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(get(e.settings)); err == nil {
				value = strings.TrimSpace(b.String())
			}
		}
		fmt.Fprintf(w, "%-*s  %s  (%s)\n", width, k, value, e.origin(k))
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "files, later ones override earlier ones (grep.excludes adds up):")
	for _, f := range e.files {
		fmt.Fprintf(w, "  %s (%s file): %s\n", f.path, f.scope, f.state)
	}
}
