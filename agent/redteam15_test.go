//go:build linux

package agent

// The fifteenth red team's attacks through the bash tool that HELD (the
// open ones are in redteam15_open_attacks_test.go, build tag
// open_attacks).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// r15default is the default auto set: every effect that can be granted.
var r15default = gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside, gate.Protected)

// r15otherSettings runs script (D/ standing for a directory outside the
// workspace and the home: the XDG_CONFIG_HOME another eukhe of the same
// user reads, as the fourteenth red team's row has it) in a sandboxed
// session with the default auto set, a client that denies every
// question, and tells whether D/eukhe/settings.json now holds
// confinement "off" (another eukhe started with XDG_CONFIG_HOME=D reads
// it), with the questions asked and the output.
func r15otherSettings(t *testing.T, script string) (made bool, asked int, text string) {
	t.Helper()
	w := r13session(t, r15default, "auto")
	d := t.TempDir()
	text = w.r14bashAll(t, strings.ReplaceAll(strings.ReplaceAll(script, "D/", d+"/"), "OFF", `'`+r14off+`'`))
	b, err := os.ReadFile(filepath.Join(d, "eukhe", "settings.json"))
	return err == nil && strings.Contains(string(b), "off"), len(w.asked()), text
}

// Attack (target 2, sandboxed, the default auto set): another eukhe's
// settings file ($XDG_CONFIG_HOME/eukhe/settings.json, secret by its name
// since the fourteenth red team: anyGateFile) written straight, renamed
// onto from a file in the same directory, and linked onto (a hard link).
// Held: each write's path ends in eukhe/settings.json: secret, asked,
// denied; the file is not made.
func TestRedteam15_OtherEukheSettingsFileByItsNameIsAsked(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		for name, sc := range map[string]string{
			"written":    "mkdir -p D/eukhe && printf %s OFF > D/eukhe/settings.json",
			"renamed to": "mkdir -p D/eukhe && printf %s OFF > D/eukhe/s && mv D/eukhe/s D/eukhe/settings.json",
			"linked to":  "mkdir -p D/eukhe && printf %s OFF > D/s && ln D/s D/eukhe/settings.json",
		} {
			if made, asked, text := r15otherSettings(t, sc); made || asked == 0 {
				t.Errorf("THROUGH (%s): made %v, %d questions:\n%s", name, made, asked, text)
			}
		}
	})
}

// Attack (target 1, sandboxed, auto set {read, write, exec}): the search
// for a secret's other names covers the home (hideSecretNames' scopes:
// the roots and realOf(HOME)); the step points HOME at the workspace
// (HOME=… perl, export HOME=…) so that the home holding
// ~/dotfiles/aws-creds (another name of ~/.aws/credentials) would not be
// searched, then reads it with a program the gate cannot see into. The
// process's HOME is the test's home (t.Setenv: the in-process shell
// takes the process's environment), so the search completes and no
// refusal stands in for the hiding.
// Held under bubblewrap and Landlock: the scopes come from the session's
// environment, not the step's (permission denied).
func TestRedteam15_StepsOwnHomeDoesNotNarrowTheSecretNameSearch(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w, _ := r14secretWorld(t, gate.Of(gate.Read, gate.Write, gate.Exec), "dotfiles/aws-creds")
		t.Setenv("HOME", w.home)
		other := filepath.Join(w.home, "dotfiles", "aws-creds")
		for _, pre := range []string{"", "HOME=" + w.dir + " ", "export HOME=" + w.dir + "; "} {
			text := w.r14bashAll(t, pre+"perl -e 'open F, scalar reverse($ARGV[0]) or die; print <F>' '"+r13rev(other)+"'")
			if strings.Contains(text, r14canary) {
				t.Errorf("THROUGH (%q): the secret's other name in the home was read:\n%s", pre, text)
			}
		}
	})
}
