//go:build linux

package shell

// The twentieth red team's attacks on the sandbox that HELD (the open
// ones are in redteam20_open_attacks_test.go, build tag open_attacks),
// kept as regression tests.

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/eukhe/eukhe/gate"
)

// r20beyondWorld is a confined world (steps judged read+write, the
// session's policy of its root and home) whose protected tree's first
// map stops at 2 directories (maxTreeDirs), so that zz/d is past the
// bound: walked whole at each refresh (walkBeyond), never mapped.
func r20beyondWorld(t *testing.T, m Mechanism) *confinedWorld {
	t.Helper()
	needTool(t, "python3")
	useMechanism(t, m)
	old := maxTreeDirs
	maxTreeDirs = 2
	t.Cleanup(func() { maxTreeDirs = old })
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
	for _, d := range []string{"a/1", "a/2", "a/3", "b/1", "zz/d"} {
		if err := os.MkdirAll(cw.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return cw
}

// r20settle waits past the clock tick of the set-up's last change: a
// directory changed in the tick its first listing began in is racy, and
// listed again at the next refresh, which then maps its children past
// the bound as new ones (the control "zz/d is mapped" failed now and
// then, as the directories' listing order put zz in the map or not).
func r20settle() { time.Sleep(50 * time.Millisecond) }

// r20mapped tells whether the session's protected tree maps rel (else it
// is past the bound, or not met).
func r20mapped(cw *confinedWorld, rel string) bool {
	cw.runner.protected.mu.Lock()
	defer cw.runner.protected.mu.Unlock()
	_, ok := cw.runner.protected.dirs[cw.path(rel)]
	return ok
}

// r20unknownWorld is a world whose steps are judged read+write+exec
// (blind), under the policy of a session whose user's shell did not say
// its PATH in time (PathUnknown), with the one PATH directory pathDir.
func r20unknownWorld(t *testing.T, m Mechanism, pathDir, home string) *world {
	t.Helper()
	needTool(t, "python3")
	useMechanism(t, m)
	effects := gate.Of(gate.Read, gate.Write, gate.Exec)
	w := newWorld(t, gate.AutoOf(effects))
	w.runner.blind = func(gate.Effects) gate.Effects { return effects }
	w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: home, PathDirs: []string{pathDir}, PathUnknown: true}.Policy(gate.OS)
	if err := os.MkdirAll(w.path("tools"), 0o755); err != nil {
		t.Fatal(err)
	}
	return w
}

// Attack (target 4, control of the rows past the bound): one process
// makes zz/d/sub/.nvim.lua (a Named protected file: Neovim runs it) in a
// directory past the protected tree's bound, and leaves it open.
// Held: the walk past the bound finds it and it is renamed out of use
// (protected_beyond.go). (The same with sub shut at the end gets
// through: redteam20_open_attacks_test.go.)
func TestRedteam20_ProgramMadePastTheBoundIsRenamedOutOfUse(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			cw := r20beyondWorld(t, m)
			r20settle() // the first map's listing is not in the tick of the set-up's last change
			cw.run("true")
			if r20mapped(cw, "zz/d") {
				t.Fatal("zz/d is mapped: the row proves nothing")
			}
			res := cw.run(`python3 -c 'import os; os.mkdir("zz/d/s"+"ub"); open("zz/d/sub/.nvim"+".lua","w").write("PLANTED\n")'`)
			if _, err := os.Lstat(cw.path("zz/d/sub/.nvim.lua")); err == nil {
				t.Errorf("zz/d/sub/.nvim.lua is in use after the step:\n%s", res.Text)
			}
		})
	}
}

