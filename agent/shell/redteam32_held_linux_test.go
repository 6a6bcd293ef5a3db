//go:build linux

package shell

// The thirty-second red team's attacks on confine.Narrow (a program
// approved for secret or protected at named real paths gets those paths
// only) that were HELD when it ran (each asserts the safe outcome and
// passes), and the helpers its open rows (redteam32_open_attacks_test.go)
// use too.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// r32Careful is a world under the careful auto set (read, write, exec:
// protected asks) whose repository has a config and no hooks directory.
func r32Careful(t *testing.T) *world {
	t.Helper()
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
	w.write(".git/config", "[user]\n\tname = Ann\n")
	w.write(".git/HEAD", "ref: refs/heads/main\n")
	return w
}

// r32PlantByEdit approves `sed -i -f edit.sed .git/config` in w, where
// edit.sed runs plant (GNU sed's e command runs a shell), and tells the
// path of the first of paths the run made that no question named.
func r32PlantByEdit(w *world, plant string, paths ...string) (string, Result) {
	w.write("edit.sed", "1e sh plant.sh\n")
	w.write("plant.sh", plant+"\n")
	res := w.run("sed -i -f edit.sed .git/config")
	for _, p := range paths {
		if exists(w.path(p)) && !r31Named(w, w.path(p)) {
			return p, res
		}
	}
	return "", res
}

// r32NewInStore runs, under the default auto set and every question
// approved, `sh ./b.sh ~/.ssh/known_hosts`, b.sh appending to
// ~/.ssh/NAME (missing): whether NAME was made unnamed.
func r32NewInStore(t *testing.T, name string) (bool, Result, *world) {
	w := r27TmpWorld(t)
	r30HeldStore(t, w, "id_ed25519")
	w.write("b.sh", "cat \"$1\" >/dev/null; echo AGENT >> \"$HOME/.ssh/"+name+"\"\n")
	res := w.run("sh ./b.sh " + filepath.Join(w.secret, "known_hosts"))
	return exists(filepath.Join(w.secret, name)) && !r31Named(w, filepath.Join(w.secret, name)), res, w
}

// r32SettingsWorld is a world (default auto set, every question approved)
// whose policy knows the user's settings directory (missing settings
// file) as a session's does; it returns that directory.
func r32SettingsWorld(t *testing.T) (*world, string) {
	w := r27TmpWorld(t)
	r30HeldStore(t, w, "id_ed25519")
	home := filepath.Dir(w.secret)
	user := filepath.Join(home, ".config", "eukhe")
	must31(t, os.MkdirAll(user, 0o755))
	w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: home, UserDir: user,
		SettingsFiles: []string{filepath.Join(user, "settings.json"), w.path(".eukhe/settings.json")}}.Policy(gate.OS)
	w.write("b.sh", "cat \"$1\" >/dev/null; echo '{\"shell\":{\"confinement\":\"off\"}}' > \""+user+"/settings.json\"\n")
	return w, user
}

// Attack (confine.Narrow, new names in a narrowed store, Landlock; HELD,
// high): under the default auto set (write, outside unasked) the user
// approves `sh ./b.sh ~/.ssh/known_hosts` (exec, secret: a script that
// reads known_hosts); b.sh appends the agent's key to
// ~/.ssh/authorized_keys, or writes ~/.ssh/config (ProxyCommand) or
// ~/.ssh/rc, none of which exists. HELD under Landlock: the narrowed
// sandbox gives the named file alone, and no right to make a file in
// ~/.ssh (bubblewrap: the open row
// TestRedteam32_NarrowedStoreTakesNewFilesUnderBubblewrap). Safe outcome:
// no such file is made unless a question named it.
func TestRedteam32_NarrowedStoreTakesNoNewFilesUnderLandlock(t *testing.T) {
	useMechanism(t, Landlock)
	for _, name := range []string{"authorized_keys", "config", "rc"} {
		if made, res, w := r32NewInStore(t, name); made {
			t.Errorf("~/.ssh/%s was made; questions %q:\n%s", name, r29Asked(w), res.Text)
		}
	}
}

