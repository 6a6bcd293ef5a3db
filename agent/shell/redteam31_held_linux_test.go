//go:build linux

package shell

// The thirty-first red team's attacks that were HELD when it ran (each
// asserts the safe outcome and passes), and the helpers its open rows
// (redteam31_open_attacks_test.go) use too.

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

func must31(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// r31Named tells whether a question of the world named the real path.
func r31Named(w *world, real string) bool {
	for _, q := range w.asker.asked() {
		for _, r := range q.Reals {
			if r == real {
				return true
			}
		}
	}
	return false
}

// r31GitPolicy is the policy of a workspace (made by mk) in a home, with
// its git places gathered as a session gathers them (settings.GitPlaces:
// hooks, includes, core.hooksPath).
func r31GitPolicy(t *testing.T, mk func(root string)) (p *gate.Policy, root, home string) {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must31(t, err)
	home = filepath.Join(base, "home")
	root = filepath.Join(base, "proj")
	must31(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must31(t, os.MkdirAll(root, 0o755))
	mk(root)
	env := map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}
	pl := gate.Places{Roots: []string{root}, Home: home, UserDir: filepath.Join(home, ".config", "eukhe"),
		GitPlaces: settings.GitPlaces([]string{root}, home, env), Env: env}
	return pl.Policy(gate.OS), root, home
}

// r31Effects is the union of the effects of script's steps in root.
func r31Effects(t *testing.T, p *gate.Policy, root, home, script string) gate.Effects {
	t.Helper()
	sh := &gate.Shell{Policy: p, Dir: root, Env: map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"}, ReadDir: os.ReadDir}
	sc, err := sh.Classify(script)
	if err != nil {
		return gate.Of(gate.Secret)
	}
	var e gate.Effects
	for _, s := range sc.Steps {
		e = e.Union(s.Effects)
	}
	return e
}

// Attack (coveredAt; HELD): the question names ~/.ssh/known_hosts (cat
// SECRET/known_hosts, approved); the next step of the pipeline names the
// key through a link the first stage could not have been judged to
// reach, in three shapes the runtime judges: a program (cat L/id), a
// redirection (< L/id) and a glob (L/id*). HELD: each is judged at the
// real path it reaches, not among the question's (coveredAt, open,
// readDir). Safe outcome: the key is not printed.
func TestRedteam31_CoveredAtHoldsOtherSpellingsOfTheStore(t *testing.T) {
	for i, form := range []string{
		"PLANT; cat SECRET/known_hosts | cat - L/id_ed25519",
		"PLANT; cat SECRET/known_hosts | cat - < L/id_ed25519",
		"PLANT; cat SECRET/known_hosts | cat - L/id_ed255*",
		"PLANT; cat SECRET/known_hosts && cat L/../.ssh/id_ed25519",
	} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			w := r27TmpWorld(t)
			r30HeldStore(t, w, "id_ed25519")
			s := strings.ReplaceAll(strings.ReplaceAll(form, "PLANT", r29Plant(w, "", "L")), "SECRET", w.secret)
			res := w.run(s)
			if r31Named(w, filepath.Join(w.secret, "id_ed25519")) {
				return
			}
			if strings.Contains(res.Text, "PRIVATEKEY") {
				t.Errorf("%s: the key was printed; questions %q:\n%s", form, r29Asked(w), res.Text)
			}
		})
	}
}

// Attack (programAllowance; HELD): a program of a step approved for
// secret whose own judgment has no secret (a stage after the approved
// one: xargs, a function, a background job of the same pipeline) reads
// the key by a path put together inside it. HELD: programAllowance
// drops secret for it, and its sandbox hides the store. Safe outcome:
// the key is not printed.
func TestRedteam31_ProgramAllowanceDropsSecretForOtherPrograms(t *testing.T) {
	for i, form := range []string{
		"cat SECRET/known_hosts | READ",
		"f() { READ; }; cat SECRET/known_hosts | f",
		"cat SECRET/known_hosts | { READ & wait; }",
		"cat SECRET/known_hosts | (READ)",
	} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			w := r27TmpWorld(t)
			r30HeldStore(t, w, "id_ed25519")
			half := strings.TrimSuffix(w.secret, "sh")
			s := strings.ReplaceAll(form, "READ", "sh -c 'cat \"$0$1\"' "+half+" sh/id_ed25519")
			res := w.run(strings.ReplaceAll(s, "SECRET", w.secret))
			if r31Named(w, filepath.Join(w.secret, "id_ed25519")) {
				return
			}
			if strings.Contains(res.Text, "PRIVATEKEY") {
				t.Errorf("%s: the key was printed; questions %q:\n%s", form, r29Asked(w), res.Text)
			}
		})
	}
}