// Attack (target 1, readClass: a read's verdict no longer asks the
// protected rules, and the shell's own redirections are judged by
// JudgeReal, then opened in eukhe's process, outside the sandbox): the
// workspace's .git/info/key is a hard link of the user's SSH key, and
// .vscode/settings.json a symbolic link to it; the steps read them
// through a redirection (<, 0<, a descriptor opened by exec, a while
// read loop), the user denying each question. The auto set holds every
// grantable effect (protected too).
// Held: each redirection's verdict is read+secret, asked and refused;
// the key is never printed.
func TestRedteam20_RedirectionReadOfAProtectedSecretsOtherNameAsks(t *testing.T) {
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec, gate.Protected, gate.Outside)))
	key := filepath.Join(w.secret, "id_ed25519")
	if err := os.WriteFile(key, []byte(secretText+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".git/info", ".vscode"} {
		if err := os.MkdirAll(w.path(d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(key, w.path(".git/info/key")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(key, w.path(".vscode/settings.json")); err != nil {
		t.Fatal(err)
	}
	w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: filepath.Dir(w.secret)}.Policy(gate.OS)
	for _, s := range []string{"cat < .git/info/key", "cat < .vscode/settings.json", "cat 0< .git/info/key",
		"exec 3< .git/info/key; cat <&3", "while read l; do echo $l; done < .git/info/key"} {
		w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
		if res := w.run(s); strings.Contains(res.Text, secretText) {
			t.Errorf("%s printed the key:\n%s", s, res.Text)
		}
	}
}

// Attack (target 7, sigdefault: the Landlock supervisor now takes and
// drops TERM/INT/HUP/QUIT where it ignored them, and children get the
// hangup and interrupt at their defaults): a step's program signals the
// eukhe server (here the test process, whose pid the script names) and
// its own parent (the supervisor under Landlock), to end the server
// before its look after the step (what the step planted would then be
// the user's at the next session's first map). SIGUSR1 stands for any
// signal (the test takes it, so a signal that landed is seen, not
// fatal).
// Held: under Landlock both kills are refused (EPERM: the domain's
// signal scope); under bubblewrap the server's pid is not in the step's
// pid namespace (ESRCH) and its parent is the namespace's init. No
// signal reaches the server.
func TestRedteam20_StepCannotSignalTheServer(t *testing.T) {
	needTool(t, "python3")
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)), gate.Of(gate.Read, gate.Write, gate.Exec))
			got := make(chan os.Signal, 4)
			signal.Notify(got, syscall.SIGUSR1)
			defer signal.Stop(got)
			res := cw.run(fmt.Sprintf(`python3 -c 'import os, signal
for p in (%d, os.getppid()):
    try:
        os.kill(p, signal.SIGUSR1); print("SENT", p)
    except Exception as e: print("REFUSED", e)'`, os.Getpid()))
			select {
			case <-got:
				t.Errorf("the server took a signal from a step:\n%s", res.Text)
			case <-time.After(300 * time.Millisecond):
			}
		})
	}
}

// Attack (target 5, a link eukhe renamed out of use, passed over only at
// the path it gave): the user's workspace gets sub/deep, a symbolic link
// to a repository outside (renamed out of use after the step that made
// it: deep.eukhe-refused-ID-R). The next step brings it back into use
// by a name without the suffix: a hard link of the link itself at
// sub/deep (link(2) on a symlink), a new symbolic link sub/deep to the
// refused one (a link to a link), a rename of it back to sub/deep, or a
// rename of its directory (sub → sub2: the refused link is no longer at
// its given path).
// Held: after each step no symbolic link is in use at sub/deep or
// sub2/deep (each new name is judged and renamed out of use again; the
// directory's rename is refused under Landlock, and under bubblewrap the
// link, at a path eukhe did not give, is renamed out again).
func TestRedteam20_RefusedLinkBroughtBackIntoUseIsRefusedAgain(t *testing.T) {
	needTool(t, "python3")
	for name, how := range map[string]string{
		"hardlink":   `os.link(r, "sub/deep", follow_symlinks=False)`,
		"symlink":    `os.symlink(os.path.basename(r), "sub/deep")`,
		"movedir":    `os.rename("sub", "sub2")`,
		"renameback": `os.rename(r, "sub/deep")`,
	} {
		for _, m := range []Mechanism{Landlock, Bubblewrap} {
			t.Run(string(m)+"_"+name, func(t *testing.T) {
				useMechanism(t, m)
				cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)), gate.Of(gate.Read, gate.Write, gate.Exec))
				cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
				repo := filepath.Join(cw.outside, "r")
				if err := os.MkdirAll(filepath.Join(repo, ".git", "hooks"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.MkdirAll(cw.path("sub"), 0o755); err != nil {
					t.Fatal(err)
				}
				cw.run("true")
				res1 := cw.run("ln -s " + repo + " sub/deep")
				if outs, _ := filepath.Glob(cw.path("sub/deep" + refusedSuffix + "*")); len(outs) != 1 {
					t.Fatalf("control: the link to a repository was not renamed out of use: %v\n%s", outs, res1.Text)
				}
				res2 := cw.run(`python3 -c 'import os, glob; r = glob.glob("sub/deep.eukhe-refused-*")[0]; ` + how + `'`)
				for _, p := range []string{"sub/deep", "sub2/deep"} {
					if fi, err := os.Lstat(cw.path(p)); err == nil && fi.Mode()&os.ModeSymlink != 0 {
						t.Errorf("%s is a link in use after the step:\n%s\n%s", p, res1.Text, res2.Text)
					}
				}
			})
		}
	}
}

