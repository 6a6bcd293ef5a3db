//go:build linux

package shell

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The places an approval narrowed, shown from copies under bubblewrap
// (shadow_linux.go): the approved work lands, nothing else does, and the
// reply says what was not kept.

// shadowWorld is a world under bubblewrap, the default auto set, every
// question approved, with a store holding known_hosts and a key.
func shadowWorld(t *testing.T) *world {
	t.Helper()
	useMechanism(t, Bubblewrap)
	w := r27TmpWorld(t)
	r30HeldStore(t, w, "id_ed25519")
	return w
}

func (w *world) store(name string) string { return filepath.Join(w.secret, name) }

func (w *world) storeText(name string) string {
	b, err := os.ReadFile(w.store(name))
	if err != nil {
		return "<" + err.Error() + ">"
	}
	return string(b)
}

// An approved edit of a named file lands, as sed -i makes it (a new file
// renamed over it), and an approved append and a new named file too.
func TestShadowKeepsTheApprovedWrites(t *testing.T) {
	w := shadowWorld(t)
	res := w.run("sed -i s/h/host/ " + w.store("known_hosts"))
	if got := w.storeText("known_hosts"); got != "host\n" {
		t.Errorf("sed -i: known_hosts is %q:\n%s", got, res.Text)
	}
	res = w.run("echo more >> " + w.store("known_hosts"))
	if got := w.storeText("known_hosts"); got != "host\nmore\n" {
		t.Errorf(">>: known_hosts is %q:\n%s", got, res.Text)
	}
	w.write("add.sh", "echo ssh-ed25519 AAAA me >> \"$1\"\n")
	res = w.run("sh ./add.sh " + w.store("authorized_keys"))
	if got := w.storeText("authorized_keys"); got != "ssh-ed25519 AAAA me\n" {
		t.Errorf("a new named file: authorized_keys is %q:\n%s", got, res.Text)
	}
	if fi, err := os.Stat(w.store("authorized_keys")); err == nil && fi.Mode().Perm() != 0o644 {
		t.Errorf("authorized_keys is %v, not the mode the program made it with", fi.Mode())
	}
	res = w.run("rm " + w.store("known_hosts"))
	if exists(w.store("known_hosts")) {
		t.Errorf("rm: known_hosts is still there:\n%s", res.Text)
	}
	if got := w.storeText("id_ed25519"); got != "PRIVATEKEY\n" {
		t.Errorf("the key, never named, is %q", got)
	}
}

// Attack (the shadows; HELD): under an approval that named known_hosts,
// a program makes ~/.ssh/rc and a directory, replaces the named file by
// a link to the hidden key or by a FIFO, and reads the key through the
// store. HELD: what it made is not kept, and the reply says so; a named
// file left as no regular file is not written back; the key is not
// there to read. Safe outcome: the store is as it was, but for what the
// approval named.
func TestRedteam33_ShadowKeepsOnlyTheNamedFiles(t *testing.T) {
	for i, body := range []string{
		"echo evil > \"$HOME/.ssh/rc\"; mkdir \"$HOME/.ssh/x\"; cat \"$HOME/.ssh/id_ed25519\"",
		"rm -f \"$1\"; ln -s id_ed25519 \"$1\"",
		"rm -f \"$1\"; mkfifo \"$1\"",
		"mv \"$1\" \"$HOME/.ssh/authorized_keys\"",
	} {
		w := shadowWorld(t)
		w.write("b.sh", body+"\n")
		res := w.run("sh ./b.sh " + w.store("known_hosts"))
		if strings.Contains(res.Text, "PRIVATEKEY") {
			t.Errorf("%d: the key was read:\n%s", i, res.Text)
		}
		for _, n := range []string{"rc", "x", "authorized_keys"} {
			if exists(w.store(n)) {
				t.Errorf("%d: ~/.ssh/%s was made:\n%s", i, n, res.Text)
			}
		}
		if fi, err := os.Lstat(w.store("known_hosts")); err == nil && !fi.Mode().IsRegular() {
			t.Errorf("%d: known_hosts is %v now:\n%s", i, fi.Mode(), res.Text)
		}
		if i == 0 && (!strings.Contains(res.Text, "rc, which no question named: not kept") || !strings.Contains(res.Text, "x, which no question named")) {
			t.Errorf("the reply does not say what was not kept:\n%s", res.Text)
		}
		if i == 1 && !strings.Contains(res.Text, "as no regular file: not kept") {
			t.Errorf("the reply does not say the link was not kept:\n%s", res.Text)
		}
	}
}

// Attack (the shadows' copies; HELD): a background step approved to
// read known_hosts holds its copy while a second program of the script,
// whose words name no secret, reads every copy below eukhe's state
// directory. HELD: the state directory is hidden from every step.
// Safe outcome: the second program reads nothing.
func TestRedteam33_ShadowCopiesAreHiddenFromOtherSteps(t *testing.T) {
	w := shadowWorld(t)
	w.write("hold.sh", "cat \"$1\" >/dev/null; sleep 2\n")
	w.write("peek.sh", "cat \"$HOME\"/.local/state/eukhe/narrow/*/*/known_hosts\n")
	res := w.run("sh ./hold.sh " + w.store("known_hosts") + " & sleep 0.7; sh ./peek.sh; wait")
	if strings.Contains(res.Text, "h\n") && !strings.Contains(res.Text, "No such file") {
		t.Errorf("a copy was read by another program:\n%s", res.Text)
	}
}

