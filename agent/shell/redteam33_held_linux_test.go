//go:build linux

package shell

// The thirty-third red team's attacks on the shell runner that were HELD
// when it ran (each asserts the safe outcome and passes); the ones that
// got through are in redteam33_open_attacks_test.go, which uses the
// helpers here. The area: an approval of secret or protected narrowed to
// the paths its question named (confine.Narrow, placesOf), and the end of
// a script's processes (run.endProcesses, killLive, killKernel).

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
)

// r33Key is the content of the world's private key.
const r33Key = "R33-PRIVATE-KEY"

// r33Mechanisms are the sandboxes every row runs under.
var r33Mechanisms = []Mechanism{Bubblewrap, Landlock}

// r33NoProtected is the default auto set without protected: what a
// question lends at protected paths is then the approval's alone.
func r33NoProtected() gate.AutoSet {
	return gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside))
}

// r33World is a world confined by m, with auto as its auto set: a store
// holding a private key and known_hosts, a repository's .git with a
// config and a hooks directory, and the program ./rk, whose words are
// judged as paths (an unknown program) and which prints the key.
func r33World(t *testing.T, m Mechanism, auto gate.AutoSet) *world {
	t.Helper()
	useMechanism(t, m)
	w := newWorld(t, auto)
	for name, body := range map[string]string{"id_ed25519": r33Key + "\n", "known_hosts": "example.com ssh-ed25519 AAAA\n"} {
		r33Must(t, os.WriteFile(filepath.Join(w.secret, name), []byte(body), 0o600))
	}
	r33Must(t, os.MkdirAll(w.path(".git/hooks"), 0o755))
	r33Must(t, os.WriteFile(w.path(".git/config"), []byte("[core]\n\tbare = false\n"), 0o644))
	r33Must(t, os.WriteFile(w.path("rk"), []byte("#!/bin/sh\ncat \"$HOME/.ssh/id_ed25519\"\n"), 0o755))
	return w
}

// r33Repolicy makes the world's policy again, with these secret stores,
// after the test laid out links the policy learns when it is made.
func r33Repolicy(w *world, secrets ...string) {
	w.runner.Gate.Policy = gate.NewPolicy(gate.OS, []string{w.root}, append([]string{w.secret}, secrets...),
		[]gate.Rule{{Kind: gate.TreeRule, Path: filepath.Join(w.root, ".git")}, {Kind: gate.NamedRule, Name: ".git"}})
}

// r33Deny has the world's asker deny every question from now on.
func r33Deny(w *world) {
	w.asker.mu.Lock()
	defer w.asker.mu.Unlock()
	w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny, gate.Deny, gate.Deny, gate.Deny}
}

// r33Mark is a number no other process's command line holds: a sleep
// given it as a second argument sleeps a minute more.
func r33Mark() string { return fmt.Sprintf("0.%09d", time.Now().UnixNano()%1e9) }

// r33Marked are the processes whose command line holds mark; each is
// killed (they are this test's own, started by its run).
func r33Marked(mark string) []int {
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
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
	return pids
}

// Attack (narrowed secret, a command in the approved program; HELD,
// high): the user approves reading ~/.ssh/known_hosts with sed, whose
// script runs a shell command (GNU sed's e) that prints the private key
// beside it. HELD: the approval lends the program known_hosts only
// (confine.Narrow): the key stays hidden under both sandboxes. Safe
// outcome: the key is not printed.
func TestRedteam33_NarrowedSedCommandCannotReadAnotherKey(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			res := w.run("sed -n '1e cat ~/.ssh/id_ed25519' ~/.ssh/known_hosts")
			if strings.Contains(res.Text, r33Key) {
				t.Errorf("THROUGH: the key was printed:\n%s", res.Text)
			}
			if len(w.asker.asked()) == 0 {
				t.Errorf("control: the step was not asked about:\n%s", res.Text)
			}
		})
	}
}

