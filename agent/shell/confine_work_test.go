package shell

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

// Real work still works confined: a go build with the build cache in
// shell.writableDirs, git status, git commit with protected allowed (and
// not without), pipelines, background processes, timeouts.

func forEachSandbox(t *testing.T, f func(t *testing.T, m Mechanism)) {
	for _, m := range []Mechanism{Bubblewrap, Landlock} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			f(t, m)
		})
	}
}

func TestConfinedGoBuild(t *testing.T) {
	needTool(t, "go")
	cache, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		t.Fatal(err)
	}
	gocache := strings.TrimSpace(string(cache))
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
		t.Cleanup(func() { _ = w.runner.Close() })
		w.runner.Env = append(w.runner.Env, "GOCACHE="+gocache, "GOFLAGS=-buildvcs=false", "GOTOOLCHAIN=local")
		w.runner.Confine.WritableDirs = func() []string { return []string{gocache} }
		w.write("go.mod", "module tiny\n\ngo 1.21\n")
		w.write("main.go", "package main\n\nimport \"fmt\"\n\nfunc main() { fmt.Println(\"tiny built\") }\n")
		res := w.run(`go build -o app . && ./app`)
		if !strings.Contains(res.Text, "tiny built") {
			t.Fatalf("go build did not work confined under %s:\n%s", m, res.Text)
		}
		// A directory outside is writable only while writableDirs names it.
		probe := w.outside + "/probe"
		w.runner.Confine.WritableDirs = func() []string { return []string{w.outside} }
		w.run(`sh -c 'echo in > "$0"' ` + probe)
		if !exists(probe) {
			t.Fatalf("a writableDirs entry was not writable under %s", m)
		}
		w.runner.Confine.WritableDirs = nil
		w.run(`sh -c 'echo in > "$0"' ` + probe + `2`)
		if exists(probe + "2") {
			t.Fatalf("a directory outside was writable without writableDirs under %s", m)
		}
	})
}

func TestConfinedGit(t *testing.T) {
	needTool(t, "git")
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
		t.Cleanup(func() { _ = w.runner.Close() })
		if out, err := exec.Command("git", "init", "-q", w.root).CombinedOutput(); err != nil {
			t.Fatalf("git init: %v\n%s", err, out)
		}
		w.write("a.txt", "a\n")
		res := w.run(`git status --short`)
		if !strings.Contains(res.Text, "?? a.txt") {
			t.Fatalf("git status confined under %s:\n%s", m, res.Text)
		}
		commit := `git -c user.name=t -c user.email=t@e -c commit.gpgsign=false commit -q --allow-empty -m confined`
		// Without protected, .git is read-only: the commit fails, and the
		// reply names the effect that would allow it.
		res = w.run(commit)
		if log, _ := exec.Command("git", "-C", w.root, "log", "--oneline").CombinedOutput(); strings.Contains(string(log), "confined") {
			t.Fatalf("a commit landed without protected under %s:\n%s", m, res.Text)
		}
		if !strings.Contains(res.Text, "[sandbox ("+string(m)+")") || !strings.Contains(res.Text, "protected") {
			t.Fatalf("no sandbox line naming protected:\n%s", res.Text)
		}
		w.runner.Gate.Auto = func() gate.AutoSet {
			return gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec, gate.Protected))
		}
		res = w.run(commit)
		if log, _ := exec.Command("git", "-C", w.root, "log", "--oneline").CombinedOutput(); !strings.Contains(string(log), "confined") {
			t.Fatalf("git commit with protected allowed did not land under %s:\n%s\n%s", m, res.Text, log)
		}
	})
}

func TestConfinedPipelinesJobsTimeouts(t *testing.T) {
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		w := newWorld(t, gate.DefaultAuto())
		t.Cleanup(func() { _ = w.runner.Close() })
		res := w.run(`printf 'b\na\nc\n' | sort | head -n 1`)
		if !strings.Contains(res.Text, "\na\n[exit 0 | 0 | 0]") {
			t.Fatalf("a pipeline under %s:\n%s", m, res.Text)
		}
		res = w.run(`yes | head -n 2`)
		if !strings.Contains(res.Text, "[exit 141 | 0]") {
			t.Fatalf("a writer to a closed pipe under %s does not end 141:\n%s", m, res.Text)
		}
		res = w.run(`sh -c 'sleep 0.2 & echo started; wait; echo waited'`)
		if !strings.Contains(res.Text, "started\nwaited") {
			t.Fatalf("a background process under %s:\n%s", m, res.Text)
		}
		marker := fmt.Sprint(400 + time.Now().UnixNano()%1000)
		r := w.runner.Run(context.Background(), Request{Script: `sleep ` + marker, Timeout: 300 * time.Millisecond})
		if r.Ending != TimedOut {
			t.Fatalf("timeout under %s: %s\n%s", m, r.Ending, r.Text)
		}
		eventually(t, "the timed out sleep is gone", func() bool { return len(sleepers(marker)) == 0 })
	})
}