// Attack (confine.Narrow, a protected directory's missing entry,
// Landlock; HELD, high under a careful auto set): the repository has no
// .git/hooks (git init --template=, a clone by some tools, worktrees);
// the user approves `sed -i -f edit.sed .git/config` (protected at
// .git/config), and edit.sed's e command makes .git/hooks/pre-commit, or
// .git/info/attributes (a filter git runs). HELD under Landlock: the
// narrowed sandbox gives .git/config alone, and no right to make an
// entry in .git (bubblewrap: the open row
// TestRedteam32_MissingHooksDirectoryPlantedUnderBubblewrap). Safe
// outcome: neither is made unless a question named it.
func TestRedteam32_MissingHooksDirectoryNotPlantedUnderLandlock(t *testing.T) {
	useMechanism(t, Landlock)
	for _, plant := range []string{
		"mkdir -p .git/hooks && printf '#!/bin/sh\\necho HOOK\\n' > .git/hooks/pre-commit",
		"mkdir -p .git/info && echo '* filter=x' > .git/info/attributes",
	} {
		w := r32Careful(t)
		if p, res := r32PlantByEdit(w, plant, ".git/hooks/pre-commit", ".git/info/attributes"); p != "" {
			t.Errorf("%s was made under an approval of .git/config; questions %q:\n%s", p, r29Asked(w), res.Text)
		}
	}
}

// Attack (false positive: approved everyday edits in a narrowed place,
// bubblewrap; HELD): `sed -i s/Ann/Bob/ .git/config` under the careful
// auto set and `sed -i s/a/b/ ~/.ssh/config` under the default, each
// approved. sed -i writes a temporary file beside the file and renames it
// over it. HELD under bubblewrap: the narrowed entries are mounts of the
// other entries, the directory itself stays writable (Landlock: the open
// row TestRedteam32_ApprovedSedInPlaceFailsUnderLandlock). Safe outcome:
// both edits made.
func TestRedteam32_ApprovedSedInPlaceWorksUnderBubblewrap(t *testing.T) {
	useMechanism(t, Bubblewrap)
	r32ApprovedSedInPlace(t)
}

// r32ApprovedSedInPlace is the row above for the mechanism in use.
func r32ApprovedSedInPlace(t *testing.T) {
	w := r32Careful(t)
	res := w.run("sed -i s/Ann/Bob/ .git/config")
	if !strings.Contains(w.read(".git/config"), "Bob") {
		t.Errorf("approved sed -i of .git/config failed; questions %q:\n%s", r29Asked(w), res.Text)
	}
	w = r27TmpWorld(t)
	r30HeldStore(t, w, "id_ed25519")
	must31(t, os.WriteFile(filepath.Join(w.secret, "config"), []byte("Host a\n"), 0o600))
	res = w.run("sed -i s/a/b/ " + filepath.Join(w.secret, "config"))
	if b, _ := os.ReadFile(filepath.Join(w.secret, "config")); string(b) != "Host b\n" {
		t.Errorf("approved sed -i of ~/.ssh/config failed (%q); questions %q:\n%s", b, r29Asked(w), res.Text)
	}
}

// Attack (pl.Frozen kept, the control of the open row
// TestRedteam32_NamingAPathInTheSettingsDirectoryUnfreezesIt; HELD,
// high): approved `sh ./b.sh ~/.ssh/known_hosts x` (secret), b.sh
// writes eukhe's missing user settings file (confinement off). HELD: the
// settings directory stays frozen (read-only to every process) when no
// path in it was named. Safe outcome: the file is not made.
func TestRedteam32_SettingsDirectoryStaysFrozenUnderASecretApproval(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			w, user := r32SettingsWorld(t)
			res := w.run("sh ./b.sh " + filepath.Join(w.secret, "known_hosts") + " x")
			if exists(filepath.Join(user, "settings.json")) {
				t.Errorf("the settings file was made; questions %q:\n%s", r29Asked(w), res.Text)
			}
		})
	}
}