// Attack (narrowed secret, other spellings around a named path; HELD,
// high): an unknown program (./rk, which reads the key by a path it puts
// together) is approved at ~/.ssh/known_hosts, named plainly, through a
// function, with the key's path in an assignment it reads from its
// environment, with a here-document, and as known_hosts/../known_hosts.
// HELD: each runs with the one path its words name, at exec time. Safe
// outcome: the key is not printed.
func TestRedteam33_NarrowedUnknownProgramCannotReadAnotherKey(t *testing.T) {
	scripts := []string{
		"./rk ~/.ssh/known_hosts",
		"f() { ./rk \"$@\"; }; f ~/.ssh/known_hosts",
		"K=~/.ssh/id_ed25519 ./rk ~/.ssh/known_hosts",
		"./rk ~/.ssh/known_hosts <<'EOF'\nx\nEOF",
		"./rk ~/.ssh/known_hosts/../known_hosts",
	}
	for _, m := range r33Mechanisms {
		for i, s := range scripts {
			t.Run(fmt.Sprintf("%s/%d", m, i), func(t *testing.T) {
				w := r33World(t, m, gate.DefaultAuto())
				res := w.run(s)
				if strings.Contains(res.Text, r33Key) {
					t.Errorf("THROUGH (%s): the key was printed:\n%s", s, res.Text)
				}
			})
		}
	}
}

// Attack (narrowed secret, a hard link out of the store; HELD, high):
// the approved reader of known_hosts hard-links the private key into the
// workspace, for a later step to read by a plain name. HELD: under
// bubblewrap the key is a mount of /dev/null (a link across mounts
// fails), under Landlock the link is refused (no refer right there).
// Safe outcome: no file in the workspace holds the key.
func TestRedteam33_NarrowedProgramCannotHardLinkAnotherKey(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			w.run("sed -n '1e ln ~/.ssh/id_ed25519 stolen' ~/.ssh/known_hosts")
			if b, err := os.ReadFile(w.path("stolen")); err == nil && strings.Contains(string(b), r33Key) {
				t.Errorf("THROUGH: the key was linked into the workspace")
			}
		})
	}
}

// Attack (narrowed protected, a command in the approved program; HELD,
// high): with protected out of the auto set, the user approves `sed -i`
// on .git/config; its script's e command writes .git/hooks/pre-commit.
// HELD: the approval lends .git/config only; .git/hooks stays read-only
// under bubblewrap (under Landlock the approved sed -i fails outright,
// an open row of its own). Safe outcome: no pre-commit hook.
func TestRedteam33_NarrowedConfigEditCannotWriteAHook(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, r33NoProtected())
			res := w.run("sed -i '1e echo echo PWN > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit' .git/config")
			if exists(w.path(".git/hooks/pre-commit")) {
				t.Errorf("THROUGH: the approved config edit wrote a hook:\n%s", res.Text)
			}
		})
	}
}

// Attack (a linked hook's target swapped under its directory; HELD,
// high): .git/hooks/pre-commit links to scripts/pc.sh, a protected entry
// of the policy (linktargets.go); with protected out of the auto set a
// program renames scripts away and renames a prepared directory (whose
// pc.sh existed before the step, so it is no new name) into its place.
// HELD: the look after the program finds the protected path's file
// changed and renames it out of use (bubblewrap); Landlock refuses the
// rename. Safe outcome: the hook does not print PWN.
func TestRedteam33_HookTargetSwappedUnderItsDirectoryIsRenamedOut(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, r33NoProtected())
			r33Deny(w)
			for dir, body := range map[string]string{"scripts": "echo lint", "s.evil": "echo PWN"} {
				r33Must(t, os.MkdirAll(w.path(dir), 0o755))
				r33Must(t, os.WriteFile(w.path(dir+"/pc.sh"), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
			}
			r33Must(t, os.Symlink("../../scripts/pc.sh", w.path(".git/hooks/pre-commit")))
			r33Repolicy(w)
			res := w.run(`python3 -c 'import os; os.rename("scripts", "s.old"); os.rename("s.evil", "scripts")'`)
			if b, err := os.ReadFile(w.path(".git/hooks/pre-commit")); err == nil && strings.Contains(string(b), "PWN") {
				t.Errorf("THROUGH: the hook now runs the swapped script:\n%s", res.Text)
			}
		})
	}
}