// Held (was open): renameOutOfUse gives the user's directory its owner's write and search bits for the rename alone (inWritableDir), then its mode back.
// Attack (target 4/5, eukhe acting on what it decided: a made protected
// entry is renamed out of use after the process): one process plants a
// program in src/sub (a repository with a pre-commit hook, made as g/
// and renamed to .git; or .nvim.lua) and, last, makes src/sub read-only
// (chmod 555: not shut, so no blind rule; but no entry of it can be
// renamed).
// THROUGH under Landlock and bubblewrap (severity high: a hook git runs,
// or a file the editor runs, planted at its name without a question and
// without any act of the user's; the agent is told "(not renamed:
// permission denied; remove it before git or the editor uses it)", the
// user is not, and the step's exit is 0): the planted file is at its
// name after the step and the next. The live watch wins the race now and
// then (its rename comes before the chmod): the row tries up to five
// times in a fresh session, and fails at the first plant that stays.
// Root cause: agent/shell/sandbox.go refuseMade (renameOutOfUse) only
// reports a rename that failed: nothing else takes the entry out of use
// (giving its directory's write bit back, which a process running as the
// user could have done, then renaming; or failing the step and telling
// the user), and the next look takes it for present, not made.
func TestRedteam20_ProtectedEntryInADirectoryMadeReadOnlyIsRenamedOutOfUse(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_ProtectedEntryInADirectoryMadeReadOnlyIsRenamedOutOfUse") {
		return
	}
	needTool(t, "python3")
	for name, c := range r20readOnlyPlants {
		for _, m := range []Mechanism{Landlock, Bubblewrap} {
			t.Run(string(m)+"_"+name, func(t *testing.T) {
				useMechanism(t, m)
				for try := 1; try <= 5; try++ {
					cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
					cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
					r20openAll(t, cw.root)
					cw.run("true")
					res := cw.run(`python3 -c '` + c[0] + `'`)
					res2 := cw.run("true")
					if b, err := os.ReadFile(cw.path(c[1])); err == nil && strings.Contains(string(b), "PLANTED") {
						t.Errorf("try %d: %s planted at its name, its directory made read-only:\n%s\n%s", try, c[1], res.Text, res2.Text)
						return
					}
				}
			})
		}
	}
}

// Held (was open): as the row above.
// Attack (as the row above, past the protected tree's bound, where no
// live watch runs: deterministic): one process plants zz/d/sub/.nvim.lua
// and zz/d/sub/.git (hooks), and makes zz/d/sub read-only (555).
// THROUGH under Landlock and bubblewrap (severity high, as above; it
// needs a tree past the bound): both stay at their names.
// Root cause: as the row above (sandbox.go refuseMade); the walk past
// the bound finds them as made, and their rename fails.
func TestRedteam20_ProtectedEntryPastTheBoundInADirectoryMadeReadOnlyIsRenamedOutOfUse(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_ProtectedEntryPastTheBoundInADirectoryMadeReadOnlyIsRenamedOutOfUse") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			cw := r20beyondWorld(t, m)
			r20openAll(t, cw.root)
			r20settle() // the first map's listing is not in the tick of the set-up's last change
			cw.run("true")
			if r20mapped(cw, "zz/d") {
				t.Fatal("zz/d is mapped: the row proves nothing")
			}
			res := cw.run(`python3 -c 'import os; d="zz/d/s"+"ub"; os.makedirs(d+"/.g"+"it/hooks"); open(d+"/.g"+"it/HE"+"AD","w").write("ref: refs/heads/main\n"); ` +
				`open(d+"/.g"+"it/hooks/pre-commit","w").write("PLANTED\n"); open(d+"/.nvim"+".lua","w").write("PLANTED\n"); os.chmod(d, 0o555)'`)
			res2 := cw.run("true")
			for _, p := range []string{"zz/d/sub/.nvim.lua", "zz/d/sub/.git/hooks/pre-commit"} {
				if b, err := os.ReadFile(cw.path(p)); err == nil && strings.Contains(string(b), "PLANTED") {
					t.Errorf("%s planted at its name, its directory made read-only:\n%s\n%s", p, res.Text, res2.Text)
				}
			}
		})
	}
}

