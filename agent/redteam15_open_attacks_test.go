//go:build open_attacks && linux

package agent

// The fifteenth red team's attacks through the bash tool that GOT
// THROUGH (run with -tags open_attacks). Each asserts the safe outcome
// and fails while the hole is open.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (target 2, sandboxed (bubblewrap and Landlock), the default auto
// set): another eukhe's settings file (D/eukhe/settings.json, secret by
// its name: anyGateFile) written by a program the gate cannot see into
// (perl, the path reversed): the name rule is the gate's, judged on the
// paths a step's words name; the sandbox knows only places.
// THROUGH (severity high, as TestRedteam15_OtherEukheSettingsFileByItsDirectory):
// the file is made with confinement "off", nothing asked.
// Root cause: anyGateFile is a rule on names, and a sandbox confines by
// places that exist when it starts: nothing in the sandbox stops a
// program making D/eukhe/settings.json anywhere it may write (outside
// is in the default auto set). A name rule the sandbox cannot enforce
// holds only for what the gate sees. At the root: the gates must not
// live in a file whose place depends on an environment the policy does
// not know. Either every eukhe reads its gates from one place fixed
// relative to the user's real home (the account's home from the user
// database, not XDG_CONFIG_HOME), which every policy then knows and
// freezes; or the other eukhe trusts a settings file only when it is
// authenticated (an HMAC under a key kept in a secret place eukhe makes
// once, which every sandbox hides), so a file a confined program makes
// is ignored.
func TestRedteam15_OtherEukheSettingsFileByAProgram(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w := r13session(t, r15default, "auto")
		t.Setenv("HOME", w.home) // the in-process shell's steps take the process's HOME
		d := t.TempDir()
		code := `make_path("$A[0]/eukhe"); open F, ">", "$A[0]/eukhe/settings.json" or die "open: $!"; print F q(` + r14off + `); close F`
		text := w.r14bashAll(t, r14perl(code, d))
		if b, err := os.ReadFile(filepath.Join(d, "eukhe", "settings.json")); err == nil && strings.Contains(string(b), "off") {
			t.Errorf("THROUGH: a program made another eukhe's settings file, %d questions:\n%s", len(w.asked()), text)
		}
	})
}