// Attack (the end of a script's processes; HELD, high): a script leaves
// programs behind in shapes the end must find: a background sleep
// started from an EXIT trap, one disowned, a double-forking setsid chain
// (two hundred hops, each in a session of its own), and a shell that
// ignores TERM whose subshell ignores it too and starts a setsid sleep,
// and a shell that answers the end's TERM (during the grace) by starting
// a setsid sleep and exiting at once.
// HELD: endProcesses kills each live program's whole tree after the
// grace (the Landlock supervisor, stopped, is every orphan's subreaper;
// bubblewrap's PID namespace ends with its init). Safe outcome: no
// process with the marker is alive two seconds after the run.
func TestRedteam33_LeftoverShapesEndWithTheScript(t *testing.T) {
	shapes := []string{
		`trap "sleep 60 MARK &" EXIT; echo hi`,
		`sleep 60 MARK & disown; echo hi`,
		`python3 -c '
import os
for i in range(200):
    if os.fork(): os._exit(0)
    os.setsid()
    if os.fork(): os._exit(0)
os.execvp("sleep", ["sleep", "60", "MARK"])
' &
sleep 0.2; echo hi`,
		`sh -c 'trap "" TERM; (trap "" TERM; setsid sleep 60 MARK &); sleep 60' & sleep 0.2; echo hi`,
		`sh -c 'trap "setsid sleep 60 MARK & exit 0" TERM; sleep 60 & wait' & sleep 0.2; echo hi`,
	}
	for _, m := range r33Mechanisms {
		for i, shape := range shapes {
			t.Run(fmt.Sprintf("%s/%d", m, i), func(t *testing.T) {
				useMechanism(t, m)
				w := newWorld(t, gate.DefaultAuto())
				mark := r33Mark()
				res := w.run(strings.ReplaceAll(shape, "MARK", mark))
				time.Sleep(2 * time.Second)
				if pids := r33Marked(mark); len(pids) > 0 {
					t.Errorf("THROUGH: processes %v outlived the script:\n%s", pids, res.Text)
				}
			})
		}
	}
}

// Attack (the interpreter itself after a timeout; HELD, medium): a
// script whose loop is the shell's own (no program: nothing for a kill
// to reach) appends to a file for ever; the run times out. HELD: the
// interpreter stops with its context. Safe outcome: the file no longer
// grows once the result is back.
func TestRedteam33_ShellLoopStopsAtItsTimeout(t *testing.T) {
	useMechanism(t, Bubblewrap)
	w := newWorld(t, gate.DefaultAuto())
	res := w.runner.Run(context.Background(), Request{Script: "while :; do echo x >> f; done", Timeout: 700 * time.Millisecond})
	if res.Ending != TimedOut {
		t.Fatalf("ending %s:\n%s", res.Ending, res.Text)
	}
	before, err := os.Stat(w.path("f"))
	if err != nil {
		t.Fatalf("control: the loop wrote nothing: %v", err)
	}
	time.Sleep(time.Second)
	after, _ := os.Stat(w.path("f"))
	if after.Size() != before.Size() {
		t.Errorf("THROUGH: the script's loop went on writing after its end: %d → %d bytes", before.Size(), after.Size())
	}
}