// r20readOnlyPlants are the programs a process plants in src/sub and
// then makes src/sub read-only (chmod 555: listed and searched, so not
// shut, but no entry of it can be renamed): a repository with a hook
// (made as g/, renamed to .git: the watch's rename is the only race) and
// a Named .nvim.lua. Each: the script's Python, the planted file.
var r20readOnlyPlants = map[string][2]string{
	"git": {`import os; d="src/s"+"ub"; os.makedirs(d+"/g/hooks"); open(d+"/g/HE"+"AD","w").write("ref: refs/heads/main\n"); ` +
		`open(d+"/g/hooks/pre-commit","w").write("PLANTED\n"); os.chmod(d+"/g/hooks/pre-commit", 0o755); os.rename(d+"/g", d+"/.g"+"it"); os.chmod(d, 0o555)`,
		"src/sub/.git/hooks/pre-commit"},
	"nvim": {`import os; d="src/s"+"ub"; os.mkdir(d); open(d+"/x","w").write("PLANTED\n"); os.rename(d+"/x", d+"/.nvim"+".lua"); os.chmod(d, 0o555)`,
		"src/sub/.nvim.lua"},
}

// r20openAll gives every directory below dir its permissions back when
// the test ends (a directory a step made read-only), so the temporary
// directory can be removed.
func r20openAll(t *testing.T, dir string) {
	t.Cleanup(func() {
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if d != nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
		filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
			if d != nil && d.IsDir() {
				os.Chmod(p, 0o755)
			}
			return nil
		})
	})
}

// Held (was open): a root a step shut gets its owner's read and search bits back and is listed again (protectedTree.reopenRoot); what the step made in it before is judged as anywhere.
// Attack (target 4, a directory shut since the last look is renamed out
// of use): the step shuts the workspace root itself (chmod 100 or 000
// of ".": a workspace change, unasked; under bubblewrap too, the root
// being a writable bind).
// THROUGH under Landlock and bubblewrap (severity medium: availability
// and a write outside what the user allowed, by eukhe itself; no byte is
// lost): after the step eukhe renames the whole workspace to
// ROOT.eukhe-refused-ID-R in its parent directory (outside the roots),
// telling the agent its "hooks and config could run programs"; every
// later step fails ("the session root cannot be the working directory"),
// and the user's editor and terminals are left in a directory that is
// gone. A session on the home (root = ~) would have the home renamed.
// Root cause: agent/shell/protected_tree.go refresh takes every mapped
// directory that became shut as made, the roots included (the map holds
// them), and sandbox.go refuseMade renames it with no guard for a root
// (or a directory above one); a root that a step shut wants the step
// failed and the user told, not the root moved.
func TestRedteam20_AShutRootIsOpenedAgainNotRenamed(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_AShutRootIsOpenedAgainNotRenamed") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for _, mode := range []string{"0o100", "0o000"} {
			t.Run(string(m)+"_"+mode, func(t *testing.T) {
				needTool(t, "python3")
				useMechanism(t, m)
				cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
				cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
				cw.write("data.txt", "the user's\n")
				t.Cleanup(func() {
					at, _ := filepath.Glob(cw.root + "*")
					for _, p := range at {
						os.Chmod(p, 0o755)
					}
				})
				cw.run("true")
				res := cw.run(`python3 -c 'import os; open(".nvim.lua", "w").write("PLANTED"); os.chmod(".", ` + mode + `)'`)
				if _, err := os.Lstat(cw.root); err != nil {
					at, _ := filepath.Glob(cw.root + "*")
					t.Errorf("the workspace is no longer at its path (%v), now at %q:\n%s", err, at, res.Text)
				}
				if b, err := os.ReadFile(filepath.Join(cw.root, ".nvim.lua")); err == nil && strings.Contains(string(b), "PLANTED") {
					t.Errorf(".nvim.lua, made before the step shut the root, is at its name:\n%s", res.Text)
				}
				if b, err := os.ReadFile(filepath.Join(cw.root, "data.txt")); err != nil || string(b) != "the user's\n" {
					t.Errorf("data.txt: %q %v", b, err)
				}
			})
		}
	}
}