// Attack (the stat and access handlers on files; HELD): L planted as a
// link to ~/.ssh, every question denied; the test keywords [[ -e ]],
// -f, -s, -r, -nt, -ot, -ef and -L on a name the store holds and on one
// it does not. HELD: unseen hides a file the pipeline may not read.
// Safe outcome: both names test alike.
func TestRedteam31_TestKeywordsOnStoreFilesEndAlike(t *testing.T) {
	for _, test := range []string{
		"-e L/NAME", "-f L/NAME", "-s L/NAME", "-r L/NAME", "-w L/NAME", "L/NAME -nt x", "x -ot L/NAME",
		"L/NAME -ef L/NAME", "-O L/NAME",
	} {
		out := func(name string) string {
			w := r29Denied(t)
			r30HeldStore(t, w, "id_ed25519")
			w.write("x", "x")
			s := r29Plant(w, "", "L") + " && if [[ " + strings.ReplaceAll(test, "NAME", name) + " ]]; then echo HIT; else echo MISS; fi"
			txt := strings.ReplaceAll(w.run(s).Text, name, "NAME")
			return strings.ReplaceAll(txt, filepath.Dir(w.root), "BASE")
		}
		if hit, miss := out("id_ed25519"), out("id_zzzzzzz"); hit != miss {
			t.Errorf("[[ %s ]]: a file the store holds is told from a missing one:\n%s\n---\n%s", test, hit, miss)
		}
	}
}

// Attack (confine.Places.Sealed; HELD): the process substitutions'
// directory is read-only to every process; a step of the default auto
// set (outside allowed) learns its path (`echo <(true)`), then renames
// it away, or empties and removes it, and makes a new one of the same
// name holding sh-interp-x, a link to ~/.ssh/authorized_keys; a later
// redirection to that name would be opened by the interpreter itself,
// unjudged. Under Landlock (its rule is on the directory's inode, so a
// new directory at the path would be free of it) and bubblewrap (a
// mount point cannot be renamed). HELD: Landlock refuses the rename and
// the removal (no right to remove it in the temporary directory), bubblewrap the
// rename (EBUSY). Safe outcome: authorized_keys is unchanged.
func TestRedteam31_SealedFifoDirCannotBeReplaced(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for i, move := range []string{
			`mv "$0" "$0.old" && mkdir "$0"`,
			`rm -rf "$0"; rmdir "$0"; mkdir "$0"`,
			`mv "$0" "$0.old"; ln -s "$3" "$0"`,
		} {
			t.Run(fmt.Sprintf("%s/%d", m, i), func(t *testing.T) {
				useMechanism(t, m)
				w := r27TmpWorld(t)
				keys := r29Keys(t, w)
				must31(t, os.MkdirAll(filepath.Join(w.outside, "mine"), 0o755))
				half := strings.TrimSuffix(w.secret, "sh")
				script := "f=$(echo <(true)); cat $f; d=$(dirname $f)\n" +
					"sh -c '" + move + "; ln -s \"$1$2\" \"$0/sh-interp-x\"' \"$d\" " + half + " sh/authorized_keys " +
					filepath.Join(w.outside, "mine") + "\necho AGENT >> \"$d/sh-interp-x\"\nrm -rf \"$d.old\""
				res := w.run(script)
				if b, _ := os.ReadFile(keys); strings.Contains(string(b), "AGENT") {
					t.Errorf("authorized_keys was written; questions %q:\n%s", r29Asked(w), res.Text)
				}
			})
		}
	}
}

// Attack (the kill at a step's end; HELD): programs that leave their
// step's process tree: setsid in a subshell, nohup of a double fork, a
// daemon that closes its streams, under each mechanism (a background
// statement of the script: the open row
// TestRedteam31_BackgroundStatementOutlivesItsScript). HELD: every process a step started is gone once
// the script ends (bubblewrap's pid namespace; Landlock's supervisor as
// subreaper keeps each orphan below it). Safe outcome: no process with
// the marker is alive a moment after the run.
func TestRedteam31_ProcessesDoNotOutliveTheirScript(t *testing.T) {
	r31Outlive(t, []string{
		"sh -c '(setsid sh ./d.sh </dev/null >/dev/null 2>&1 &)'; echo started",
		"sh -c '(nohup sh -c \"sh ./d.sh &\" </dev/null >/dev/null 2>&1 &)'; echo started",
	})
}

// r31Outlive runs each form (d.sh is a daemon with a marker) under each
// mechanism, and fails for each process with the marker alive 2 s after
// the script ended.
func r31Outlive(t *testing.T, forms []string) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for i, form := range forms {
			t.Run(fmt.Sprintf("%s/%d", m, i), func(t *testing.T) {
				useMechanism(t, m)
				w := newWorld(t, gate.DefaultAuto())
				// GNU sleep adds its arguments: the second is the marker
				mark := fmt.Sprintf("0.%09d", time.Now().UnixNano()%1e9)
				w.write("d.sh", "echo x >> started; exec sleep 60 "+mark+"\n")
				res := w.run(form)
				time.Sleep(2 * time.Second)
				if b, _ := os.ReadFile(w.path("started")); !strings.Contains(string(b), "x") {
					t.Skipf("no daemon started (%q): the form is held by its step's kill", b)
				}
				if exists(w.path("late")) {
					t.Errorf("%s: a command ran after the script ended:\n%s", form, res.Text)
				}
				if pids := r31Marked(mark); len(pids) > 0 {
					for _, pid := range pids {
						_ = syscall.Kill(pid, syscall.SIGKILL) // ours: started by this test's run
					}
					t.Errorf("%s: processes %v outlived the script (ending %q):\n%s", form, pids, res.Ending, res.Text)
				}
			})
		}
	}
}