// A named file changed by someone else while the program ran keeps that
// change: the program's own is not written over it, and the reply says
// so.
func TestShadowKeepsAChangeMadeMeanwhile(t *testing.T) {
	w := shadowWorld(t)
	w.write("slow.sh", "sleep 1; echo agent >> \"$1\"\n")
	go func() {
		time.Sleep(300 * time.Millisecond)
		_ = os.WriteFile(w.store("known_hosts"), []byte("user\n"), 0o600)
	}()
	res := w.run("sh ./slow.sh " + w.store("known_hosts"))
	if got := w.storeText("known_hosts"); got != "user\n" {
		t.Errorf("known_hosts is %q:\n%s", got, res.Text)
	}
	if !strings.Contains(res.Text, "changed while it ran") {
		t.Errorf("the reply does not say the change was not written:\n%s", res.Text)
	}
}

// A nested named path: the directories above it are shown from copies
// too, each keeping its other entries hidden.
func TestShadowNestedNamedPath(t *testing.T) {
	w := shadowWorld(t)
	must31(t, os.MkdirAll(w.store("keys"), 0o700))
	must31(t, os.WriteFile(w.store("keys/job"), []byte("JOB\n"), 0o600))
	must31(t, os.WriteFile(w.store("keys/home"), []byte("HOMEKEY\n"), 0o600))
	w.write("b.sh", "cat \"$1\"; cat \"$HOME/.ssh/keys/home\"; cat \"$HOME/.ssh/id_ed25519\"; echo x > \"$HOME/.ssh/keys/new\"; echo y > \"$HOME/.ssh/new\"; echo edited >> \"$1\"\n")
	res := w.run("sh ./b.sh " + w.store("keys/job"))
	if !strings.Contains(res.Text, "JOB") || strings.Contains(res.Text, "HOMEKEY") || strings.Contains(res.Text, "PRIVATEKEY") {
		t.Errorf("the named key only is read:\n%s", res.Text)
	}
	if exists(w.store("keys/new")) || exists(w.store("new")) {
		t.Errorf("a new name was kept:\n%s", res.Text)
	}
	if got := w.storeText("keys/job"); got != "JOB\nedited\n" {
		t.Errorf("keys/job is %q:\n%s", got, res.Text)
	}
}

// A protected place narrowed to .git/config: the repository's other
// entries stay readable (git works) and read-only, no hooks directory is
// made, and the edit lands.
func TestShadowProtectedPlace(t *testing.T) {
	useMechanism(t, Bubblewrap)
	w := r32Careful(t)
	w.write(".git/description", "repo\n")
	w.write("b.sh", "cat .git/description > seen; echo x >> .git/description; mkdir -p .git/hooks && echo evil > .git/hooks/pre-commit\n")
	w.write("edit.sed", "1e sh b.sh\ns/Ann/Bob/\n")
	res := w.run("sed -i -f edit.sed .git/config")
	if !strings.Contains(w.read("seen"), "repo") {
		t.Errorf("the repository's other entries are not readable:\n%s", res.Text)
	}
	if w.read(".git/description") != "repo\n" || exists(w.path(".git/hooks")) {
		t.Errorf("the repository took more than its config:\n%s", res.Text)
	}
	if got := w.read(".git/config"); !strings.Contains(got, "Bob") {
		t.Errorf(".git/config is %q:\n%s", got, res.Text)
	}
	var st syscall.Stat_t
	if syscall.Lstat(w.path(".git"), &st) != nil {
		t.Fatal(".git is gone")
	}
}

// Attack (a narrowed .git holding a link, now given way; HELD): .git/hooks
// links to the work tree's githooks (known to the policy, as the
// session's refresh learns it); `sed -i -f edit.sed .git/config`,
// approved, runs sed's e command, which writes .git/hooks/pre-commit
// through the link (copied into the shadow as a link) and
// githooks/post-merge by its own path. HELD: the link's target is a
// protected entry, read-only to the step. Safe outcome: neither hook is
// made.
func TestRedteam32_NarrowedGitWithLinkedHooksPlantsNoHook(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		useMechanism(t, m)
		w := r32Careful(t)
		must31(t, os.MkdirAll(w.path("githooks"), 0o755))
		must31(t, os.Symlink("../githooks", w.path(".git/hooks")))
		w.runner.Gate.Policy.LearnLinks() // as the session's refresh does
		p, res := r32PlantByEdit(w, "printf '#!/bin/sh\\necho HOOK\\n' > .git/hooks/pre-commit; echo x > githooks/post-merge", "githooks/pre-commit", "githooks/post-merge")
		if p != "" {
			t.Errorf("%s: %s was made; questions %q:\n%s", m, p, r29Asked(w), res.Text)
		}
		if !strings.Contains(w.read(".git/config"), "Ann") {
			t.Errorf("%s: the approved edit's file changed unexpectedly:\n%s", m, res.Text)
		}
	}
}