// A step that plants sub/.nvim.lua and then shuts the workspace root: the
// root is opened again before the map is looked at, so the plant is
// renamed out of use and the user's own repository below (sub/r/.git,
// there before the step) is not taken for made.
func TestRedteam20_AShutRootsPlantIsRenamedAndTheUsersRepositoryStays(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_AShutRootsPlantIsRenamedAndTheUsersRepositoryStays") {
		return
	}
	needTool(t, "python3")
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
			cw.runner.Gate.Policy = gate.Places{Roots: []string{cw.root}, Home: cw.home}.Policy(gate.OS)
			cw.write("sub/r/.git/HEAD", "ref: refs/heads/main\n")
			t.Cleanup(func() { os.Chmod(cw.root, 0o755) })
			cw.run("true")
			res := cw.run(`python3 -c 'import os; open("sub/.nvim.lua", "w").write("PLANTED"); os.chmod(".", 0o000)'`)
			if b, err := os.ReadFile(filepath.Join(cw.root, "sub", ".nvim.lua")); err == nil && strings.Contains(string(b), "PLANTED") {
				t.Errorf("sub/.nvim.lua, made before the step shut the root, is at its name:\n%s", res.Text)
			}
			if _, err := os.Stat(filepath.Join(cw.root, "sub", "r", ".git", "HEAD")); err != nil {
				t.Errorf("the user's sub/r/.git was taken for made: %v\n%s", err, res.Text)
			}
		})
	}
}

// Held (was open): walkBeyond lists through listBeyond, which knows a shut directory (gate.DirShut): shut since the last walk it is renamed out of use, and while shut, writing processes are refused.
// Attack (target 4, shut directories past the protected tree's bound:
// the nineteenth red team's row, where the map stops): in a workspace
// past maxTreeDirs (lowered to 2 here; 50,000 in life: a monorepo with
// its node_modules), one process makes zz/d/sub in a directory the first
// map left to the walk past the bound, writes zz/d/sub/.nvim.lua (a
// Named protected file: Neovim runs it) and, last, shuts sub (chmod 100
// or 000). The user then opens sub (after a permission error), and one
// more step runs.
// THROUGH under Landlock and bubblewrap, both modes (severity medium: a
// program the user's editor runs, planted without a question; it needs a
// tree past the bound and the user's chmod): sub/.nvim.lua holds PLANTED
// at its name. Left open, the same file is renamed out of use
// (TestRedteam20_ProgramMadePastTheBoundIsRenamedOutOfUse).
// Root cause: agent/shell/protected_beyond.go walkBeyond drops the error
// of readDirUnsorted: a shut directory past the bound is walked as
// empty, never marked shut (protected_tree.go treeDir.shut and
// protectedTree.shut cover only the mapped directories, so refresh does
// not take it as made and places' blindRefusal never sees it); once the
// user opens it, the next process's before() takes .nvim.lua for the
// user's (beyond holds it before the process).
func TestRedteam20_ShutPastTheBoundDuringTheProcessHidesAPlant(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_ShutPastTheBoundDuringTheProcessHidesAPlant") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for _, mode := range []string{"0o100", "0o000"} {
			t.Run(string(m)+"_"+mode, func(t *testing.T) {
				cw := r20beyondWorld(t, m)
				r19reopen(t, cw.path("zz/d/sub"))
				r20settle() // the first map's listing is not in the tick of the set-up's last change
				cw.run("true")
				if r20mapped(cw, "zz/d") {
					t.Fatal("zz/d is mapped: the row proves nothing")
				}
				res := cw.run(`python3 -c 'import os; os.mkdir("zz/d/s"+"ub"); open("zz/d/sub/.nvim"+".lua","w").write("PLANTED\n"); os.chmod("zz/d/s"+"ub", ` + mode + `)'`)
				r19open(t, cw.path("zz/d/sub"))
				res2 := cw.run("true")
				if b, err := os.ReadFile(cw.path("zz/d/sub/.nvim.lua")); err == nil && strings.Contains(string(b), "PLANTED") {
					t.Errorf("zz/d/sub/.nvim.lua planted at its name by a step that shut sub past the bound (%s):\n%s\n%s", mode, res.Text, res2.Text)
				}
			})
		}
	}
}