// r31Marked are the processes whose command line holds mark.
func r31Marked(mark string) []int {
	var pids []int
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, _ := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if strings.Contains(string(b), mark) {
			pids = append(pids, pid)
		}
	}
	return pids
}

// Attack (learnSecret at run time; HELD): ~/.ssh/keys links out to a
// directory made after the policy; step 1 reads a key through the link
// (asked, denied: the policy learns the target as secret); step 2, a
// program whose words name no secret, reads the target by its own path.
// HELD: the learned entry is a secret entry for the sandbox too
// (SandboxRules: allSecrets). Safe outcome: the key is not printed.
func TestRedteam31_LearnedTargetIsHiddenFromPrograms(t *testing.T) {
	useMechanism(t, Bubblewrap)
	w := r29Denied(t)
	keys := filepath.Join(w.outside, "keys")
	must31(t, os.MkdirAll(keys, 0o755))
	must31(t, os.WriteFile(filepath.Join(keys, "id_work"), []byte("PRIVATEKEY\n"), 0o600))
	must31(t, os.Symlink(keys, filepath.Join(w.secret, "keys")))
	w.run("cat " + filepath.Join(w.secret, "keys", "id_work"))
	half := strings.TrimSuffix(keys, "ys")
	res := w.run("sh -c 'cat \"$0$1\"' " + half + " ys/id_work")
	if !strings.Contains(res.Text, "id_work") {
		t.Fatalf("the program did not run:\n%s", res.Text)
	}
	if strings.Contains(res.Text, "PRIVATEKEY") {
		t.Errorf("the learned target was read by its own path; questions %q:\n%s", r29Asked(w), res.Text)
	}
}

// Attack (false positives; HELD): everyday steps under the careful
// preset (read, write) and the default: git log, cat README.md, sed -i,
// a glob, a test of a workspace file. HELD: none asks
// and each does its work. Safe outcome: no question, the edit made.
func TestRedteam31_EverydayStepsRunUnasked(t *testing.T) {
	for _, auto := range []gate.AutoSet{gate.AutoOf(gate.Of(gate.Read, gate.Write)), gate.DefaultAuto()} {
		w := newWorld(t, auto)
		w.write("README.md", "hello a\n")
		w.write("src/a.go", "package a\n")
		res := w.run("cat README.md && sed -i s/a/b/ README.md && echo src/*.go && [ -s README.md ] && echo OK")
		if len(w.asker.asked()) > 0 || !strings.Contains(res.Text, "OK") || w.read("README.md") != "hello b\n" {
			t.Errorf("auto %v: questions %q:\n%s", auto, r29Asked(w), res.Text)
		}
	}
}

// Held (was open): the sandbox of a program approved for secret or protected at named real paths keeps every other secret entry hidden and protected entry read-only (confine.Narrow, sandbox.go).
// Attack (coveredAt / programAllowance; GOT THROUGH, medium): the agent
// writes b.sh (`cat "$1" >/dev/null; cat "$HOME/.ssh/id_ed25519"`) and
// runs `sh ./b.sh ~/.ssh/known_hosts`. The question names one real path,
// ~/.ssh/known_hosts (exec, secret); the user approves it. The program's
// own judgment has secret (its word names the store), so
// programAllowance keeps secret and coveredAt passes it (its real paths
// are the question's), and the sandbox of a step allowed secret shows
// every credential store whole: the script prints the private key, which
// no question named. Root cause: an approval of secret is narrowed to
// the question's real paths for what the shell itself opens (open, stat,
// readDir, coveredAt), but the sandbox has one switch (Places.Secrets
// hidden or not): a program allowed secret sees every secret entry.
// Safe outcome: the key is not printed unless a question named it.
// Suggested fix: under secret, hide every secret entry but the real
// paths the step's question named (bind those alone back in), as
// coveredAt narrows the shell's own opens.
func TestRedteam31_ProgramApprovedForOneSecretFileReadsAnother(t *testing.T) {
	w := r27TmpWorld(t)
	r30HeldStore(t, w, "id_ed25519")
	w.write("b.sh", "cat \"$1\" >/dev/null; cat \"$HOME/.ssh/id_ed25519\"\n")
	res := w.run("sh ./b.sh " + filepath.Join(w.secret, "known_hosts"))
	if r31Named(w, filepath.Join(w.secret, "id_ed25519")) {
		t.Skip("a question named the key")
	}
	if strings.Contains(res.Text, "PRIVATEKEY") {
		t.Errorf("the key was printed under an approval that named known_hosts only; questions %q:\n%s", r29Asked(w), res.Text)
	}
}

