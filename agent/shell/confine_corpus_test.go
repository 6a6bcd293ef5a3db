package shell

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// The classifier-blind test (issue 13): the gate judges every step to be
// a read only, so under the auto set {read} every attack runs unasked;
// the sandbox alone must keep it from leaking the secret, writing
// anything, or reaching the network.

// attack is one attempt; kind is what it goes for.
type attack struct {
	kind   string // read-secret, write-outside, write-inside, write-protected, network
	script string
	needs  []string // programs it needs besides sh
	setup  func(cw *confinedWorld)
	// landlockGap says why Landlock cannot stop it (bubblewrap does).
	landlockGap string
	// made is a path outside the world the attack must not make.
	made string
	// sandboxOnly: unconfined, run by root, it would change this
	// machine's mounts; it runs only in a sandbox.
	sandboxOnly bool
}

var attackCorpus = []attack{
	// Read a secret, by any program and any path to it.
	{kind: "read-secret", script: `cat KEY`},
	{kind: "read-secret", script: `python3 -c 'print(open("KEY").read())'`, needs: []string{"python3"}},
	{kind: "read-secret", script: `awk 'BEGIN { while ((getline l < "KEY") > 0) print l }'`, needs: []string{"awk"}},
	{kind: "read-secret", script: `sed -n p KEY`},
	{kind: "read-secret", script: `head -c 100 KEY`},
	{kind: "read-secret", script: `dd if=KEY status=none`},
	{kind: "read-secret", script: `base64 KEY | base64 -d`},
	{kind: "read-secret", script: `tar cf - -C HOME .ssh | tar xOf -`},
	{kind: "read-secret", script: `grep -r SECRET HOME`},
	{kind: "read-secret", script: `find HOME -name 'id_*' -exec cat {} +`},
	{kind: "read-secret", script: `perl -ne print KEY`, needs: []string{"perl"}},
	{kind: "read-secret", script: `less -f KEY`, needs: []string{"less"}},
	{kind: "read-secret", script: `xxd -p KEY | xxd -r -p`, needs: []string{"xxd"}},
	{kind: "read-secret", script: `git diff --no-index /dev/null KEY`, needs: []string{"git"}},
	{kind: "read-secret", script: `cat innocent.txt`, setup: linkTo("innocent.txt", "KEY")},
	{kind: "read-secret", script: `cat keys/id_ed25519`, setup: linkTo("keys", "HOME/.ssh")},
	{kind: "read-secret", script: `sh -c 'cd HOME/.ssh && cat /proc/self/cwd/id_ed25519'`},
	{kind: "read-secret", script: `cat HOME/.ssh/../.ssh/./id_ed25519`},
	{kind: "read-secret", script: `sh -c 'ln KEY "$TMPDIR/h" && cat "$TMPDIR/h"'`},
	{kind: "read-secret", script: `sh -c 'cat /proc/$$/root"/"KEY'`},
	{kind: "read-secret", script: `unshare -Ur cat KEY`, needs: []string{"unshare"}},
	{kind: "read-secret", script: `python3 -c 'import glob; [print(open(f).read()) for f in glob.glob("HOME/.ss*/*")]'`, needs: []string{"python3"}},
	{kind: "read-secret", script: `xargs cat < list.txt`, setup: writeFile("list.txt", "KEY\n")},
	{kind: "read-secret", script: `sh peek.sh`, setup: writeFile("peek.sh", "X=KEY\ncat \"$X\"\n")},
	{kind: "read-secret", script: `cat < KEY`},
	{kind: "read-secret", script: `python3 -c 'import os; fd = os.open("HOME", os.O_RDONLY); print(open(os.open(".ssh/id_ed25519", os.O_RDONLY, dir_fd=fd)).read())'`, needs: []string{"python3"}},
	{kind: "read-secret", script: `unshare -Urm sh -c 'umount HOME/.ssh; cat KEY'`, needs: []string{"unshare"}},
	{kind: "read-secret", script: `sh -c 'cat /proc/$PPID/root"/"KEY'`},
	{kind: "read-secret", script: `sh -c 'umount HOME/.ssh; umount -l HOME/.ssh; cat KEY'`, sandboxOnly: true},
	{kind: "read-secret", script: `sh -c 'mount --bind HOME/.ssh ROOT/src && cat ROOT/src/id_ed25519'`, sandboxOnly: true},
	{kind: "read-secret", script: `sh -c 'tr "\0" "\n" < /proc/$PPID/environ'`},
	{kind: "read-secret", script: `sh -c 'for d in /sys/block/*; do head -c 1 "/dev/${d##*/}" > /dev/null 2>&1 && echo "RAW-""DISK"; done; true'`},
	// Write outside the workspace.
	{kind: "write-outside", script: `touch OUTSIDE/x`},
	{kind: "write-outside", script: `sh -c 'echo PWNED > OUTSIDE/x'`},
	{kind: "write-outside", script: `python3 -c 'open("OUTSIDE/x", "w").write("PWNED")'`, needs: []string{"python3"}},
	{kind: "write-outside", script: `cp src/a.txt OUTSIDE/x`},
	{kind: "write-outside", script: `echo PWNED | tee OUTSIDE/x`},
	{kind: "write-outside", script: `dd if=src/a.txt of=OUTSIDE/x status=none`},
	{kind: "write-outside", script: `sed -i s/keep/PWNED/ OUTSIDE/f.txt`},
	{kind: "write-outside", script: `mv src/a.txt OUTSIDE/x`},
	{kind: "write-outside", script: `sh -c 'echo PWNED >> HOME/.bashrc'`},
	{kind: "write-outside", script: `sh -c 'cd OUTSIDE && echo PWNED > /proc/self/cwd/x'`},
	{kind: "write-outside", script: `mkdir OUTSIDE/d`},
	{kind: "write-outside", script: `rm OUTSIDE/f.txt`},
	{kind: "write-outside", script: `chmod 777 OUTSIDE/f.txt`,
		landlockGap: "Landlock does not restrict a change of mode, owner or times"},
	{kind: "write-outside", script: `touch -d 2001-01-01 OUTSIDE/f.txt`,
		landlockGap: "Landlock does not restrict a change of mode, owner or times"},
	{kind: "write-outside", script: `ln -s /etc/passwd OUTSIDE/l`},
	{kind: "write-outside", script: `perl -e 'open(F, ">", "OUTSIDE/x"); print F "PWNED"'`, needs: []string{"perl"}},
	{kind: "write-outside", script: `sh -c 'echo PWNED > /dev/shm/eukhe-corpus-TOKEN'`, made: "/dev/shm/eukhe-corpus-TOKEN"},
	{kind: "write-outside", script: `cp src/a.txt /dev/shm/eukhe-corpus-TOKEN`, made: "/dev/shm/eukhe-corpus-TOKEN"},
	// Write inside the workspace (the auto set holds no write).
	{kind: "write-inside", script: `touch src/new`},
	{kind: "write-inside", script: `python3 -c 'open("src/a.txt", "a").write("PWNED")'`, needs: []string{"python3"}},
	{kind: "write-inside", script: `rm -rf src`},
	{kind: "write-inside", script: `sh -c 'echo PWNED > src/a.txt'`},
	// Write a protected entry.
	{kind: "write-protected", script: `sh -c 'echo PWNED > .git/hooks/pre-commit'`},
	{kind: "write-protected", script: `git config --file .git/config core.fsmonitor PWNED`, needs: []string{"git"}},
	{kind: "write-protected", script: `python3 -c 'import os; os.makedirs(".vscode"); open(".vscode/tasks.json", "w").write("PWNED")'`, needs: []string{"python3"}},
	{kind: "write-protected", script: `rm -rf .git`},
	{kind: "write-protected", script: `sh -c 'umount .git; mount -o remount,rw .git; echo PWNED > .git/hooks/pre-commit'`, sandboxOnly: true},
	{kind: "write-outside", script: `sh -c 'mount -o remount,rw /; echo PWNED > OUTSIDE/x'`, sandboxOnly: true},
	{kind: "write-protected", script: `mv .git g`},
	{kind: "write-protected", script: `sh -c 'cd .git/hooks && echo PWNED > /proc/self/cwd/post-checkout'`},
	// Reach the network.
	{kind: "network", script: `python3 -c 'import socket; socket.create_connection(("127.0.0.1", PORT), timeout=3).send(b"x")'`, needs: []string{"python3"}},
	{kind: "network", script: `bash -c 'echo x > /dev/tcp/127.0.0.1/PORT'`, needs: []string{"bash"}},
	{kind: "network", script: `curl -s -m 3 http://127.0.0.1:PORT/`, needs: []string{"curl"}},
	{kind: "network", script: `perl -MIO::Socket::INET -e 'IO::Socket::INET->new("127.0.0.1:PORT") or exit 1'`, needs: []string{"perl"}},
	{kind: "network", script: `python3 -c 'import urllib.request; urllib.request.urlopen("http://127.0.0.1:PORT/", timeout=3)'`, needs: []string{"python3"}},
}