// Held (was open): walkBeyond lists through listBeyond, which knows a shut directory (gate.DirShut): shut since the last walk it is renamed out of use, and while shut, writing processes are refused.
// Attack (target 4, the eighteenth red team's row past the bound): the
// project's zz/d/sub/.nvim.lua (past the map's bound) has another name
// in the workspace, notes.txt (a hard link, the user's). The control: a
// write through notes.txt is refused (the walk past the bound finds
// .nvim.lua, and the search for its other names makes notes.txt
// read-only). Step 1 shuts sub (chmod 000). Step 2 appends to notes.txt
// (python3: a name the gate's reading of the words cannot see). The user
// opens sub, and one more step runs.
// THROUGH under Landlock and bubblewrap (severity medium: as the row
// above; the in-map variant holds: TestRedteam18_ShutDirectoryHidesANamedFilesOtherName):
// step 2 is not refused, and .nvim.lua holds PLANTED.
// Root cause: agent/shell/protected_beyond.go walkBeyond walks the shut
// sub as empty, so .nvim.lua drops out of present (no protected top for
// the link search: notes.txt is not made read-only) and no shut
// directory is known (protectedTree.shutDirs lists the map's only), so
// sandbox.go places' blind refusal does not fire either.
func TestRedteam20_ShutPastTheBoundHidesANamedFilesOtherName(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_ShutPastTheBoundHidesANamedFilesOtherName") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			cw := r20beyondWorld(t, m)
			cw.write("zz/d/sub/.nvim.lua", "-- the project's\n")
			named := cw.path("zz/d/sub/.nvim.lua")
			if err := os.Link(named, cw.path("notes.txt")); err != nil {
				t.Fatal(err)
			}
			r19reopen(t, cw.path("zz/d/sub"))
			r20settle() // the first map's listing is not in the tick of the set-up's last change
			res0 := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("CONTROL\n")'`)
			if r20mapped(cw, "zz/d") {
				t.Fatal("zz/d is mapped: the row proves nothing")
			}
			if b, _ := os.ReadFile(named); strings.Contains(string(b), "CONTROL") {
				t.Fatalf("control: .nvim.lua written through notes.txt with sub open:\n%s", res0.Text)
			}
			res1 := cw.run("chmod 000 zz/d/sub")
			res := cw.run(`python3 -c 'open("no" + "tes.txt", "a").write("PLANTED\n")'`)
			at := r19open(t, cw.path("zz/d/sub"))
			res3 := cw.run("true")
			b, _ := os.ReadFile(filepath.Join(at[0], ".nvim.lua"))
			if b0, _ := os.ReadFile(named); strings.Contains(string(b)+string(b0), "PLANTED") {
				t.Errorf(".nvim.lua was written through its other name while sub (past the bound) was shut:\n%s\n%s\n%s\n%s", res0.Text, res1.Text, res.Text, res3.Text)
			}
		})
	}
}

// Held (was open): a PATH entry "~/bin" is read as bash reads it (gate.HomeTilde) by the one command list, the gate's and the sandbox's.
// Attack (target 3, PathUnknown, in the sandbox): the user's PATH holds
// "~/bin" with its tilde (bash expands it at each search), holding their
// command r20deploy; their shell did not say its PATH in time, so a
// program named like a command is protected wherever it is. One process
// makes tools/r20deploy (executable, by a rename the gate's reading of
// the words cannot see).
// THROUGH under Landlock and bubblewrap (severity low: needs the unknown
// PATH, which the agent can force by slowing the shell, and a tilde
// entry): tools/r20deploy is in use after the step (the control, the
// same with an absolute PATH directory, holds:
// TestRedteam17_UnknownPathProgramMadeByRenameIsTakenOutOfUse).
// Root cause: agent/shell/protected_shadow.go setShadow lists only the
// absolute entries of the PATH it is given (the env's and
// policy.PathDirs(), as given: "~/bin" unexpanded), so r20deploy is no
// command to pathShadow; gate/policy.go isCommandName likewise (the gate
// row of the same name).
func TestRedteam20_UnknownPathProtectsTheTildeEntrysCommands(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			home := filepath.Join(base, "h")
			if err := os.MkdirAll(filepath.Join(home, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "bin", "r20deploy"), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			w := r20unknownWorld(t, m, "~/bin", home)
			res := w.run(`python3 -c 'import os; open("tools/t", "w").write("#!/bin/sh\n"); os.chmod("tools/t", 0o755); os.rename("tools/t", "tools/r20" + "deploy")'`)
			if _, err := os.Lstat(w.path("tools/r20deploy")); err == nil {
				t.Errorf("tools/r20deploy (a command of ~/bin) is in use after the step:\n%s", res.Text)
			}
		})
	}
}