// Held (was open): the sandbox of a program approved for secret or protected at named real paths keeps every other secret entry hidden and protected entry read-only (confine.Narrow, sandbox.go).
// Attack (programAllowance, protected; GOT THROUGH, high under a careful
// auto set): auto set read, write, exec (protected asks). The agent
// writes edit.sed (`1e sh plant.sh`, GNU sed's e command runs a shell)
// and plant.sh (writes .git/hooks/pre-commit), and runs `sed -i -f
// edit.sed .git/config`. The question is about protected at .git/config
// (the script is a file: the user sees an edit of the repository's
// config); approved. sed's own judgment has protected, so
// programAllowance keeps it, and the sandbox of a step allowed protected
// makes every protected place writable: the hook is planted. Root cause:
// as for secret above, the sandbox's protected switch is whole
// (Places.Protected read-only or not), where the question named one
// place. Safe outcome: .git/hooks/pre-commit is not written unless a
// question named it. Suggested fix: under an approved protected, keep
// every protected entry read-only but the real paths the question named.
func TestRedteam31_ProgramApprovedForGitConfigPlantsAHook(t *testing.T) {
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
	w.write(".git/config", "[core]\n\tbare = false\n")
	if err := os.MkdirAll(w.path(".git/hooks"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.write("edit.sed", "1e sh plant.sh\n")
	w.write("plant.sh", "printf '#!/bin/sh\\necho HOOK\\n' > .git/hooks/pre-commit\n")
	res := w.run("sed -i -f edit.sed .git/config")
	if r31Named(w, w.path(".git/hooks/pre-commit")) {
		t.Skip("a question named the hook")
	}
	if exists(w.path(".git/hooks/pre-commit")) {
		t.Errorf("a hook was planted under an approval for .git/config; questions %q:\n%s", r29Asked(w), res.Text)
	}
}

// Attack (viaClass: the target of a link in a protected place, reached
// by its own path; HELD since, high under a careful auto set; GOT
// THROUGH when the red team ran): the repository's .git/hooks is a link
// to ../githooks (hooks kept in the work tree and linked in), or one
// hook is a link to ../../scripts/pre-commit.sh. Auto set read, write.
// `echo … > githooks/pre-commit` and `echo … > scripts/pre-commit.sh`
// were write only (unasked: git runs the planted hook at the next
// commit), where the same write through the link was protected (Via):
// a link in a protected place passed its class only to the paths
// resolved through it. HELD by learnLinksIn and learnProtected (gate
// linktargets.go): the links directly in each Tree rule's place and in
// its hooks directory have their real targets made protected entries
// when the policy is made, again when GitWatch gives the git places (it
// stamps the hooks directories), and on the way. Safe outcome:
// protected.
func TestRedteam31_LinkedHooksTargetIsNotProtected(t *testing.T) {
	for _, c := range []struct{ name, link, target, write string }{
		{"dir", ".git/hooks", "../githooks", "githooks/pre-commit"},
		{"file", ".git/hooks/pre-commit", "../../scripts/pre-commit.sh", "scripts/pre-commit.sh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, root, home := r31GitPolicy(t, func(root string) {
				must31(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
				must31(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644))
				must31(t, os.MkdirAll(filepath.Join(root, "githooks"), 0o755))
				must31(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
				must31(t, os.WriteFile(filepath.Join(root, "scripts", "pre-commit.sh"), []byte("#!/bin/sh\n"), 0o755))
				if c.name == "file" {
					must31(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
				}
				must31(t, os.Symlink(c.target, filepath.Join(root, c.link)))
			})
			through := r31Effects(t, p, root, home, "echo x > "+c.link)
			if !through.Has(gate.Protected) {
				t.Fatalf("the write through the link is %v: the held form is not protected", through)
			}
			if e := r31Effects(t, p, root, home, "echo '#!/bin/sh' > "+c.write); !e.Has(gate.Protected) {
				t.Errorf("%s (the hook's own path) is %v, not protected", c.write, e)
			}
		})
	}
}

// Attack (keep a process alive after its script ended; GOT THROUGH when
// the red team ran, medium; HELD since by run.endProcesses): `sh ./d.sh
// </dev/null >/dev/null 2>&1 & sleep 0.5; echo started` (and the same
// with disown; the sleep lets the daemon start before the end, else the
// row skips): the script ended ("finished") and the background program ran
// on, under bubblewrap and Landlock alike, in the sandbox of its step (a
// step approved for secret left a reader of the store running while
// later steps were asked and answered). Root cause: run.finish cancelled
// the script's context, but a program starts with a plain exec.Cmd (no
// context), and its process group was killed only on a refusal or a
// stop. HELD: when the script ends, whatever the ending, no program
// starts any more, every group it started gets TERM, and after the grace
// each live program's tree, session and group get KILL (killKernel), and
// the result waits for each program's waiter (its look for protected
// entries). Safe outcome: no process of the script is alive after it
// ended.
func TestRedteam31_BackgroundStatementOutlivesItsScript(t *testing.T) {
	r31Outlive(t, []string{
		"sh ./d.sh </dev/null >/dev/null 2>&1 & disown; sleep 0.5; echo started",
		"sh ./d.sh </dev/null >/dev/null 2>&1 & sleep 0.5; echo started",
	})
}

// Attack (run.endProcesses, other shapes of a background job; HELD): a
// subshell job whose next command would run after the end (`( sh ./d.sh;
// touch late ) &`), a process substitution's program (the interpreter
// runs `coproc` as a command, not found), setsid(1) in the background (its child
// calls setsid, out of the program's group), nohup in the background,
// and a background program that traps TERM (`trap ” TERM`: the KILL
// after the grace). HELD: the program is killed at the end and nothing
// starts after it (ending), the setsid'd child is below the Landlock
// supervisor or in bubblewrap's pid namespace. Safe outcome: no process
// with the marker alive, and the subshell's next command never ran.
func TestRedteam31_BackgroundJobShapesEndWithTheScript(t *testing.T) {
	r31Outlive(t, []string{
		"( sh ./d.sh </dev/null >/dev/null 2>&1; echo late > late ) & sleep 0.5; echo started",
		"echo hi > >(sh ./d.sh >/dev/null 2>&1); sleep 0.5; echo started",
		"setsid sh ./d.sh </dev/null >/dev/null 2>&1 & sleep 0.5; echo started",
		"nohup sh ./d.sh </dev/null >/dev/null 2>&1 & sleep 0.5; echo started",
		"sh -c 'trap \"\" TERM; sh ./d.sh </dev/null >/dev/null 2>&1' & sleep 0.5; echo started",
	})
}

// Control (run.endProcesses; HELD): background work that ends in time
// keeps working: a program waited for (`wait`), a go build in the
// background waited for, output a background program wrote before the
// end, a job settled after the script's end. Safe outcome: each does its
// work and its output is in the result.
func TestRedteam31_BackgroundWorkThatEndsInTimeKeepsItsOutput(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			w := newWorld(t, gate.DefaultAuto())
			res := w.run("sh -c 'sleep 0.3; echo WAITED > w' & wait; cat w")
			if !strings.Contains(res.Text, "WAITED") || strings.Contains(res.Text, "still running") {
				t.Errorf("wait: %s", res.Text)
			}
			res = w.run("sh -c 'echo EARLY' & sleep 0.1")
			if !strings.Contains(res.Text, "EARLY") {
				t.Errorf("a background program's output before the end was lost:\n%s", res.Text)
			}
			res = w.run("sh -c 'sleep 0.2; echo SAVED > s' & sleep 0.5; cat s")
			if !strings.Contains(res.Text, "SAVED") {
				t.Errorf("a background program that ended in time did not do its work:\n%s", res.Text)
			}
		})
	}
}

