package main

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eukhe/eukhe/agent"
)

// helpCommand is a command line of eukhe --help: "  eukhe NAME …".
var helpCommand = regexp.MustCompile(`(?m)^  eukhe ([a-z]+)\b`)

// Every command's --help (and eukhe --help itself) fits a terminal of 80
// columns, and the help that names the agent's tools names the roster's,
// all of them in order, from agent.DefaultSpecs (eukhe mcp --help once
// listed "read, edit, write, grep, glob, bash and dyn", without ipython).
func TestHelp_fits_80_columns_and_names_the_roster(t *testing.T) {
	top := eukhe(t, "", "--help")
	if top.code != 0 {
		t.Fatalf("eukhe --help: exit %d\n%s", top.code, top.stderr)
	}
	cmds := []string{""}
	for _, m := range helpCommand.FindAllStringSubmatch(top.stdout, -1) {
		if m[1] != "version" && !strings.Contains(strings.Join(cmds, " "), " "+m[1]) {
			cmds = append(cmds, " "+m[1])
		}
	}
	if len(cmds) < 8 {
		t.Fatalf("eukhe --help names %d commands: %q", len(cmds)-1, cmds)
	}
	help := map[string]string{}
	for _, c := range cmds {
		args := append(strings.Fields(c), "--help")
		r := eukhe(t, "", args...)
		text := r.stdout + r.stderr
		if r.code != 0 {
			t.Errorf("eukhe%s --help: exit %d\n%s", c, r.code, text)
		}
		help[strings.TrimSpace(c)] = text
		for i, l := range strings.Split(text, "\n") {
			if n := utf8.RuneCountInString(l); n > 80 {
				t.Errorf("eukhe%s --help, line %d is %d columns (wrap at 80):\n%s", c, i+1, n, l)
			}
		}
	}
	var names []string
	for _, s := range agent.DefaultSpecs() {
		names = append(names, s.Name)
	}
	want := strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
	for _, c := range []string{"", "mcp"} {
		if flat := strings.Join(strings.Fields(help[c]), " "); !strings.Contains(flat, want) {
			t.Errorf("eukhe %s --help does not name the roster's tools (%s):\n%s", c, want, help[c])
		}
	}
}
