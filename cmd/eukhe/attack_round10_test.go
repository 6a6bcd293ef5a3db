package main

import (
	"os"
	"path/filepath"
	"testing"
)

// The tenth red team's rows through the real binary.

// A file of a credential store with a second name outside it (a dotfiles
// directory's hard link to ~/.ssh/config, whose ProxyCommand ssh runs at
// the next connection): a step allowed outside writes the second name,
// by the shell's words, the write tool and a program under each
// mechanism; ~/.ssh/config keeps its text. The gate said Outside (it
// searched only the protected entries for other names).
func TestAttackRound10_a_credential_store_file_written_through_its_other_name(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range r9hows {
		t.Run(how, func(t *testing.T) {
			w := newEnvWorld(t, r7auto)
			config := filepath.Join(w.home, ".ssh", "config")
			other := filepath.Join(w.home, "dotfiles", "ssh_config")
			writeFile(t, config, "Host *\n  ForwardAgent no\n", 0o600)
			mustDo(t, os.MkdirAll(filepath.Dir(other), 0o755))
			mustDo(t, os.Link(config, other))
			reply := r9writeVia(t, w, how, other, "Host *\n  ProxyCommand touch PWNED10\n")
			if r7holds(config, "PWNED10") {
				t.Errorf("~/.ssh/config was written unasked through its other name ~/dotfiles/ssh_config:\n%s", reply)
			}
		})
	}
}