// Control (run.endProcesses under a build; HELD): `go build ./... &`
// then wait: the build runs whole. Safe outcome: the program is built.
func TestRedteam31_BackgroundGoBuildWaitedFor(t *testing.T) {
	needTool(t, "go")
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	must31(t, err)
	gocache := strings.TrimSpace(string(cache))
	useMechanism(t, Landlock)
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
	w.runner.Env = append(w.runner.Env, "GOCACHE="+gocache, "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local")
	w.runner.Confine.WritableDirs = func() []string { return []string{gocache} }
	w.write("go.mod", "module tiny\n\ngo 1.21\n")
	w.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"tiny built\") }\n")
	res := w.run("go build -o app ./... & wait; ./app")
	if !strings.Contains(res.Text, "tiny built") {
		t.Errorf("go build in the background, waited for:\n%s", res.Text)
	}
}

// Attack (the stat handler's directory exception; GOT THROUGH when the
// red team ran, low; HELD since by cdCheck): a step plants L as a link
// to ~/.ssh (its words name no secret), every question denied; then
// `[[ -d L/NAME ]]`, a test keyword (no call handler judges it: only the
// stat handler sees it). run.unseen hid a file the pipeline may not read
// but showed every directory ("cd ~/.ssh runs unasked"), so the test told
// a directory the store holds (~/.ssh/work, ~/.gnupg/private-keys-v1.d,
// ~/.password-store/bank) from a missing one. Root cause: unseen exempted
// directories from the narrowing so that cd works; a test is not a cd.
// HELD: the exemption is for cd's own check only (the exec middleware
// runs cd, pushd and popd, in and out of the grammar, with cdCheck in
// their context). Safe outcome: a store's directory and a missing name
// test alike.
func TestRedteam31_TestKeywordTellsAStoreDirectory(t *testing.T) {
	out := func(name string) string {
		w := r29Denied(t)
		r30HeldStore(t, w, "id_ed25519")
		if err := os.MkdirAll(filepath.Join(w.secret, "work"), 0o700); err != nil {
			t.Fatal(err)
		}
		s := r29Plant(w, "", "L") + " && if [[ -d L/" + name + " ]]; then echo HIT; else echo MISS; fi"
		txt := strings.ReplaceAll(w.run(s).Text, name, "NAME")
		return strings.ReplaceAll(txt, filepath.Dir(w.root), "BASE")
	}
	if hit, miss := out("work"), out("wzzz"); hit != miss {
		t.Errorf("a directory the store holds is told from a missing one:\n%s\n---\n%s", hit, miss)
	}
}