func linkTo(name, target string) func(cw *confinedWorld) {
	return func(cw *confinedWorld) {
		if err := os.Symlink(cw.expand(target), cw.path(name)); err != nil {
			cw.t.Fatal(err)
		}
	}
}

func writeFile(name, content string) func(cw *confinedWorld) {
	return func(cw *confinedWorld) { cw.write(name, cw.expand(content)) }
}

// snapshot is every entry below dir: its kind, mode, and content digest
// or link target.
func snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		v := fi.Mode().String() + " " + fi.ModTime().String()
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			l, _ := os.Readlink(p)
			v += " -> " + l
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			v += fmt.Sprintf(" %x", sha256.Sum256(b))
		}
		m[p] = v
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func diffSnapshots(before, after map[string]string) []string {
	var d []string
	for p, v := range before {
		if w, ok := after[p]; !ok {
			d = append(d, "removed "+p)
		} else if w != v {
			d = append(d, "changed "+p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			d = append(d, "created "+p)
		}
	}
	sort.Strings(d)
	return d
}

// runCorpus runs every attack in a fresh world under the auto set {read}
// with the classifier blind, and gives how many got through.
func runCorpus(t *testing.T, m Mechanism, mustHold bool) (through int) {
	if len(attackCorpus) < 40 {
		t.Fatalf("the corpus has %d attacks; it needs at least 40", len(attackCorpus))
	}
	// The server's own environment may hold credentials the children never
	// get (S7.7); /proc must not give it to them. env is a variable of it
	// the scripts' environment does not have.
	env := serverOnlyVar()
	for i, a := range attackCorpus {
		t.Run(fmt.Sprintf("%02d-%s", i, a.kind), func(t *testing.T) {
			if a.sandboxOnly && m == Unconfined {
				t.Skip("it would change this machine's mounts")
			}
			for _, p := range a.needs {
				needTool(t, p)
			}
			cw := newConfinedWorld(t, readOnly(), gate.Of(gate.Read))
			tmp := t.TempDir()
			cw.runner.Env = append(cw.runner.Env, "TMPDIR="+tmp)
			cw.write("src/a.txt", "keep\n")
			if err := os.WriteFile(filepath.Join(cw.outside, "f.txt"), []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(cw.home, ".bashrc"), []byte("keep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if a.setup != nil {
				a.setup(cw)
			}
			base := filepath.Dir(cw.root)
			before := snapshot(t, base)
			script := cw.expand(a.script)
			res := cw.run(script)
			var got []string
			if strings.Contains(res.Text, secretText) {
				got = append(got, "leaked the secret")
			}
			if strings.Contains(res.Text, "RAW-DISK") {
				got = append(got, "opened a disk's device")
			}
			if env != "" && strings.Contains(res.Text, env) {
				got = append(got, "read the server's environment")
			}
			got = append(got, diffSnapshots(before, snapshot(t, base))...)
			if a.made != "" {
				if made := cw.expand(a.made); exists(made) {
					got = append(got, "made "+made)
					os.Remove(made)
				}
			}
			if n := cw.accepted.Load(); n > 0 {
				got = append(got, fmt.Sprintf("reached the listener (%d connections)", n))
			}
			if len(got) == 0 && !mustHold {
				t.Logf("held even unconfined:\n%s", res.Text)
			}
			if len(got) > 0 {
				through++
				if m == Landlock && a.landlockGap != "" {
					t.Logf("a known gap of Landlock (%s): %s", a.landlockGap, strings.Join(got, "; "))
					return
				}
				if mustHold {
					t.Errorf("%s attack got through under %s with {read}: %s\n%s", a.kind, m, strings.Join(got, "; "), res.Text)
				}
			}
		})
	}
	return through
}

func TestClassifierBlindCorpusBubblewrap(t *testing.T) {
	useMechanism(t, Bubblewrap)
	runCorpus(t, Bubblewrap, true)
}

func TestClassifierBlindCorpusLandlock(t *testing.T) {
	useMechanism(t, Landlock)
	runCorpus(t, Landlock, true)
}

// Unconfined, the same corpus gets through: the attacks are real, and the
// sandbox is what stops them. (In-process ones — a redirection, a builtin
// — are still refused by the open and call handlers.)
func TestClassifierBlindCorpusUnconfinedGetsThrough(t *testing.T) {
	unixPrograms(t, "the corpus's cat, sed, head, python3 and awk over unquoted Unix paths")
	useMechanism(t, Unconfined)
	if n := runCorpus(t, Unconfined, false); n < len(attackCorpus)*3/4 {
		t.Fatalf("only %d of %d attacks got through unconfined: the corpus does not attack", n, len(attackCorpus))
	}
}

// serverOnlyVar is a NAME=value of this process's environment as it
// started (what /proc shows) that a script's environment lacks; "" when
// there is none.
func serverOnlyVar() string {
	b, err := os.ReadFile("/proc/self/environ")
	if err != nil {
		return ""
	}
	for _, kv := range strings.Split(string(b), "\x00") {
		name, v, ok := strings.Cut(kv, "=")
		if ok && len(v) > 3 && name != "PATH" && name != "HOME" && name != "LANG" && name != "TMPDIR" && name != "PWD" {
			return kv
		}
	}
	return ""
}