// A step's own exit status and signals come through the sandbox.
func TestConfinedExitStatus(t *testing.T) {
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		w := newWorld(t, gate.DefaultAuto())
		t.Cleanup(func() { _ = w.runner.Close() })
		res := w.run(`sh -c 'exit 7'`)
		if res.Status != 7 {
			t.Fatalf("exit 7 under %s gave %d:\n%s", m, res.Status, res.Text)
		}
		res = w.run(`no-such-program-here`)
		if res.Status != 127 {
			t.Fatalf("a missing program under %s gave %d:\n%s", m, res.Status, res.Text)
		}
		if _, err := os.Stat(w.path(".")); err != nil {
			t.Fatal(err)
		}
	})
}

// A protected entry a step makes without protected (git init, a new
// .vscode) cannot be mounted read-only before it exists: when the process
// ends it is renamed out of use, and the reply says so. With protected
// allowed it stays.
func TestConfinedMadeProtectedEntryIsRenamed(t *testing.T) {
	needTool(t, "git")
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)), gate.Of(gate.Read))
		res := cw.run(`git init -q sub`)
		// Landlock cannot let a file be made directly in a root that holds
		// a read-only .git: there git init fails before it starts.
		if exists(cw.path("sub/.git")) || !strings.Contains(res.Text, "without protected") && m != Landlock {
			t.Fatalf("git init made sub/.git without protected under %s, and it stayed:\n%s", m, res.Text)
		}
		res = cw.run(`sh -c 'mkdir src/.git && echo x > src/.git/config'`)
		if exists(cw.path("src/.git")) || !strings.Contains(res.Text, ".eukhe-refused-") {
			t.Fatalf("src/.git was made without protected under %s, and it stayed:\n%s", m, res.Text)
		}
		cw.runner.Gate.Auto = func() gate.AutoSet {
			return gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec, gate.Protected))
		}
		res = cw.run(`git init -q src/sub2`)
		if !exists(cw.path("src/sub2/.git")) || strings.Contains(res.Text, "[sandbox") {
			t.Fatalf("git init with protected allowed under %s:\n%s", m, res.Text)
		}
	})
}

// A step that may write inside writes in any directory of the root it
// has moved to (the working directory is kept visible, never made
// read-only).
func TestConfinedWriteFromASubdirectory(t *testing.T) {
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)))
		t.Cleanup(func() { _ = w.runner.Close() })
		w.write("sub/keep", "x\n")
		res := w.run(`cd sub && touch made`)
		if !exists(w.path("sub/made")) {
			t.Fatalf("touch in a subdirectory of the root under %s:\n%s", m, res.Text)
		}
	})
}

// A confined program has no capability, even run by root: neither
// sandbox lets it load a module or make a disk's device node.
func TestConfinedHasNoCapabilities(t *testing.T) {
	needTool(t, "python3")
	forEachSandbox(t, func(t *testing.T, m Mechanism) {
		w := newWorld(t, gate.DefaultAuto())
		t.Cleanup(func() { _ = w.runner.Close() })
		res := w.run(`python3 -c 'print([l for l in open("/proc/self/status") if l.startswith(("CapEff", "CapPrm", "CapBnd"))])'`)
		// The bounding set may stay: with no_new_privs and nothing
		// permitted, an exec cannot gain a capability back.
		for _, c := range []string{"CapEff", "CapPrm"} {
			if !strings.Contains(res.Text, c+":\\t0000000000000000") {
				t.Fatalf("%s is not empty under %s:\n%s", c, m, res.Text)
			}
		}
		w.run(`python3 -c 'import os, stat; os.mknod("disk", 0o600 | stat.S_IFBLK, os.makedev(7, 0))'`)
		if exists(w.path("disk")) {
			t.Fatalf("a device node was made under %s", m)
		}
	})
}