// Attack (cdCheck, other spellings of a directory test; HELD): L a link
// to ~/.ssh, every question denied; `test -d`, `[ -d ]`, [[ -e ]],
// [[ -x ]] (the access handler), a test through `..` after the link
// (L/../.ssh/NAME: the directory above where L leads), -nt against a
// file, and a function named cd that tests (the exemption is the
// builtin's, not the name's). [[ -e ]], [[ -x ]] and the function got
// through before cdCheck; test -d and [ -d ] are judged by the call
// handler too. HELD: each is judged at the real path it
// reaches and answered as missing unless it is cd's own check. Safe
// outcome: a store's directory and a missing name test alike.
func TestRedteam31_DirectoryTestSpellingsEndAlike(t *testing.T) {
	for _, test := range []string{
		"test -d L/NAME", "[ -d L/NAME ]", "[[ -e L/NAME ]]", "[[ -x L/NAME ]]", "[[ -d L/../.ssh/NAME ]]",
		"[[ L/NAME -nt x ]]", "cd() { [[ -d \"$1\" ]]; }; cd L/NAME",
	} {
		out := func(name string) string {
			w := r29Denied(t)
			r30HeldStore(t, w, "id_ed25519")
			must31(t, os.MkdirAll(filepath.Join(w.secret, "work"), 0o700))
			w.write("x", "x")
			s := r29Plant(w, "", "L") + "\nif " + strings.ReplaceAll(test, "NAME", name) + "; then echo HIT; else echo MISS; fi"
			txt := strings.ReplaceAll(w.run(s).Text, name, "NAME")
			return strings.ReplaceAll(txt, filepath.Dir(w.root), "BASE")
		}
		if hit, miss := out("work"), out("wzzz"); hit != miss {
			t.Errorf("%s: a directory the store holds is told from a missing one:\n%s\n---\n%s", test, hit, miss)
		}
	}
}

// Control (cdCheck; HELD): cd keeps its directory exception, in the
// grammar and out of it (an if), through builtin, and pushd: cd ~/.ssh
// and cd L (a link to it) run as before, and `[ -d ]` of a workspace
// directory and .git is true. Safe outcome: each prints its directory.
func TestRedteam31_CdStillEntersADirectoryOfTheStore(t *testing.T) {
	for _, s := range []string{
		"cd SECRET && pwd", "if true; then cd SECRET && pwd; fi", "builtin cd SECRET && pwd",
		"pushd SECRET >/dev/null && pwd", "PLANT && cd L && pwd -P",
	} {
		w := r27TmpWorld(t)
		r30HeldStore(t, w, "id_ed25519")
		res := w.run(strings.ReplaceAll(strings.ReplaceAll(s, "SECRET", w.secret), "PLANT", r29Plant(w, "", "L")))
		if !strings.Contains(res.Text, w.secret+"\n") {
			t.Errorf("%s: did not enter the store's directory; questions %q:\n%s", s, r29Asked(w), res.Text)
		}
	}
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
	must31(t, os.MkdirAll(w.path(".git"), 0o755))
	must31(t, os.MkdirAll(w.path("src"), 0o755))
	res := w.run("[ -d src ] && [ -d .git ] && test -d . && echo DIRS")
	if !strings.Contains(res.Text, "DIRS") || len(w.asker.asked()) > 0 {
		t.Errorf("a workspace directory test; questions %q:\n%s", r29Asked(w), res.Text)
	}
}

// Attack (stat handler, a link swapped between unseen's look and the
// stat; GOT THROUGH, medium: twelve hits in a rerun; HELD since by
// statReal): run.unseen resolved the name and let a directory through,
// then the handler stat'ed the name again. A background program flips L
// between a workspace directory and the key (a link needs no access to
// its target), while the shell tests [[ -f L ]] in a loop: a stat that
// landed on the key after unseen saw the directory said a regular file
// is there, so whether ~/.ssh/id_ed25519 exists was learned with every
// question denied. Root cause: unseen judged one resolution and the stat
// made another (a time-of-check to time-of-use gap). HELD: the stat is of
// the real path judged, opened O_PATH with openat2 RESOLVE_NO_SYMLINKS
// and fstat'ed (statReal). Safe outcome: no HIT for the key.
func TestRedteam31_StatRaceBetweenUnseenAndTheStat(t *testing.T) {
	r31StatRace(t, "d", "sh/id_ed25519", "[[ -f L ]]")
}

// Attack (statReal through `..`; HELD): the same flip, L between d/sub
// (a workspace directory) and ~/.ssh/work (a store directory), tested as
// [[ -f L/../id_ed25519 ]]: the judged path is d/id_ed25519 (missing),
// a second resolution lands on ~/.ssh/id_ed25519; and the same told by
// -e and not -d. HELD (and held before statReal in a rerun: the race
// did not land in its window): the
// real path judged is stat'ed, with no link followed. Safe outcome: no
// HIT for the key.
func TestRedteam31_StatRaceThroughDotDot(t *testing.T) {
	for _, test := range []string{"[[ -f L/../id_ed25519 ]]", "[[ -e L/../id_ed25519 && ! -d L/../id_ed25519 ]]"} {
		t.Run(test, func(t *testing.T) {
			r31StatRace(t, "d/sub", "sh/work", test)
		})
	}
}

