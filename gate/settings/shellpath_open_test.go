//go:build open_attacks && linux

package settings

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// Open (the tenth red team's): a ~/.zshrc that turns HIST_IGNORE_SPACE
// off and writes each line as it is typed (INC_APPEND_HISTORY) gets the
// typed ask, mark and all, in the user's history: zsh writes the line
// before it runs, so nothing in it can keep it out.
func TestShellAttack_zsh_without_HIST_IGNORE_SPACE_gets_no_line_of_the_ask(t *testing.T) {
	zsh, err := exec.LookPath("zsh")
	if err != nil {
		testkit.Missing(t, "zsh is needed (.ci/run installs it)")
	}
	shortLinger(t, 500*time.Millisecond)
	home := t.TempDir()
	rc := "HISTFILE=$HOME/.zsh_history; SAVEHIST=100; HISTSIZE=100; unsetopt HIST_IGNORE_SPACE; setopt INC_APPEND_HISTORY\nexport PATH=./bin:$PATH\n"
	if err := os.WriteFile(filepath.Join(home, ".zshrc"), []byte(rc), 0o644); err != nil {
		t.Fatal(err)
	}
	hist := filepath.Join(home, ".zsh_history")
	if err := os.WriteFile(hist, []byte("ls\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	askShellPath(shellInvocation{zsh, "-i", "-c"}, map[string]string{"HOME": home, "SHELL": zsh, "PATH": os.Getenv("PATH")})
	time.Sleep(shellLinger + shellHangupGrace)
	if b, _ := os.ReadFile(hist); string(b) != "ls\n" {
		t.Errorf("the user's history after the ask: %q", b)
	}
}