// Held (was open): a PATH directory that cannot be listed is asked for each name (CommandList.InUnlisted: a stat of the name there).
// Attack (target 3, PathUnknown, in the sandbox): a PATH directory the
// user can search but not list (0111 here, another user's 0711 in life)
// holds the command r20tool; with the PATH unknown, one process makes
// tools/r20tool (executable, by a rename).
// THROUGH under Landlock and bubblewrap (severity low, as above):
// tools/r20tool is in use after the step.
// Root cause: agent/shell/protected_shadow.go setShadow skips a PATH
// directory it cannot open or list (os.Open's error, Readdirnames's
// ignored), where any name may be a command there; gate/policy.go
// isCommandName likewise (the gate row of the same name).
func TestRedteam20_UnknownPathProtectsAnUnlistableDirectorysCommands(t *testing.T) {
	if !r17withoutDAC(t, "TestRedteam20_UnknownPathProtectsAnUnlistableDirectorysCommands") {
		return
	}
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			base, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			bin := filepath.Join(base, "bin")
			if err := os.MkdirAll(bin, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(bin, "r20tool"), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Chmod(bin, 0o111); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { os.Chmod(bin, 0o755) })
			w := r20unknownWorld(t, m, bin, filepath.Join(base, "h"))
			res := w.run(`python3 -c 'import os; open("tools/t", "w").write("#!/bin/sh\n"); os.chmod("tools/t", 0o755); os.rename("tools/t", "tools/r20" + "tool")'`)
			if _, err := os.Lstat(w.path("tools/r20tool")); err == nil {
				t.Errorf("tools/r20tool (a command of an unlistable PATH directory) is in use after the step:\n%s", res.Text)
			}
		})
	}
}

// Found by the integrator while checking the shut-root fix (a step's
// chmod of the root): Landlock decides what a path may be opened for,
// not what its metadata may become. A step allowed only read and write
// (in the auto set: run unasked) changes the mode of files and
// directories outside the roots: chmod 0666 of ~/.ssh's key (readable by
// every local user), chmod 0777 of the home, chmod 000 of it (the user's
// own logins fail), touch -d of a file there, a user xattr set on it.
// Under bubblewrap the same step is refused (the home is a read-only
// bind, the key hidden).
// Held (was open): the Landlock step's seccomp filter sends chmod, chown,
// utimes, setxattr and their kin to the supervisor, which performs each
// only on an object inside what the plan lets the step write, and
// answers EPERM otherwise (confine_notify_linux.go): every call fails
// with "Operation not permitted", which the sandbox note explains, and
// nothing outside changes.
func TestRedteam20_LandlockStepChangesNoModeOutsideItsWrites(t *testing.T) {
	needTool(t, "python3")
	useMechanism(t, Landlock)
	cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.Of(gate.Read, gate.Write))
	out := filepath.Join(cw.home, "notes.txt")
	if err := os.WriteFile(out, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	res := cw.run("chmod 0666 " + out + " " + cw.key + "; chmod 0777 " + cw.home + "; chmod 000 " + cw.home + "; touch -d 2001-01-01 " + out +
		"; python3 -c 'import os, sys; os.setxattr(sys.argv[1], \"user.x\", b\"v\")' " + out)
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{out, 0o600}, {cw.key, 0o600}, {cw.home, 0o755}} {
		if fi, err := os.Stat(c.path); err != nil || fi.Mode().Perm() != c.want {
			t.Errorf("%s: mode %v, want %v (a step allowed read and write changed it):\n%s", c.path, fi.Mode().Perm(), c.want, res.Text)
		}
	}
	if fi, err := os.Stat(out); err == nil && fi.ModTime().Year() == 2001 {
		t.Errorf("%s: its time was set by the step:\n%s", out, res.Text)
	}
	if _, err := unix.Getxattr(out, "user.x", make([]byte, 8)); err == nil {
		t.Errorf("%s: the step set an xattr on it:\n%s", out, res.Text)
	}
	if !strings.Contains(res.Text, "Operation not permitted") || !strings.Contains(res.Text, "the sandbox refused it") {
		t.Errorf("the refusals do not read as the sandbox's:\n%s", res.Text)
	}
}