// Attack (a link chain from the hooks directory; HELD, high under a
// careful auto set): .git/hooks links to ../a, and a (in the work tree)
// links to b. The hook git runs is b/pre-commit, by its own path; and
// re-pointing a (`ln -sfn c a`, `rm a`) moves the hooks to a directory
// the policy never learned. HELD by learnProtected (gate
// linktargets.go): the chain's real target is protected, and each link
// after the protected one on the way is protected by its own path. Safe
// outcome: both protected.
func TestRedteam31_HooksLinkChainIsProtectedAlongTheWay(t *testing.T) {
	p, root, home := r31GitPolicy(t, func(root string) {
		must31(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
		must31(t, os.MkdirAll(filepath.Join(root, "b"), 0o755))
		must31(t, os.MkdirAll(filepath.Join(root, "c"), 0o755))
		must31(t, os.Symlink("b", filepath.Join(root, "a")))
		must31(t, os.Symlink("../a", filepath.Join(root, ".git", "hooks")))
	})
	for _, s := range []string{"echo '#!/bin/sh' > b/pre-commit", "ln -sfn c a", "rm a"} {
		if e := r31Effects(t, p, root, home, s); !e.Has(gate.Protected) {
			t.Errorf("%q is %v, not protected", s, e)
		}
	}
	if e := r31Effects(t, p, root, home, "echo x > c/notes.txt"); e.Has(gate.Protected) {
		t.Errorf("a plain directory beside the chain is %v", e)
	}
}

// Attack (a hooks link made after the policy, never resolved through;
// HELD, high under a careful auto set): the policy is made, then the
// user (or an approved step) links .git/hooks to ../githooks, or one
// hook to scripts/pre-commit.sh; no step names the link. The next tool
// call writes githooks/pre-commit by its own path. HELD by GitWatch
// (gate/settings: the hooks directories are among the files it stamps)
// and learnLinksIn: Refresh, before the call, gives the git places
// again and the policy looks at the hooks directory's links. Safe
// outcome: protected.
func TestRedteam31_HooksLinkMadeAfterThePolicyIsProtectedAtTheNextCall(t *testing.T) {
	for _, c := range []struct{ name, link, target, write string }{
		{"dir", ".git/hooks", "../githooks", "githooks/pre-commit"},
		{"file", ".git/hooks/pre-commit", "../../scripts/pre-commit.sh", "scripts/pre-commit.sh"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, root, home := r31GitPolicy(t, func(root string) {
				must31(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
				must31(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644))
				must31(t, os.MkdirAll(filepath.Join(root, "githooks"), 0o755))
				must31(t, os.MkdirAll(filepath.Join(root, "scripts"), 0o755))
				if c.name == "file" {
					must31(t, os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755))
				}
			})
			gw := settings.NewGitWatch([]string{root}, home, map[string]string{"HOME": home, "PATH": "/usr/bin:/bin"})
			if e := r31Effects(t, p, root, home, "echo x > "+c.write); e.Has(gate.Protected) {
				t.Fatalf("%s is %v before any link", c.write, e)
			}
			must31(t, os.Symlink(c.target, filepath.Join(root, c.link)))
			gw.Refresh(p)
			if e := r31Effects(t, p, root, home, "echo '#!/bin/sh' > "+c.write); !e.Has(gate.Protected) {
				t.Errorf("%s (the hook's own path) is %v after the refresh, not protected", c.write, e)
			}
		})
	}
}

