package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

const checkUsage = `Usage: eukhe check [--json] [--cwd DIR] SCRIPT

Shows how the gate reads a bash script before anything runs: each step as
it would run (expanded, invisible characters escaped), its effects in the
order read, write, exec, net, outside, protected, secret, and whether it
runs unasked under shell.autoEffects or asks first; then how the programs
of a step are confined: "confinement: bubblewrap", "landlock (why)" or
"none (why)" (shell.confinement). A "PATH entry" line names each entry
of PATH that is not used as it is: a relative, empty or missing one is
dropped (no command is found there), and a command found in one inside
the workspace is exec. The last line is the auto set in force and where
it came from (a settings file or the default).
  --json     print {"grammar":bool,
             "steps":[{"text":…,"effects":[…],"asks":bool}],
             "confinement":"…",
             "path":[{"entry":…,"kind":…,"kept":bool,"exec":bool}]}
             ("path" only when an entry is not used as it is)
  --cwd DIR  the directory the script runs in (default: .); the workspace
             root is the nearest directory at or above it that holds .git
             or .eukhe, else DIR itself
  SCRIPT     the script; "-" reads it from standard input

Settings come from $XDG_CONFIG_HOME/eukhe/settings.json (default
~/.config/eukhe) and <root>/.eukhe/settings.json; their warnings and
errors go to standard error.

Exit status: 0 the script was read, 1 it cannot run (a NUL byte, bad
syntax), 2 usage error.
`

// checkJSON is the --json form of eukhe check.
type checkJSON struct {
	Grammar     bool            `json:"grammar"`
	Steps       []checkStepJSON `json:"steps"`
	Confinement string          `json:"confinement"`
	// Path is every PATH entry not kept as it is: dropped, or kept with
	// each command found there exec.
	Path []checkPathJSON `json:"path,omitempty"`
}

type checkPathJSON struct {
	Entry string `json:"entry"`
	Kind  string `json:"kind"`
	Kept  bool   `json:"kept"`
	// Exec: a command found there is exec, whatever its name.
	Exec bool `json:"exec"`
}

type checkStepJSON struct {
	Text    string   `json:"text"`
	Effects []string `json:"effects"`
	Asks    bool     `json:"asks"`
}

func runCheck(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	var script, dir string
	asJSON, haveScript := false, false
	dir = "."
	cmd := subcommand{"check", checkUsage, stdout, stderr}
	words, code, done := cmd.parse(flags{values: map[string]*string{"--cwd": &dir}, bools: map[string]*bool{"--json": &asJSON}}, args)
	switch {
	case done:
		return code
	case len(words) > 1:
		return cmd.bad("one SCRIPT only; quote it as one argument (got another: %q)", words[1])
	case len(words) == 1:
		script, haveScript = words[0], true
	}
	if !haveScript {
		return cmd.bad("no SCRIPT; give it as one argument, or - to read it from standard input")
	}
	if script == "-" {
		b, err := io.ReadAll(stdin)
		if err != nil {
			fmt.Fprintf(stderr, "eukhe check: reading the script from standard input: %v\n", err)
			return 1
		}
		script = string(b)
	}
	cwd, err := directory("--cwd", dir)
	if err != nil {
		return cmd.bad("%v", err)
	}

	env := gate.EnvFromList(os.Environ())
	paths := settings.Locate(env, []string{workspaceRoot(cwd)})
	eff := readEffective(paths)
	set, events := eff.settings, eff.events
	broken := false
	for _, e := range events {
		fmt.Fprintf(stderr, "eukhe check: %s\n", e)
		broken = broken || e.Level == settings.Error
	}
	if broken {
		fmt.Fprintln(stderr, "eukhe check: a broken settings file sets nothing here; the defaults stand in for it")
	}
	sh := &gate.Shell{
		Policy:  paths.Places(env).Policy(gate.OS),
		Dir:     cwd,
		Env:     env,
		ReadDir: os.ReadDir,
	}
	sc, err := sh.Classify(script)
	if err != nil {
		fmt.Fprintf(stderr, "eukhe check: %v\n", err)
		return 1
	}
	if shell.RunsUnconfined(set.Confinement) {
		shell.WidenUnconfined(&sc) // as the bash tool asks: a program no sandbox confines can do more
	}
	var pathNotes []gate.PathEntry
	if v, ok := env["PATH"]; ok {
		for _, e := range sh.Policy.JudgePath(v, nil) {
			if e.Kind != gate.PathOutside {
				pathNotes = append(pathNotes, e)
			}
		}
	}
	if asJSON {
		out := checkJSON{Grammar: sc.Grammar, Steps: []checkStepJSON{}, Confinement: shell.Describe(set.Confinement)}
		for _, st := range sc.Steps {
			out.Steps = append(out.Steps, checkStepJSON{Text: st.Text, Effects: st.Effects.Names(),
				Asks: st.Asks(set.AutoEffects)})
		}
		for _, e := range pathNotes {
			out.Path = append(out.Path, checkPathJSON{Entry: e.Entry, Kind: e.Kind.String(), Kept: e.Kept(), Exec: e.SuppliesExec()})
		}
		enc := json.NewEncoder(stdout)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(out); err != nil {
			fmt.Fprintf(stderr, "eukhe check: %v\n", err)
			return 1
		}
		return 0
	}
	printCheck(stdout, sc, set.AutoEffects)
	for _, e := range pathNotes {
		fmt.Fprintf(stdout, "PATH entry %s\n", e.Why())
	}
	fmt.Fprintf(stdout, "confinement: %s\n", shell.Describe(set.Confinement))
	fmt.Fprintln(stdout, eff.autoLine())
	return 0
}

// printCheck writes the steps for a person to read.
func printCheck(w io.Writer, sc gate.Script, auto gate.AutoSet) {
	if !sc.Grammar {
		fmt.Fprintln(w, "outside the step grammar: the whole script is one step, exec with every effect of every command in it")
	}
	if len(sc.Steps) == 0 {
		fmt.Fprintln(w, "no steps")
	}
	for i, st := range sc.Steps {
		label := fmt.Sprintf("step %d: ", i+1)
		fmt.Fprintf(w, "%s%s\n", label, strings.ReplaceAll(st.Text, "\n", "\n"+strings.Repeat(" ", len(label))))
		fmt.Fprintf(w, "  effects: %s\n", strings.Join(st.Effects.Names(), ", "))
		if !st.Asks(auto) {
			fmt.Fprintln(w, "  runs unasked")
			continue
		}
		var why []string
		if st.Effects.Has(gate.Secret) {
			why = append(why, "secret always asks")
		}
		if missing := st.Effects.Without(gate.Secret) &^ auto.Effects(); !missing.Empty() {
			why = append(why, strings.Join(missing.Names(), ", ")+" not in shell.autoEffects")
		}
		fmt.Fprintf(w, "  asks: %s\n", strings.Join(why, "; "))
	}
}

// workspaceRoot is the nearest directory at or above dir that holds .git
// or .eukhe, else dir.
func workspaceRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		for _, mark := range []string{".git", ".eukhe"} {
			if _, err := os.Lstat(filepath.Join(d, mark)); err == nil {
				return d
			}
		}
		if d == filepath.Dir(d) {
			return dir
		}
	}
}