// r33Must ends the test on a setup error.
func r33Must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// Attack (a process outside the sandbox run by the step; HELD, high): the
// user's editor (Neovim, unconfined) listens on its RPC socket in a
// directory the default auto set lets a step reach (outside, net); a
// step asks it to run `cat` of the private key (`nvim --server SOCK
// --remote-expr 'system(...)'`, the path split so that no word names the
// store), unasked, and again from a program approved to read
// ~/.ssh/known_hosts (narrowed secret: would the socket filter see
// secret as allowed?). HELD: no step can make a Unix socket (the filter
// sees the narrowed allowance, without secret), and the connection is
// refused. Safe outcome: the key is not printed.
func TestRedteam33_EditorRPCSocketRunsNothingForAStep(t *testing.T) {
	needTool(t, "nvim")
	for _, m := range r33Mechanisms {
		for _, approved := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/approved=%v", m, approved), func(t *testing.T) {
				w := r33World(t, m, gate.DefaultAuto())
				sock := filepath.Join(w.outside, "nvim.sock")
				nv := exec.Command("nvim", "--headless", "--listen", sock, "-u", "NONE")
				r33Must(t, nv.Start())
				t.Cleanup(func() { _ = nv.Process.Kill(); _ = nv.Wait() })
				for i := 0; i < 50 && !exists(sock); i++ {
					time.Sleep(100 * time.Millisecond)
				}
				if !exists(sock) {
					t.Fatal("setup: the editor did not listen")
				}
				half := strings.TrimSuffix(w.secret, "sh")
				ask := `nvim --server ` + sock + ` --remote-expr 'system("cat ` + half + `" . "sh/id_ed25519")'`
				script := ask
				if approved {
					r33Must(t, os.WriteFile(w.path("nv"), []byte("#!/bin/sh\n"+ask+"\n"), 0o755))
					script = "./nv ~/.ssh/known_hosts"
				} else {
					r33Deny(w)
				}
				res := w.run(script)
				if strings.Contains(res.Text, r33Key) {
					t.Errorf("THROUGH: the editor ran the step's command, unconfined:\n%s", res.Text)
				}
			})
		}
	}
}

// Attack (narrowing, a tree's approval; HELD since placesOf lends only what a named directory holds, when no named path lies in a place; was OPEN, high): with protected out
// of the auto set, `find sub -delete -exec ./evil {} +` asks protected
// because sub holds a repository (sub/.git). The question named sub, a
// plain directory; ./evil writes the workspace's own
// .git/hooks/pre-commit. Root cause: placesOf keeps only named paths
// that are themselves in a protected place; none is, so the approval
// stays whole (sandbox: "its approval stays whole") and every protected
// place is writable to the step's programs. Safe outcome: no pre-commit
// hook in the workspace's .git. Suggested fix: narrow a step judged
// protected (or secret) through a named directory to the protected
// (secret) entries at or below the named paths (the ones the tree walk
// found), never to nothing-narrowed; a step whose protected comes from
// no path at all should lend nothing rather than everything.
func TestRedteam33_TreeApprovalLendsEveryProtectedPlace(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, r33NoProtected())
			r33Must(t, os.MkdirAll(w.path("sub/.git"), 0o755))
			r33Must(t, os.WriteFile(w.path("evil"), []byte("#!/bin/sh\nprintf '#!/bin/sh\\necho PWN\\n' > .git/hooks/pre-commit\n"), 0o755))
			res := w.run("find sub -delete -exec ./evil {} +")
			if len(w.asker.asked()) == 0 {
				t.Fatalf("control: the step was not asked about:\n%s", res.Text)
			}
			if exists(w.path(".git/hooks/pre-commit")) {
				t.Errorf("THROUGH: an approval to remove sub (and sub/.git) let its program write the workspace's hook:\n%s", res.Text)
			}
		})
	}
}

// Attack (narrowing, a directory that holds a store; HELD since placesOf lends only what a named directory holds, when no named path lies in a place; was OPEN, high): the
// user approves `find ~ -maxdepth 0 -exec ./rd {} +` (asked secret: the
// home holds ~/.ssh). ./rd reads a token from another credential store,
// one outside the home (a vault directory elsewhere: an agent socket, a
// runtime directory). Root cause: placesOf drops the home (no secret
// place itself), leaving no named path, and the approval stays whole:
// every store on the machine is lent. Safe outcome: the vault's token is
// not printed. Suggested fix: as for the tree row: lend the secret
// entries at or below the named paths only.
func TestRedteam33_HomeApprovalLendsStoresOutsideIt(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			vault := filepath.Join(w.outside, "vault")
			r33Must(t, os.MkdirAll(vault, 0o700))
			r33Must(t, os.WriteFile(filepath.Join(vault, "token"), []byte("R33-VAULT-TOKEN\n"), 0o600))
			r33Must(t, os.WriteFile(w.path("rd"), []byte("#!/bin/sh\ncat \"$HOME/../outside/vault/token\"\n"), 0o755))
			r33Repolicy(w, vault)
			res := w.run("find ~ -maxdepth 0 -exec ./rd {} +")
			if len(w.asker.asked()) == 0 {
				t.Fatalf("control: the step was not asked about:\n%s", res.Text)
			}
			if strings.Contains(res.Text, "R33-VAULT-TOKEN") {
				t.Errorf("THROUGH: an approval naming the home lent a store outside it:\n%s", res.Text)
			}
		})
	}
}

