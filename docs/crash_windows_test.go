package docs_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/docs"
)

// TestDisk_kill_leaves_no_mixed_state_windows is the kill -9 trials of
// crash_test.go where there is no SIGKILL: the child (TestDisk_crash_child)
// committing its ten files back and forth is ended by TerminateProcess
// at a random moment, then the journal it left is found by this process,
// one other, or two others at once, and every file must hold version A
// or every file version B, with no temp file, no journal and no name set
// aside (rename_windows.go) left. A child that ended before the kill
// ended on its own: a failure.
func TestDisk_kill_leaves_no_mixed_state_windows(t *testing.T) {
	if testing.Short() {
		t.Skip("kill trials: not in -short")
	}
	trials := min(*crashTrials, 20) // Wine starts a process in about a second
	root := t.TempDir()
	jdir := filepath.Join(t.TempDir(), "journal")
	crashSetup(t, root)
	exe, err := os.Executable()
	must(t, err)
	child := func(extra ...string) *exec.Cmd {
		cmd := exec.Command(exe, "-test.run=^TestDisk_crash_child$", "-test.count=1")
		cmd.Env = append(append(os.Environ(), crashChildEnv+"="+root+string(os.PathListSeparator)+jdir), extra...)
		return cmd
	}
	finished, rolledBack, before, none := 0, 0, 0, 0
	for trial := range trials {
		var cmd *exec.Cmd
		if trial%2 == 1 {
			cmd = child(crashChildEnv + "_BATCH=1")
		} else {
			cmd = child()
		}
		out, err := cmd.StdoutPipe()
		must(t, err)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		must(t, cmd.Start())
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || line != "ready\n" {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("trial %d: the child said %q (%v); stderr:\n%s", trial, line, err, stderr.String())
		}
		time.Sleep(time.Duration(rand.IntN(300_000)) * time.Microsecond)
		if err := cmd.Process.Kill(); err != nil {
			cmd.Wait()
			t.Fatalf("trial %d: the child ended on its own (%v); stderr:\n%s", trial, cmd.ProcessState, stderr.String())
		}
		cmd.Wait()
		var recs []docs.Recovery
		switch trial % 3 {
		case 0:
			d := docs.NewDisk()
			d.Journal, d.Root = jdir, root
			recs = d.Recover()
		default:
			finders := make([]*exec.Cmd, trial%3)
			outs := make([]bytes.Buffer, len(finders))
			for k := range finders {
				finders[k] = child(crashChildEnv + "_RECOVER=1")
				finders[k].Stdout = &outs[k]
				must(t, finders[k].Start())
			}
			for k, f := range finders {
				if err := f.Wait(); err != nil {
					t.Fatalf("trial %d: finder %d: %v\n%s", trial, k, err, outs[k].String())
				}
				line, _, _ := strings.Cut(outs[k].String(), "\n")
				var rs []docs.Recovery
				if err := json.Unmarshal([]byte(line), &rs); err != nil {
					t.Fatalf("trial %d: finder %d said %q", trial, k, outs[k].String())
				}
				recs = append(recs, rs...)
			}
		}
		if len(recs) == 0 {
			none++
		}
		for _, r := range recs {
			switch {
			case r.Err != nil || len(r.Left) > 0:
				t.Fatalf("trial %d: recovery: %s", trial, r.Text(func(s string) string { return s }))
			case r.Phase == "prepare":
				before++
			case r.Phase == "back":
				rolledBack++
			default:
				finished++
			}
		}
		if st := crashState(root); st != "A" && st != "B" {
			t.Fatalf("trial %d: mixed state after recovery: %s; recovery: %+v", trial, st, recs)
		}
		filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
			if err == nil && (docs.IsTemp(de.Name()) || strings.Contains(de.Name(), "~eukhe-replaced-")) {
				t.Fatalf("trial %d: %s left after recovery", trial, p)
			}
			return nil
		})
		if es := leftJournals(jdir); len(es) > 0 {
			t.Fatalf("trial %d: the journal directory holds %v after recovery", trial, es)
		}
	}
	t.Logf("%d trials: %d journals finished forward, %d rolled back, %d found before any publish, %d trials killed between commits", trials, finished, rolledBack, before, none)
}
