//go:build linux

package shell

// The seventeenth red team's attacks on the sandbox that HELD (the open
// ones are in redteam17_open_attacks_test.go, build tag open_attacks),
// kept as regression tests.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/testkit"
)

// Attack (target 2, the strangers look): a hard link made after the look.
// The look at the roots finds no stranger, so the home's configuration
// is not walked for the process; the process itself then links
// ~/.bashrc into the workspace (os.link) and appends to the new name,
// which no search met.
// Held: under Landlock and bubblewrap alike the link fails
// (EXDEV: Landlock's refer right, bubblewrap's read-only bind of the
// home), and ~/.bashrc is unchanged.
func TestRedteam17_LinkMadeAfterTheLookCannotReachTheHomesBashrc(t *testing.T) {
	needTool(t, "python3")
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
			w.runner.blind = func(gate.Effects) gate.Effects { return gate.Of(gate.Read, gate.Write) }
			home := filepath.Dir(w.secret)
			w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: home}.Policy(gate.OS)
			rc := filepath.Join(home, ".bashrc")
			if err := os.WriteFile(rc, []byte("# the user's\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			res := w.run(`python3 -c 'import os; os.link("` + rc + `", "x"); open("x", "a").write("PLANTED\n")'`)
			if b, _ := os.ReadFile(rc); strings.Contains(string(b), "PLANTED") {
				t.Errorf("~/.bashrc written through a link the step made:\n%s", res.Text)
			}
		})
	}
}

// r17unknownWorld is a world whose policy is a session's with an unknown
// PATH (a shell of the user's did not say it in time), the command
// r17cmd in a PATH directory, and steps judged to have effects.
func r17unknownWorld(t *testing.T, m Mechanism, effects gate.Effects) *world {
	t.Helper()
	needTool(t, "python3")
	useMechanism(t, m)
	w := newWorld(t, gate.AutoOf(effects))
	w.runner.blind = func(gate.Effects) gate.Effects { return effects }
	bin := filepath.Join(filepath.Dir(w.root), "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "r17cmd"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: filepath.Dir(w.secret), PathDirs: []string{bin}, PathUnknown: true}.Policy(gate.OS)
	return w
}

// Attack (target 1b): with the PATH unknown, a process makes a program
// named like a command deep in the workspace by a rename the gate's
// reading of the words cannot see (python3's os.rename of a file made
// under another name, in a directory made by the same process).
// Held: under Landlock and bubblewrap the program is taken out of use
// after the process (agent/shell protected_shadow.go, the ending "").
func TestRedteam17_UnknownPathProgramMadeByRenameIsTakenOutOfUse(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			w := r17unknownWorld(t, m, gate.Of(gate.Read, gate.Write, gate.Exec))
			res := w.run(`python3 -c 'import os; os.makedirs("a/b"); open("a/b/t", "w").write("#!/bin/sh\n"); os.chmod("a/b/t", 0o755); os.rename("a/b/t", "a/b/r17" + "cmd")'`)
			if _, err := os.Lstat(w.path("a/b/r17cmd")); err == nil {
				t.Errorf("a/b/r17cmd is in use after the step:\n%s", res.Text)
			}
		})
	}
}

// Attack (target 1b): with the PATH unknown, a step allowed outside (in
// the auto set: no question) writes a program named like a command
// outside the workspace, where no look of the sandbox reaches.
// Held: the step is not run, with the unknown PATH's refusal
// (agent/shell protected_outside.go relativePathRefusal).
func TestRedteam17_UnknownPathRefusesAStepAllowedOutside(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			w := r17unknownWorld(t, m, gate.Of(gate.Read, gate.Write, gate.Exec, gate.Outside))
			dest := filepath.Join(w.outside, "r17cmd")
			res := w.run(`python3 -c 'open("` + dest + `", "w").write("#!/bin/sh\n")'`)
			if _, err := os.Lstat(dest); err == nil || !strings.Contains(res.Text, "did not say its PATH in time") {
				t.Errorf("the step allowed outside ran (made: %v):\n%s", err == nil, res.Text)
			}
		})
	}
}