// Attack (narrowing, `..` after a file; HELD since gate.Resolve keeps `..` after a file as written (it names nothing); was OPEN, medium): the user approves
// `./rk ~/.ssh/known_hosts/..` (the question shows known_hosts); ./rk
// prints the private key. Root cause: the gate resolves FILE/.. as the
// directory above the file (no such path exists: a program opening it
// gets ENOTDIR), so the named real path is ~/.ssh and the whole store
// is lent. Safe outcome: the key is not printed. Suggested fix: resolve
// a part after a non-directory as missing (or keep the spelled path for
// the narrowing, lending nothing for a path that cannot exist), and show
// the real path the question lends.
func TestRedteam33_DotDotAfterAFileLendsTheWholeStore(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			res := w.run("./rk ~/.ssh/known_hosts/..")
			if strings.Contains(res.Text, r33Key) {
				t.Errorf("THROUGH: known_hosts/.. lent the whole store:\n%s", res.Text)
			}
		})
	}
}

// Attack (narrowing, the named entry's directory moved; HELD since the shadows: the narrowed directory is a mount of its copy, which cannot be renamed; was OPEN, high):
// under the default auto set the user approves an unknown program's
// read of ~/.ssh/known_hosts. The program renames ~/.ssh away
// (~/stash); a later step, whose words name no credential store, reads
// ~/stash/id_ed25519 unasked. Root cause: under bubblewrap Narrow
// replaces the store's own mount by mounts on its entries, so the store
// directory is no mount point any more and its parent (writable: outside
// and protected are auto) can rename it; the policy knows the store by
// its path only. Safe outcome: the second step does not print the key
// (and ~/.ssh stays where it is). Suggested fix: keep a mount at the
// narrowed store itself (bind it onto itself, or a tmpfs holding the
// named entries bound in), so it cannot be renamed or removed; or follow
// a moved store by its inode (as hard links are).
func TestRedteam33_ApprovedKnownHostsReadMovesTheStoreOut(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			r33Must(t, os.WriteFile(w.path("mv.sh"), []byte("#!/bin/sh\nmv \"$HOME/.ssh\" \"$HOME/stash\"\n"), 0o755))
			w.run("./mv.sh ~/.ssh/known_hosts")
			r33Deny(w)
			res := w.run("cat ~/stash/id_ed25519")
			if strings.Contains(res.Text, r33Key) {
				t.Errorf("THROUGH: the store was moved out by the approved program and its key read unasked:\n%s", res.Text)
			}
			if !exists(filepath.Join(w.secret, "id_ed25519")) {
				t.Errorf("THROUGH: ~/.ssh is gone after an approval to read known_hosts")
			}
		})
	}
}

// Attack (narrowing, the repository moved; HELD since the shadows: .git is a mount of its copy, which cannot be renamed; was OPEN, medium): with protected
// out of the auto set, the user approves `sed -i` on .git/config; its e
// command renames .git to .gitx. Root cause: as for the store row, the
// narrowed .git is no mount point and its parent is writable. The
// repository is displaced: later unapproved steps write .gitx/hooks
// freely, live again once anyone moves it back. Safe outcome: .git is
// still the repository (its config there) and no .gitx exists.
// Suggested fix: as for the store row.
func TestRedteam33_ApprovedConfigEditMovesTheRepositoryAway(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, r33NoProtected())
			res := w.run("sed -i '1e mv .git .gitx' .git/config")
			if exists(w.path(".gitx")) || !exists(w.path(".git/config")) {
				t.Errorf("THROUGH: an approval to edit .git/config moved the repository:\n%s", res.Text)
			}
		})
	}
}

