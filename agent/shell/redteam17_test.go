//go:build linux

package shell

// The seventeenth red team's attacks on the sandbox that HELD (the open
// ones are in redteam17_open_attacks_test.go, build tag open_attacks),
// kept as regression tests.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
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

// r17withoutDAC runs the test named name again in a process without the
// capabilities that pass over permission bits (as any user who is not
// root runs eukhe: a directory of mode 000 cannot be opened), and fails
// t when it fails there. It reports true in that process (the caller
// then does the work).
func r17withoutDAC(t *testing.T, name string) bool {
	t.Helper()
	if os.Getenv("EUKHE_R17_NO_DAC") != "" || os.Geteuid() != 0 {
		return true
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("setpriv is needed to drop root's permission override")
	}
	cmd := exec.Command(setpriv, "--inh-caps=-all", "--bounding-set=-dac_override,-dac_read_search", "--",
		os.Args[0], "-test.run=^"+name+"$", "-test.v", "-test.count=1")
	cmd.Env = append(os.Environ(), "EUKHE_R17_NO_DAC=1")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS") {
		t.Errorf("without the permission override (%v):\n%s", err, out)
	}
	return false
}

// Attack (target 2, the search for a secret file's other names), under
// Landlock: the user's hard link of a secret key in the workspace
// (backup/k); the agent's step makes backup unreadable, and its next
// step gives the permissions back and reads backup/k.
// Held: the search's name Unfound makes Landlock refuse the step
// (agent/shell/sandbox.go hideSecretNames), though its text says the
// other name is outside the workspace and the home. (Every later step
// is refused so, the chmod that would repair it too, and the kept search
// stays: the agent can stop the session's steps with one chmod.)
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
	t.Cleanup(func() { os.Chmod(cw.path("backup"), 0o755) })
	cw.run("chmod 000 backup")
	res := cw.run("chmod 755 backup; cat backup/k")
	if strings.Contains(res.Text, secretText) || !strings.Contains(res.Text, "has another name") {
		t.Errorf("the step read the key's other name:\n%s", res.Text)
	}
}
