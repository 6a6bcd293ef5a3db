package main

import (
	"strings"
	"testing"
)

// eukhe check ends with the confinement in force: shell.confinement and
// what works here (issue 13).
// eukhe check names the confinement on the line before the auto set's.
func TestCLI_check_names_the_confinement(t *testing.T) {
	w := newCheckWorld(t)
	r := w.check("", "ls")
	last := confinementLine(r.stdout)
	if !strings.HasPrefix(last, "confinement: ") {
		t.Fatalf("no confinement line: %q", r.stdout)
	}
	w.settings(`{"shell.confinement": "off"}`)
	if r := w.check("", "ls"); confinementLine(r.stdout) != `confinement: none (shell.confinement is "off")` {
		t.Fatalf("off: %q", r.stdout)
	}
	w.settings(`{"shell.confinement": "require"}`)
	r = w.checkEnv([]string{"EUKHE_CONFINEMENT=none"}, "ls")
	if l := confinementLine(r.stdout); !strings.HasPrefix(l, "confinement: none (") || !strings.Contains(l, `"require", so no external program runs`) {
		t.Fatalf("require with none: %q", r.stdout)
	}
}

// confinementLine is the confinement line: the one before the last (the auto
// set's).
func confinementLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) < 2 {
		return ""
	}
	return lines[len(lines)-2]
}

// Where programs run unconfined, eukhe check shows a step that runs one as
// the bash tool asks about it: exec with write, outside, protected and
// net; confined, exec alone.
func TestCLI_check_shows_what_an_unconfined_program_can_do(t *testing.T) {
	w := newCheckWorld(t)
	w.settings(`{"shell.confinement": "off", "shell.autoEffects": ["read", "exec"]}`)
	r := w.check("", "python3 build.py")
	if !strings.Contains(r.stdout, "effects: write, exec, net, outside, protected") || !strings.Contains(r.stdout, "asks") {
		t.Fatalf("off: %q", r.stdout)
	}
	w.settings(`{"shell.autoEffects": ["read", "exec"]}`)
	r = w.checkEnv([]string{"EUKHE_CONFINEMENT=bubblewrap"}, "python3 build.py")
	if strings.Contains(r.stdout, "protected") {
		t.Fatalf("confined: %q", r.stdout)
	}
}