// Held (was open): only the named paths that lie in a secret or protected place narrow the approval (placesOf, sandbox.go); a plain directory named beside them lends nothing below it.
// Attack (namesAPlaceOf / confine.Narrow, a named directory that holds
// the stores; GOT THROUGH, high): under the default auto set the agent
// runs `sh ./b.sh ~/.ssh/known_hosts ~` (or `/`, or a parent of the home
// spelled OUT/..): one word names a secret, another a directory. The
// question (exec, secret) lists both; the user approves reading
// known_hosts. namesAPlaceOf sees a secret place among the named paths
// and narrows, but Narrow drops every secret entry at or below ANY named
// path: the home (or /) holds ~/.ssh, ~/.aws, eukhe's state directory and
// its discovery key, so nothing stays hidden and b.sh prints
// ~/.ssh/id_ed25519. Both mechanisms. Root cause: Narrow treats every
// named path as lending what it holds, where only a named path that lies
// in a secret place (or is one) was about secret. Safe outcome: the key
// is not printed unless a question named it. Suggested fix: pass Narrow
// only the named paths whose own class is secret (protected: protected),
// so a plain directory named beside them lends nothing below it.
func TestRedteam32_NamedHomeLendsEveryStore(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for _, extra := range []string{"HOME", "/", "OUT/.."} {
			t.Run(string(m)+extra, func(t *testing.T) {
				useMechanism(t, m)
				w := r27TmpWorld(t)
				r30HeldStore(t, w, "id_ed25519")
				w.write("b.sh", "cat \"$1\" >/dev/null; ls \"$2\" >/dev/null; cat \"$HOME/.ssh/id_ed25519\"\n")
				arg := strings.NewReplacer("HOME", filepath.Dir(w.secret), "OUT", w.outside).Replace(extra)
				res := w.run("sh ./b.sh " + filepath.Join(w.secret, "known_hosts") + " " + arg)
				if r31Named(w, filepath.Join(w.secret, "id_ed25519")) {
					t.Skip("a question named the key")
				}
				if strings.Contains(res.Text, "PRIVATEKEY") {
					t.Errorf("the key was printed under an approval that named known_hosts and %s; questions %q:\n%s", arg, r29Asked(w), res.Text)
				}
			})
		}
	}
}

// Held (was open): only the named paths that lie in a secret or protected place narrow the approval (placesOf, sandbox.go); a plain directory named beside them lends nothing below it.
// Attack (sandbox.go pl.Frozen, a named path in a frozen settings
// directory; GOT THROUGH, high): under the default auto set the agent
// runs `sh ./b.sh ~/.ssh/known_hosts ~/.config/eukhe/notes.md`; the user
// approves (exec, secret). As the secret is narrowed, every frozen
// settings directory that holds a named path is unfrozen ("a settings
// file a question named may be written where it is"), but the named path
// need not be a settings file: b.sh writes eukhe's missing user settings
// file ({"shell":{"confinement":"off"}}), which turns the sandbox off
// for every later step. The control (a word x instead) holds:
// TestRedteam32_SettingsDirectoryStaysFrozenUnderASecretApproval. Root
// cause: the Frozen exception tests that a named path lies below the
// directory, not that it is a settings file, nor that it is the file made
// (a missing settings file is no secret entry to hide: Frozen alone
// kept it from being made). Safe outcome: the settings file is not made.
// Suggested fix: unfreeze a directory only when a named path is one of
// its settings files (GateFiles), and then bind that file alone
// writable, keeping the directory frozen.
func TestRedteam32_NamingAPathInTheSettingsDirectoryUnfreezesIt(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			w, user := r32SettingsWorld(t)
			res := w.run("sh ./b.sh " + filepath.Join(w.secret, "known_hosts") + " " + filepath.Join(user, "notes.md"))
			if r31Named(w, filepath.Join(user, "settings.json")) {
				t.Skip("a question named the settings file")
			}
			if exists(filepath.Join(user, "settings.json")) {
				t.Errorf("the settings file was made; questions %q:\n%s", r29Asked(w), res.Text)
			}
		})
	}
}

// Attack (confine.Narrow, new names in a narrowed store, bubblewrap; GOT
// THROUGH, high): as TestRedteam32_NarrowedStoreTakesNoNewFilesUnderLandlock:
// the user approves `sh ./b.sh ~/.ssh/known_hosts`; b.sh makes
// ~/.ssh/authorized_keys (the agent's key: a login), ~/.ssh/config (a
// ProxyCommand run at the next ssh) or ~/.ssh/rc. Root cause: Narrow
// replaces the store's one entry by mounts of its existing entries; a
// name that does not exist yet has no mount, and the store directory
// itself is writable (write, outside allowed). Safe outcome: none is
// made unless a question named it. Suggested fix: keep the narrowed
// directory itself read-only (a read-only bind of it, then the named
// paths bound writable on top), or bind only the named paths into an
// empty tmpfs at the store.
func TestRedteam32_NarrowedStoreTakesNoNewFilesUnderBubblewrap(t *testing.T) {
	useMechanism(t, Bubblewrap)
	for _, name := range []string{"authorized_keys", "config", "rc"} {
		if made, res, w := r32NewInStore(t, name); made {
			t.Errorf("~/.ssh/%s was made; questions %q:\n%s", name, r29Asked(w), res.Text)
		}
	}
}