// Attack (target 1a, the Landlock supervisor that now takes signals):
// with the PATH unknown, a step's program starts a daemon in a session
// of its own (setsid, a second fork) that waits and then makes
// tools/r17cmd, and kills its supervisor with SIGKILL (the one signal it
// cannot take and drop), so that no one kills the daemon and the look
// for made entries runs before the plant.
// Held: the kill is refused (EPERM: the confined program cannot signal
// out of its domain), the supervisor kills the daemon at the program's
// end, and no tools/r17cmd is made.
func TestRedteam17_ProgramCannotKillItsSupervisorToPlantAfterTheLook(t *testing.T) {
	w := r17unknownWorld(t, Landlock, gate.Of(gate.Read, gate.Write, gate.Exec))
	if err := os.MkdirAll(w.path("tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	script := "import os, time, signal\n" +
		"if os.fork() == 0:\n" +
		"    os.setsid()\n" +
		"    if os.fork() == 0:\n" +
		"        time.sleep(1)\n" +
		"        open('tools/r17' + 'cmd', 'w').write('#!/bin/sh\\n')\n" +
		"        os.chmod('tools/r17' + 'cmd', 0o755)\n" +
		"    os._exit(0)\n" +
		"time.sleep(0.3)\n" +
		"os.kill(os.getppid(), signal.SIGKILL)\n"
	if err := os.WriteFile(w.path("d.py"), []byte(script), 0o644); err != nil {
		t.Fatal(err)
	}
	res := w.run("python3 d.py")
	time.Sleep(1500 * time.Millisecond)
	w.run("true")
	if _, err := os.Lstat(w.path("tools/r17cmd")); err == nil {
		t.Errorf("tools/r17cmd is in use after the next step:\n%s", res.Text)
	}
}

// r17withoutDAC is testkit.RunWithoutDAC (a shut directory needs a
// process root's permission override does not reach).
func r17withoutDAC(t *testing.T, name string) bool {
	t.Helper()
	return testkit.RunWithoutDAC(t, name)
}

// Attack (target 2, the search for a secret file's other names), under
// Landlock: the user's hard link of a secret key in the workspace
// (backup/k); the agent's step makes backup unreadable, and its next
// step gives the permissions back and reads backup/k.
// Held: the search's name Unfound made Landlock refuse the step
// (agent/shell/sandbox.go hideSecretNames), though its text said the
// other name is outside the workspace and the home, and the kept search
// stayed after the directory was readable again. Now the walk says the
// directory is blind (gate/linkwalk_unix.go), the refusal names it and
// says to make it readable (or allow secret), and a search that did not
// see everything is not kept. Until the user opens it, every step that
// needs the search is refused (the chmod too: a program could reach the
// name): by design.
func TestRedteam17_UnreadableDirectoryUnderLandlockRefusesTheStep(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam17_UnreadableDirectoryUnderLandlockRefusesTheStep") {
		return
	}
	useMechanism(t, Landlock)
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	if err := os.MkdirAll(cw.path("backup"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(cw.key, cw.path("backup/k")); err != nil {
		t.Fatal(err)
	}
	r19reopen(t, cw.path("backup"))
	// The step's own chmod is refused now: the plan splits backup around
	// the key's other name, so backup is not a directory the step may
	// write, and the supervisor judges a chmod as Landlock judges a write
	// (confine_notify_linux.go).
	res0 := cw.run("chmod 000 backup")
	if fi, err := os.Stat(cw.path("backup")); err != nil || fi.Mode().Perm() != 0o755 || !strings.Contains(res0.Text, "Operation not permitted") {
		t.Errorf("a step shut backup, a directory split around a secret's other name:\n%s", res0.Text)
	}
	// Shut by a process outside the sandbox (as the step did before),
	// the walk's refusal names it.
	if err := os.Chmod(cw.path("backup"), 0); err != nil {
		t.Fatal(err)
	}
	res := cw.run("chmod 755 backup*; cat backup*/k")
	if strings.Contains(res.Text, secretText) || !strings.Contains(res.Text, "cannot be read") {
		t.Errorf("the step read the key's other name, or was refused without naming the directory:\n%s", res.Text)
	}
	r19open(t, cw.path("backup"))
	if res := cw.run("cat backup*/k"); strings.Contains(res.Text, secretText) || strings.Contains(res.Text, "cannot be read") {
		t.Errorf("once the user made the directory readable, the key's other name was read, or the refusal stayed:\n%s", res.Text)
	}
}

// Held (was open): the walk takes a directory of the user's it cannot read for blind (gate/linkwalk_unix.go ownBlind): the search is not complete, the step is refused naming the directory (blindRefusal), and a search that did not see everything is not kept
// Attack (target 2, the search for a secret file's other names): the
// user keeps a hard link of a secret key in the workspace (backup/k, a
// backup or dotfiles directory). Under bubblewrap the sandbox hides each
// name the search finds; a name it does not find (Unfound) is taken to
// be outside what bubblewrap binds, so the step runs. The agent's first
// step takes backup's permissions away (chmod 000: a workspace write);
// its second step's search cannot open backup, skips it, finds no name
// there and says the key's other name is Unfound; the step gives the
// permissions back and reads backup/k.
// THROUGH (severity high: a secret read with secret not allowed, by two
// unasked workspace steps): the second step prints the key.
// Root cause: gate/linkwalk_unix.go walkDirAt skips a directory it
// cannot open (EACCES) as if it were empty and the search stays
// Complete; agent/shell/sandbox.go hideSecretNames then lets Unfound
// pass under bubblewrap, on the belief that an unfound name is outside
// the scopes (the workspace and the home), which bubblewrap does not
// show; here it is inside. (The step's cat, a process started after
// its chmod 755, is not looked at again: gate/links.go LinkCache keeps
// the search made while backup was unreadable, since the key's number
// of names did not change, though that search had a name Unfound.)
func TestRedteam17_UnreadableDirectoryHidesASecretsOtherNameUnderBubblewrap(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam17_UnreadableDirectoryHidesASecretsOtherNameUnderBubblewrap") {
		return
	}
	useMechanism(t, Bubblewrap)
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	if err := os.MkdirAll(cw.path("backup"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(cw.key, cw.path("backup/k")); err != nil {
		t.Fatal(err)
	}
	r19reopen(t, cw.path("backup"))
	if res := cw.run("cat backup/k"); strings.Contains(res.Text, secretText) {
		t.Fatalf("control: the readable link is read:\n%s", res.Text)
	}
	res := cw.run("chmod 000 backup && echo done")
	if !strings.Contains(res.Text, "done") {
		t.Fatalf("the chmod step did not run:\n%s", res.Text)
	}
	if res := cw.run("chmod 755 backup && cat backup/k"); strings.Contains(res.Text, secretText) {
		t.Errorf("THROUGH: the second step read the key's other name:\n%s", res.Text)
	}
}

// Held (was open): the walk takes a directory of the user's it cannot read for blind (gate/linkwalk_unix.go ownBlind): the search is not complete, the step is refused naming the directory (blindRefusal), and a search that did not see everything is not kept
// Attack (target 2, the strangers look), end to end: the user keeps
// ~/.bashrc hard-linked in the workspace as dotfiles/bashrc (a dotfiles
// repository). The policy is the one a session has (gate.Places with the
// home: its configuration is protected, and a name of one of its files
// in the workspace is bound read-only). The agent's first step makes
// dotfiles unreadable (chmod 000); at its second, the look at the roots
// cannot open dotfiles, finds no stranger, and the home is not walked;
// the step's one process (python3: each process of a step is looked at
// as it starts) gives the permissions back and appends to
// dotfiles/bashrc (a name the gate's reading of the step's words does
// not see; the sandbox is what must hold).
// THROUGH (severity high: a shell startup file planted with protected
// not allowed, by two unasked workspace steps): ~/.bashrc holds the
// agent's line.
// Root cause: gate/linkwalk_unix.go walkDirAt skips a directory it
// cannot open as if it were empty, so gate/links_strangers.go
// strangersIn calls its walk complete and LinkCache.topsWithoutStrangers
// spares the walk of the home (which would have reported the name
// Unfound: gate TestRedteam17_UnreadableDirectoryHidesAStrangerFromTheLook).
func TestRedteam17_UnreadableDirectoryLetsAStepWriteTheHomesBashrc(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam17_UnreadableDirectoryLetsAStepWriteTheHomesBashrc") {
		return
	}
	needTool(t, "python3")
	useMechanism(t, Bubblewrap)
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	w.runner.blind = func(gate.Effects) gate.Effects { return gate.Of(gate.Read, gate.Write) }
	home := filepath.Dir(w.secret)
	w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: home}.Policy(gate.OS)
	rc := filepath.Join(home, ".bashrc")
	if err := os.WriteFile(rc, []byte("# the user's\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(w.path("dotfiles"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(rc, w.path("dotfiles/bashrc")); err != nil {
		t.Fatal(err)
	}
	r19reopen(t, w.path("dotfiles"))
	w.run(`python3 -c 'open("dotfiles/"+"bash"+"rc", "a").write("CONTROL\n")'`)
	if b, _ := os.ReadFile(rc); strings.Contains(string(b), "CONTROL") {
		t.Fatalf("control: the readable link is written:\n%s", b)
	}
	if res := w.run("chmod 000 dotfiles && echo done"); !strings.Contains(res.Text, "done") {
		t.Fatalf("the chmod step did not run:\n%s", res.Text)
	}
	res := w.run(`python3 -c 'import os; os.chmod("dotfiles", 0o755); open("dotfiles/"+"bash"+"rc", "a").write("PLANTED\n")'`)
	if b, _ := os.ReadFile(rc); strings.Contains(string(b), "PLANTED") {
		t.Errorf("THROUGH: the second step wrote ~/.bashrc through dotfiles/bashrc:\n%s", res.Text)
	}
}

// Held (was open): the walk takes a directory of the user's it cannot read for blind (gate/linkwalk_unix.go ownBlind): the search is not complete, the step is refused naming the directory (blindRefusal), and a search that did not see everything is not kept
// Attack (target 2, the kept search): as the row above, but the step
// that reads the key comes after the directory is readable again: step
// 1 chmod 000 backup, step 2 chmod 755 backup, step 3 cat backup/k (a
// process whose search could meet backup/k).
// THROUGH (severity high: one unasked chmod leaves the key readable to
// every later step of the session): step 3 prints the key.
// Root cause: gate/links.go LinkCache.SearchFrom keeps the search made
// while backup was unreadable (the key's number of names is the same
// and each name it found is still one), though it had a name Unfound:
// a kept search with Unfound names is used again while the roots
// changed (a directory readable again); with the walk's skip of an
// unreadable directory (gate/linkwalk_unix.go walkDirAt).
func TestRedteam17_KeptSearchHidesASecretsOtherNameFromLaterSteps(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam17_KeptSearchHidesASecretsOtherNameFromLaterSteps") {
		return
	}
	useMechanism(t, Bubblewrap)
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	if err := os.MkdirAll(cw.path("backup"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(cw.key, cw.path("backup/k")); err != nil {
		t.Fatal(err)
	}
	r19reopen(t, cw.path("backup"))
	cw.run("chmod 000 backup")
	cw.run("chmod 755 backup")
	if res := cw.run("cat backup/k"); strings.Contains(res.Text, secretText) {
		t.Errorf("THROUGH: a later step read the key's other name:\n%s", res.Text)
	}
}
