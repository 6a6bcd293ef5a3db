//go:build linux

package shell

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
)

func TestR20_RedirectReadOfProtectedSecret(t *testing.T) {
	w := newWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec, gate.Protected, gate.Outside)))
	home := filepath.Dir(w.secret)
	key := filepath.Join(w.secret, "id_ed25519")
	os.WriteFile(key, []byte(secretText+"\n"), 0o600)
	os.MkdirAll(w.path(".git/info"), 0o755)
	os.MkdirAll(w.path(".vscode"), 0o755)
	if err := os.Link(key, w.path(".git/info/key")); err != nil {
		t.Fatal(err)
	}
	os.Symlink(key, w.path(".vscode/settings.json"))
	w.runner.Gate.Policy = gate.Places{Roots: []string{w.root}, Home: home}.Policy(gate.OS)
	for _, s := range []string{"cat < .git/info/key", "cat < .vscode/settings.json", "while read l; do echo $l; done < .git/info/key", "cat 0< .git/info/key", "exec 3< .git/info/key; cat <&3"} {
		w.asker.answers = []gate.Answer{gate.Deny, gate.Deny, gate.Deny}
		res := w.run(s)
		if strings.Contains(res.Text, secretText) {
			t.Errorf("%s read the key:\n%s", s, res.Text)
		}
	}
}

func TestR20_StepSignalsServer(t *testing.T) {
	needTool(t, "python3")
	for _, m := range []Mechanism{Landlock, Bubblewrap} {
		t.Run(string(m), func(t *testing.T) {
			useMechanism(t, m)
			cw := newConfinedWorld(t, gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)), gate.Of(gate.Read, gate.Write, gate.Exec))
			got := make(chan os.Signal, 4)
			signal.Notify(got, syscall.SIGUSR1)
			defer signal.Stop(got)
			res := cw.run(fmt.Sprintf(`python3 -c 'import os, signal
try:
    os.kill(%d, signal.SIGUSR1); print("SENT")
except Exception as e: print("REFUSED", e)
try:
    os.kill(os.getppid(), signal.SIGUSR1); print("PARENT", os.getppid())
except Exception as e: print("PREFUSED", e)'`, os.Getpid()))
			select {
			case <-got:
				t.Errorf("the server took a signal from a step:\n%s", res.Text)
			case <-time.After(300 * time.Millisecond):
			}
			t.Log(res.Text)
		})
	}
}

func TestR20_RefusedLinkBroughtBack(t *testing.T) {
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
				os.MkdirAll(filepath.Join(repo, ".git", "hooks"), 0o755)
				os.WriteFile(filepath.Join(repo, ".git", "HEAD"), []byte("ref: refs/heads/main\n"), 0o644)
				os.MkdirAll(cw.path("sub"), 0o755)
				cw.run("true")
				res1 := cw.run("ln -s " + repo + " sub/deep")
				outs, _ := filepath.Glob(cw.path("sub/deep" + refusedSuffix + "*"))
				if len(outs) != 1 {
					t.Fatalf("control: the link to a repository was not renamed out of use: %v\n%s", outs, res1.Text)
				}
				res2 := cw.run(`python3 -c 'import os, glob; r = glob.glob("sub/deep.eukhe-refused-*")[0]; ` + how + `'`)
				for _, p := range []string{"sub/deep", "sub2/deep"} {
					if fi, err := os.Lstat(cw.path(p)); err == nil && fi.Mode()&os.ModeSymlink != 0 {
						t.Errorf("%s is a link in use after the step:\n%s\n%s", p, res1.Text, res2.Text)
					}
				}
				all, _ := filepath.Glob(cw.path("sub*/*"))
				t.Log(all)
			})
		}
	}
}