// Attack (confine.Narrow, a protected directory's missing entry,
// bubblewrap; HELD since by the shadows (.git is shown from a copy: its entries read-only, config copied and written back); GOT THROUGH before, high under a careful auto set): as
// TestRedteam32_MissingHooksDirectoryNotPlantedUnderLandlock: no
// .git/hooks; the user approves `sed -i -f edit.sed .git/config`, and
// edit.sed's e command makes .git/hooks/pre-commit (run at the next
// commit) or .git/info/attributes. Root cause: as above, for protected:
// .git gives way to mounts of its existing entries, and .git itself is
// writable, so a missing protected entry (hooks, info) is made freely;
// the made scan keeps the named path only. Safe outcome: neither is made
// unless a question named it. Suggested fix: as above (the narrowed
// directory read-only, the named paths bound writable), or keep the made
// scan for every protected entry made below a narrowed one but the
// named.
func TestRedteam32_MissingHooksDirectoryNotPlantedUnderBubblewrap(t *testing.T) {
	useMechanism(t, Bubblewrap)
	for _, plant := range []string{
		"mkdir -p .git/hooks && printf '#!/bin/sh\\necho HOOK\\n' > .git/hooks/pre-commit",
		"mkdir -p .git/info && echo '* filter=x' > .git/info/attributes",
	} {
		w := r32Careful(t)
		if p, res := r32PlantByEdit(w, plant, ".git/hooks/pre-commit", ".git/info/attributes"); p != "" {
			t.Errorf("%s was made under an approval of .git/config; questions %q:\n%s", p, r29Asked(w), res.Text)
		}
	}
}

// Attack (learnProtected, a hook link made in the same script; GOT
// THROUGH, medium under a careful auto set): `ln -s ../../scripts/pc.sh
// .git/hooks/pre-commit && echo 'echo EVIL' >> scripts/pc.sh`. The user
// approves the first step (protected: a tracked hook linked in); the
// second is judged before the link exists (write: unasked) and again at
// its open, where the policy has not learned the link's target yet (no
// path was resolved through the link; GitWatch gives it at the next
// tool call). The hook git runs gets the agent's line unasked. Both
// mechanisms (the sandbox: scripts/ is no protected entry either). Root
// cause: learnLinksIn runs when the policy is made and at refresh; a link
// a step makes is learned only when something resolves through it. Safe
// outcome: the append asks (or fails). Suggested fix: after a step whose
// judgment wrote into a protected place (a hooks directory), run
// learnLinksIn on that place before the next step's open is judged.
func TestRedteam32_HookLinkMadeInTheScriptThenItsTargetWritten(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
			w.write(".git/config", "[core]\n")
			must31(t, os.MkdirAll(w.path(".git/hooks"), 0o755))
			w.write("scripts/pc.sh", "#!/bin/sh\necho ok\n")
			w.asker.answers = []gate.Answer{gate.Approve, gate.Deny, gate.Deny}
			res := w.run("ln -s ../../scripts/pc.sh .git/hooks/pre-commit && echo 'echo EVIL' >> scripts/pc.sh")
			if strings.Contains(w.read("scripts/pc.sh"), "EVIL") && len(w.asker.asked()) < 2 {
				t.Errorf("the linked hook's target was written unasked; questions %q:\n%s", r29Asked(w), res.Text)
			}
		})
	}
}

// Attack (false positive: listNoLinks, a link among the store's entries;
// HELD since: a directory holding a link gives way too (listWithLinks; under bubblewrap the link is copied into the shadow, under Landlock no link is granted); GOT THROUGH before, medium): ~/.ssh/config is a symbolic link into a dotfiles
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