// Attack (narrowing, the store's listing; HELD since the shadows: the copy lists the named entries only; was OPEN, low): the approved
// reader of ~/.ssh/known_hosts lists ~/.ssh. Root cause: under
// bubblewrap each other entry is hidden by a mount of /dev/null at its
// own name, so the listing shows every key's name (id_ed25519 as a
// character device); under Landlock the listing is refused. Safe
// outcome: no other entry's name is printed. Suggested fix: a tmpfs at
// the store holding only the named entries (bound in), as the store's
// whole mount hides the names when nothing is approved.
func TestRedteam33_NarrowedStoreListsItsOtherKeys(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			res := w.run("sed -n '1e ls ~/.ssh' ~/.ssh/known_hosts")
			if strings.Contains(res.Text, "id_ed25519") {
				t.Errorf("THROUGH: the narrowed store's listing names the other key:\n%s", res.Text)
			}
		})
	}
}

// Attack (a learned secret target, its directory swapped; HELD since the look after a program covers each secret path, its store's links and the links on their way (withSecretChains): the new config is renamed out of use; was OPEN, high):
// a dotfiles workspace: ~/.ssh/config links to ROOT/ssh/config, which the
// policy learns as a secret entry (writing it by name asks). Under the
// default auto set a program renames ROOT/ssh away and makes a new
// ssh/config holding a ProxyCommand (a program ssh runs). Root cause:
// under bubblewrap the learned file is covered by a mount of its own,
// which does not pin its directory; no look after the step checks
// secret entries as one does protected ones. Safe outcome: ~/.ssh/config
// still reads as before. Suggested fix: pin the directory of each
// covered file (mount it onto itself read-only where it lies outside the
// workspace, or refuse the rename of a directory holding a covered
// entry), and look at the learned secret entries after each program as
// at protected ones.
func TestRedteam33_DotfilesSshConfigReplacedUnderItsDirectory(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			r33Deny(w)
			r33Must(t, os.MkdirAll(w.path("ssh"), 0o755))
			r33Must(t, os.WriteFile(w.path("ssh/config"), []byte("Host work\n"), 0o644))
			r33Must(t, os.Symlink(w.path("ssh/config"), filepath.Join(w.secret, "config")))
			r33Repolicy(w)
			res := w.run(`python3 -c 'import os; os.rename("ssh", "ssh.old"); os.mkdir("ssh"); open("ssh/config", "w").write("Host *\n  ProxyCommand sh -c PWN\n")'`)
			if b, _ := os.ReadFile(filepath.Join(w.secret, "config")); strings.Contains(string(b), "PWN") {
				t.Errorf("THROUGH: ~/.ssh/config now names a program, unasked:\n%s", res.Text)
			}
		})
	}
}

// Attack (a middle link of a secret chain; HELD since withSecretChains: the re-pointed link is renamed out of use; was OPEN, high): ~/.ssh/config
// links to ROOT/d/cfglink, a workspace link to ROOT/real. Writing
// d/cfglink by name asks secret (roles.go: a link a secret path resolves
// through), but a program replaces it (`tar -xf` of an archive, made
// beforehand, holding d/cfglink → ../evil). Root cause: no sandbox covers a symbolic link
// (a mount lands on its target; Landlock rules are on inodes reached),
// and nothing after the step checks that the secret path still resolves
// where it did. Safe outcome: ~/.ssh/config still reads as before.
// Suggested fix: cover the links on the way of each secret path as
// entries of their own (a read-only bind of their directory under
// bubblewrap, no remove right on it under Landlock), or check each
// learned chain after a program and restore or refuse a changed one.
func TestRedteam33_SecretChainMiddleLinkRepointed(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			w := r33World(t, m, gate.DefaultAuto())
			r33Deny(w)
			r33Must(t, os.MkdirAll(w.path("d"), 0o755))
			r33Must(t, os.WriteFile(w.path("real"), []byte("Host work\n"), 0o644))
			r33Must(t, os.WriteFile(w.path("evil"), []byte("Host *\n  ProxyCommand sh -c PWN\n"), 0o644))
			r33Must(t, os.Symlink(w.path("real"), w.path("d/cfglink")))
			r33Must(t, os.Symlink(w.path("d/cfglink"), filepath.Join(w.secret, "config")))
			r33Must(t, os.MkdirAll(w.path("t/d"), 0o755))
			r33Must(t, os.Symlink("../evil", w.path("t/d/cfglink")))
			if out, err := exec.Command("tar", "-C", w.path("t"), "-cf", w.path("t.tar"), "d").CombinedOutput(); err != nil {
				t.Fatalf("tar: %v %s", err, out)
			}
			r33Repolicy(w)
			res := w.run("tar -xf t.tar")
			if b, _ := os.ReadFile(filepath.Join(w.secret, "config")); strings.Contains(string(b), "PWN") {
				t.Errorf("THROUGH: ~/.ssh/config was re-pointed through its workspace link, unasked:\n%s", res.Text)
			}
		})
	}
}

