//go:build linux

package gate

// The thirty-fourth red team's gate rows that are held (the open ones
// are in redteam34_open_attacks_test.go).

import (
	"path/filepath"
	"testing"
)

// Attack (dotLoads, a dot-link to the root that no table knows; HELD
// since dotLoads knows ipython, jupyter, direnv, tmux and bash-it; was
// OPEN, high): the user's ~/.ipython (profile_default/startup/*.py: run by
// every ipython) or ~/.config/direnv (lib/*.sh: sourced by direnv's
// shell on every cd into a directory with an .envrc) links to the
// workspace root, a dotfiles repository the agent works on. Writing the
// loaded file by the link's path is protected, but the same file by its
// own path in the root is plain (read+write) when it lies in a
// subdirectory: a step under the default auto set plants code the user's
// tools run. A top-level file (direnvrc, tmux.conf) is protected, and the
// same nested forms under a known dot-directory (fish's conf.d, nvim's
// lua) are held. Root cause: linkLoads gives a dot-link to the root the
// loads of a known dot-directory only (dotLoads) and none for any other,
// though DotCovers covers every dot-directory of the home; what lies
// below a top-level directory of the root is then the workspace's own.
// Safe outcome: the write by the file's own path is protected. Suggested
// fix: for a dot-link to the root that no table knows, keep the whole
// root protected as the link's path is (ask), or its entries' subtrees,
// not only the top-level names.
func TestRedteam34_UnknownDotLinkToTheRootLoadsArePlain(t *testing.T) {
	for _, c := range []struct{ dot, load string }{
		{".ipython", "profile_default/startup/00-x.py"},
		{".config/direnv", "lib/x.sh"},
		{".config/fish", "conf.d/x.fish"},
		{".config/nvim", "lua/x.lua"},
	} {
		t.Run(c.dot, func(t *testing.T) {
			w := newWorld(t)
			mustMkdir(t, filepath.Join(w.root, filepath.Dir(c.load)))
			mustLink(t, w.root, filepath.Join(w.home, c.dot))
			r33Repolicy(w)
			if got := stepEffects(t, w.shell(w.root), "echo x > ~/"+c.dot+"/"+c.load); !got.Has(Protected) {
				t.Fatalf("control: the load by the link's path is %v", got)
			}
			if got := stepEffects(t, w.shell(w.root), "echo x > "+c.load); !got.Has(Protected) {
				t.Errorf("THROUGH: %s written by its own path in the root is %v", c.load, got)
			}
		})
	}
}