// Attack (a hooks link to the workspace root itself; HELD, high under a
// careful auto set, and the false positive beside it): .git/hooks links
// to ".." (the root), so git runs ./pre-commit. Protecting the link's
// target whole would make every write of the workspace ask; protecting
// nothing leaves ./pre-commit plain. HELD by reachHooks (gate
// linktargets.go): a protected link's target that is or holds a root
// gives the git hook names in it, and only what the link reaches beside
// the workspace. Safe outcome: `echo > pre-commit` is protected; the
// controls (a write of src/x.go, sed -i on it, go build, git log) are
// not.
func TestRedteam31_HooksLinkToTheRootProtectsTheHookNamesOnly(t *testing.T) {
	p, root, home := r31GitPolicy(t, func(root string) {
		must31(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
		must31(t, os.MkdirAll(filepath.Join(root, "src"), 0o755))
		must31(t, os.WriteFile(filepath.Join(root, "src", "x.go"), []byte("package a\n"), 0o644))
		must31(t, os.Symlink("..", filepath.Join(root, ".git", "hooks")))
	})
	if e := r31Effects(t, p, root, home, "echo '#!/bin/sh' > pre-commit"); !e.Has(gate.Protected) {
		t.Errorf("./pre-commit (a hook by the link) is %v, not protected", e)
	}
	for _, s := range []string{"echo x > src/x.go", "sed -i s/a/b/ src/x.go", "go build ./...", "git log", "echo x > notes.txt"} {
		if e := r31Effects(t, p, root, home, s); e.Has(gate.Protected) || e.Has(gate.Secret) {
			t.Errorf("%q is %v: the workspace became protected", s, e)
		}
	}
}

// r31StatRace flips L between the workspace's ws and the store's
// half-named entry (SECRET without its last two letters, then store)
// for 4 s while the shell runs test 20,000 times, and fails on any hit.
func r31StatRace(t *testing.T, ws, store, test string) {
	w := r29Denied(t)
	r30HeldStore(t, w, "id_ed25519")
	must31(t, os.MkdirAll(filepath.Join(w.secret, "work"), 0o700))
	must31(t, os.MkdirAll(w.path(ws), 0o755))
	half := strings.TrimSuffix(w.secret, "sh")
	flip := "sh -c 'end=$(($(date +%s)+4)); while [ $(date +%s) -lt $end ]; do ln -sfn " + ws + " L; ln -sfn \"$0$1\" L; done' " +
		half + " " + store + " &"
	s := flip + "\nsleep 0.2\nn=0; for i in $(seq 1 20000); do if " + test + "; then n=$((n+1)); fi; done; echo HITS=$n; wait"
	res := w.run(s)
	if strings.Contains(res.Text, "HITS=") && !strings.Contains(res.Text, "HITS=0") {
		t.Errorf("%s: the key was seen through the race:\n%s", test, res.Text)
	}
	if !strings.Contains(res.Text, "HITS=") {
		t.Errorf("%s: the loop did not run:\n%s", test, res.Text)
	}
}

// Attack (a stop's KILL to the supervisor's group; HELD): a foreground
// program that called setsid, stopped by the script's timeout. The KILL
// after the grace reached the Landlock supervisor's group first, and the
// program, in a session of its own, was left an orphan nobody looked for
// (found with the CI run's failure of
// TestRedteam31_BackgroundJobShapesEndWithTheScript: the same KILL
// outran the end's). HELD: killGroups kills each live program's tree
// before its group (run.killLive). Safe outcome: no process with the
// marker is alive a moment after the run.
func TestRedteam33_TimedOutSetsidProgramEndsWithItsScript(t *testing.T) {
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		for i, form := range []string{"setsid sleep 60 %s", "setsid -f sleep 60 %s; sleep 60", "sh -c 'setsid sleep 60 %s'"} {
			t.Run(fmt.Sprintf("%s/%d", m, i), func(t *testing.T) {
				useMechanism(t, m)
				w := newWorld(t, gate.DefaultAuto())
				mark := fmt.Sprintf("0.%09d", time.Now().UnixNano()%1e9)
				res := w.runner.Run(context.Background(), Request{Script: fmt.Sprintf(form, mark), Timeout: 700 * time.Millisecond})
				if res.Ending != TimedOut {
					t.Fatalf("ending %s:\n%s", res.Ending, res.Text)
				}
				time.Sleep(2 * time.Second)
				if pids := r31Marked(mark); len(pids) > 0 {
					for _, pid := range pids {
						_ = syscall.Kill(pid, syscall.SIGKILL) // ours: started by this test's run
					}
					t.Errorf("%s: processes %v outlived the script:\n%s", form, pids, res.Text)
				}
			})
		}
	}
}

// Attack (false positive: a test keyword or a loop under the careful
// preset; KEPT BY LAW, low): auto set read, write. `[[ -f go.mod ]] &&
// cat go.mod`, `for f in *.md; do wc -l "$f"; done` and `if [[ -s
// README.md ]]; then cat README.md; fi` read only, yet each asks about
// exec. The seed's S7.8 decides it: "A script outside the grammar is one
// step with exec and every effect of every command it holds", and [[ ]],
// for and if are outside the step grammar. The row asserts the law and
// its everyday way out: the same work in the grammar (`[ -f go.mod ] &&
// cat go.mod`, `wc -l *.md`) runs unasked. Safe outcome: the
// out-of-grammar script asks about exec, its question naming it; the
// in-grammar ones ask nothing.
func TestRedteam31_TestKeywordAndLoopAskExecUnderCarefulPresetByLaw(t *testing.T) {
	for _, s := range []string{
		"[[ -f go.mod ]] && cat go.mod", "for f in *.md; do wc -l \"$f\"; done", "if [[ -s README.md ]]; then cat README.md; fi",
	} {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
		w.write("go.mod", "module x\n")
		w.write("README.md", "hello\n")
		w.asker.answers = []gate.Answer{gate.Deny}
		res := w.run(s)
		if qs := w.asker.asked(); len(qs) != 1 || !qs[0].Effects.Has(gate.Exec) {
			t.Errorf("%s: questions %q, not one about exec (S7.8):\n%s", s, r29Asked(w), res.Text)
		}
	}
	for _, s := range []string{"[ -f go.mod ] && cat go.mod", "wc -l *.md"} {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write)))
		w.write("go.mod", "module x\n")
		w.write("README.md", "hello\n")
		res := w.run(s)
		if len(w.asker.asked()) > 0 || res.Failed {
			t.Errorf("%s: questions %q:\n%s", s, r29Asked(w), res.Text)
		}
	}
}