// Attack (a middle link of a protected chain, linktargets.go; HELD
// since the look after a program knows a link by its target too
// (fileKey); was OPEN, high): .git/hooks links to ../hl, a workspace link to tools/hooks.
// learnProtected makes hl protected by its own path (`ln -sfn evilhooks
// hl` asks), but with protected out of the auto set a program replaces
// hl with a link to evilhooks, which holds a pre-commit. Root cause: as
// for the secret chain, no mount covers a link, and the look after the
// program renames the re-pointed link out of use in about one run in
// four only (bubblewrap; Landlock refuses the removal): the rest leave
// git running evilhooks/pre-commit. It seems to know an entry by its
// inode number, which ext4 gives the new link back at once most times
// (a removed inode is reused). Safe outcome: the hook git runs does
// not print PWN. Suggested fix: as for the secret chain; and compare a link's target
// (readlink), not its inode number, in the look after a program.
func TestRedteam33_HookChainMiddleLinkRepointed(t *testing.T) {
	for _, m := range r33Mechanisms {
		t.Run(string(m), func(t *testing.T) {
			// the look after the program renames the new link out of
			// use in some runs only: five tries, each a fresh world
			for try := 0; try < 5; try++ {
				w := r33World(t, m, r33NoProtected())
				r33Deny(w)
				r33Must(t, os.RemoveAll(w.path(".git/hooks")))
				for dir, body := range map[string]string{"tools/hooks": "echo lint", "evilhooks": "echo PWN"} {
					r33Must(t, os.MkdirAll(w.path(dir), 0o755))
					r33Must(t, os.WriteFile(w.path(dir+"/pre-commit"), []byte("#!/bin/sh\n"+body+"\n"), 0o755))
				}
				r33Must(t, os.Symlink("tools/hooks", w.path("hl")))
				r33Must(t, os.Symlink("../hl", w.path(".git/hooks")))
				r33Repolicy(w)
				res := w.run(`python3 -c 'import os; os.remove("hl"); os.symlink("evilhooks", "hl")'`)
				if b, _ := os.ReadFile(w.path(".git/hooks/pre-commit")); strings.Contains(string(b), "PWN") {
					t.Fatalf("THROUGH (try %d): the repository's hooks were re-pointed, unasked:\n%s", try+1, res.Text)
				}
			}
		})
	}
}

// Attack (false positive, the sandbox note; HELD since the note of a
// narrowed process names what its approval covered; was OPEN, low):
// under Landlock
// an approved reader of known_hosts is refused the other key (rightly);
// the note added to the reply says the step "ran without protected" and
// that a step approved with protected would be allowed it. Root cause:
// the note guesses the effect from the mechanism's refusal, not from
// the narrowing. Safe outcome: the note does not send the agent to ask
// for protected (it names secret, or the narrowing). Suggested fix:
// when a program ran narrowed, say that the approval covered the named
// paths only.
func TestRedteam33_LandlockNarrowedRefusalNamesTheWrongEffect(t *testing.T) {
	w := r33World(t, Landlock, r33NoProtected())
	res := w.run("./rk ~/.ssh/known_hosts")
	if strings.Contains(res.Text, "approved with protected would be allowed") {
		t.Errorf("THROUGH (false positive): the note asks for protected for a hidden key:\n%s", res.Text)
	}
	if !strings.Contains(res.Text, "approval covered only") {
		t.Errorf("the note does not say the approval covered the named path only:\n%s", res.Text)
	}
}
