//go:build open_attacks && linux

package shell

// The thirty-second red team's attacks on confine.Narrow and the link
// targets that GOT THROUGH (each asserts the safe outcome, so it fails
// while the hole is open). The held ones are in
// redteam32_held_linux_test.go, with the helpers both files use.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Attack (false positive: listNoLinks, a link among the store's entries;
// GOT THROUGH, medium): ~/.ssh/config is a symbolic link into a dotfiles
// directory (GNU Stow, chezmoi's symlink mode, home-manager: common). The
// user approves `cat ~/.ssh/known_hosts` and `ssh-keygen -l -f
// ~/.ssh/id_ed25519.pub`; each fails (No such file or directory under
// bubblewrap, Permission denied under Landlock). Root cause: Narrow
// keeps a directory holding a link covered whole (listNoLinks refuses
// it: a mount cannot cover a link), and the named path below it with it.
// Safe outcome: the approved reads print the file and the fingerprint.
// Suggested fix: a link among the siblings needs no mount of its own
// when its target is covered already (or is no secret place); hide such
// a link by mounting over the directory entry's real target, or refuse
// only when the link's target is a secret place not named.
func TestRedteam32_ALinkInTheStoreBreaksAnApprovedRead(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			w := r27TmpWorld(t)
			r30HeldStore(t, w, "id_ed25519")
			must31(t, os.WriteFile(filepath.Join(w.outside, "ssh_config"), []byte("Host x\n"), 0o644))
			must31(t, os.Symlink(filepath.Join(w.outside, "ssh_config"), filepath.Join(w.secret, "config")))
			must31(t, os.WriteFile(filepath.Join(w.secret, "id_ed25519.pub"),
				[]byte("ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl x@y\n"), 0o644))
			res := w.run("cat " + filepath.Join(w.secret, "known_hosts") + "; ssh-keygen -l -f " + filepath.Join(w.secret, "id_ed25519.pub"))
			if !strings.Contains(res.Text, "h\n") || !strings.Contains(res.Text, "ED25519") {
				t.Errorf("approved reads failed; questions %q:\n%s", r29Asked(w), res.Text)
			}
		})
	}
}

// Attack (false positive: confine.Narrow under Landlock; GOT THROUGH,
// medium): the approved everyday edits of
// TestRedteam32_ApprovedSedInPlaceWorksUnderBubblewrap (`sed -i
// s/Ann/Bob/ .git/config`, careful auto set; `sed -i s/a/b/
// ~/.ssh/config`, default) fail under Landlock: "couldn't open temporary
// file .git/sedXXXXXX: Permission denied". Before the narrowing an
// approval of protected (secret) left the place writable whole. Root
// cause: the narrowed Landlock rules give the named file alone, and sed
// -i (perl -i, git's config.lock, every editor's atomic save) writes a
// new file beside it and renames it over it. Safe outcome: both edits
// made. Suggested fix: give the named file's directory the right to make
// and rename a regular file whose name is not a protected or secret
// entry (Landlock's MAKE_REG, REFER on the directory), then check what
// was made there after the step (the made scan), or run such a step
// under bubblewrap's narrowing once its holes above are closed.
func TestRedteam32_ApprovedSedInPlaceFailsUnderLandlock(t *testing.T) {
	useMechanism(t, Landlock)
	r32ApprovedSedInPlace(t)
}
