package docs_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/docs"
)

// Real crashes: a child process (this test binary again) commits a
// ten-file change back and forth, from one version of every file to the
// other, with the intent journal on; the parent kills it with SIGKILL at a
// random moment, then recovers as the next start of eukhe would, and
// checks that every file holds version A or every file version B, and
// that no temp file or journal is left. The finder of the journal is, in
// turn, the parent, one other process, or two other processes at once. One of the ten changes is a move
// with an edit (x.txt at A, y.txt at B).

var crashTrials = flag.Int("crash.trials", 60, "kill -9 trials of TestDisk_kill9_leaves_no_mixed_state (the issue's bar is 1000)")

const crashChildEnv = "EUKHE_CRASH_CHILD"

// crashFiles are the ten files: nine replaced in place over three
// directories, and one moved between m/x.txt and m/y.txt.
func crashFiles() []string {
	var out []string
	for i := range 9 {
		out = append(out, fmt.Sprintf("d%d/f%d.txt", i%3, i))
	}
	return out
}

var crashVersions = map[string][]byte{}

// crashVersion is file i's bytes at version v ("A" or "B"): about 64 KB,
// so that the writes and fsyncs of a commit take a while.
func crashVersion(i int, v string) []byte {
	k := fmt.Sprint(i, v)
	if b, ok := crashVersions[k]; ok {
		return b
	}
	var b bytes.Buffer
	defer func() { crashVersions[k] = b.Bytes() }()
	for l := range 2000 {
		fmt.Fprintf(&b, "file %d line %d version %s ..........\n", i, l, v)
	}
	return b.Bytes()
}

func crashSetup(t *testing.T, root string) {
	for i, f := range crashFiles() {
		must(t, os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755))
		must(t, os.WriteFile(filepath.Join(root, f), crashVersion(i, "A"), 0o644))
	}
	must(t, os.MkdirAll(filepath.Join(root, "m"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, "m", "x.txt"), crashVersion(9, "A"), 0o644))
}

// crashState says which version every file holds: "A", "B", or a
// description of a mixed state.
func crashState(root string) string {
	var got []string
	for i, f := range crashFiles() {
		b, err := os.ReadFile(filepath.Join(root, f))
		switch {
		case err != nil:
			got = append(got, f+": "+err.Error())
		case bytes.Equal(b, crashVersion(i, "A")):
			got = append(got, "A")
		case bytes.Equal(b, crashVersion(i, "B")):
			got = append(got, "B")
		default:
			got = append(got, f+": other bytes")
		}
	}
	x, errX := os.ReadFile(filepath.Join(root, "m", "x.txt"))
	y, errY := os.ReadFile(filepath.Join(root, "m", "y.txt"))
	switch {
	case errX == nil && errY != nil && bytes.Equal(x, crashVersion(9, "A")):
		got = append(got, "A")
	case errY == nil && errX != nil && bytes.Equal(y, crashVersion(9, "B")):
		got = append(got, "B")
	default:
		got = append(got, fmt.Sprintf("m: x %v %d bytes, y %v %d bytes", errX, len(x), errY, len(y)))
	}
	for _, g := range got[1:] {
		if g != got[0] {
			return strings.Join(got, ", ")
		}
	}
	return got[0]
}

// TestDisk_crash_child is the child: it recovers, says "ready", then
// commits A→B→A… until it is killed. It runs only when the parent asks.
func TestDisk_crash_child(t *testing.T) {
	spec := os.Getenv(crashChildEnv)
	if spec == "" {
		t.Skip("the child of TestDisk_kill9_leaves_no_mixed_state")
	}
	root, jdir, _ := strings.Cut(spec, string(os.PathListSeparator))
	if os.Getenv(crashChildEnv+"_RECOVER") != "" {
		// Another process's start: recover, say what was done, end.
		d := docs.NewDisk()
		d.Journal, d.Root = jdir, root
		out, _ := json.Marshal(d.Recover())
		fmt.Println(string(out))
		return
	}
	d := docs.NewDisk()
	d.Journal, d.Root = jdir, root
	// Publishing is a few renames, far quicker than writing and syncing
	// the temp files: a pause before each widens the window a kill must
	// hit to catch a commit half published.
	d.Fault = func(step, _ string) error {
		switch step {
		case "rename", "link", "unlink":
			time.Sleep(time.Duration(rand.IntN(1500)) * time.Microsecond)
		}
		return nil
	}
	// Half the trials commit as the edit tool does for several files: a
	// batch begun first, its temp files written before the commit (with no
	// Fault hook: the disk does nothing early with one).
	batch := os.Getenv(crashChildEnv+"_BATCH") != ""
	if batch {
		d.Fault = nil
	}
	d.Recover()
	for i := range 10 {
		crashVersion(i, "A")
		crashVersion(i, "B")
	}
	fmt.Println("ready")
	for {
		from, to := "A", "B"
		if crashState(root) == "B" {
			from, to = "B", "A"
		}
		var cs []docs.Change
		for i, f := range crashFiles() {
			cs = append(cs, docs.Change{Path: filepath.Join(root, f), Old: crashVersion(i, from), New: crashVersion(i, to)})
		}
		src, dst := filepath.Join(root, "m", "x.txt"), filepath.Join(root, "m", "y.txt")
		if from == "B" {
			src, dst = dst, src
		}
		cs = append(cs, docs.Change{Path: src, Old: crashVersion(9, from), New: crashVersion(9, to), MoveTo: dst})
		var res docs.Committed
		if batch {
			var paths []string
			for _, c := range cs {
				paths = append(paths, c.Path)
			}
			b := d.Begin(append(paths, dst))
			for _, c := range cs[:len(cs)-1] {
				b.Write(c.Path, c.New)
			}
			for i := range cs {
				cs[i].Begun = b
			}
			res = d.Commit(cs)
			b.Close()
		} else {
			res = d.Commit(cs)
		}
		if res.Conflict != nil {
			fmt.Fprintln(os.Stderr, "conflict:", res.Conflict.Why)
			os.Exit(3)
		}
		for _, o := range res.Outcomes {
			if o.Fate != docs.Landed || o.Warning != "" {
				fmt.Fprintf(os.Stderr, "outcomes: %+v\n", res.Outcomes)
				os.Exit(3)
			}
		}
	}
}

func TestDisk_kill9_leaves_no_mixed_state(t *testing.T) {
	if testing.Short() {
		t.Skip("kill -9 trials: not in -short")
	}
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no SIGKILL: TerminateProcess ends the child with exit status 1, which this test reads as the child ending on its own (crash_windows_test.go kills and recovers there)")
	}
	root := t.TempDir()
	jdir := filepath.Join(t.TempDir(), "journal")
	crashSetup(t, root)
	exe, err := os.Executable()
	must(t, err)
	finished, rolledBack, before, none := 0, 0, 0, 0
	for trial := range *crashTrials {
		cmd := exec.Command(exe, "-test.run=^TestDisk_crash_child$", "-test.count=1")
		cmd.Env = append(os.Environ(), crashChildEnv+"="+root+string(os.PathListSeparator)+jdir)
		if trial%2 == 1 {
			cmd.Env = append(cmd.Env, crashChildEnv+"_BATCH=1")
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
		time.Sleep(time.Duration(rand.IntN(150_000)) * time.Microsecond)
		must(t, cmd.Process.Signal(syscall.SIGKILL))
		cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("trial %d: the child ended on its own (%v); stderr:\n%s", trial, cmd.ProcessState, stderr.String())
		}
		// Whoever finds the journal: this process, the next start of
		// another, or two others at once.
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
				finders[k] = exec.Command(exe, "-test.run=^TestDisk_crash_child$", "-test.count=1")
				finders[k].Env = append(os.Environ(), crashChildEnv+"="+root+string(os.PathListSeparator)+jdir, crashChildEnv+"_RECOVER=1")
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
			if err == nil && docs.IsTemp(de.Name()) {
				t.Fatalf("trial %d: temp file %s left after recovery", trial, p)
			}
			return nil
		})
		if es := leftJournals(jdir); len(es) > 0 {
			t.Fatalf("trial %d: the journal directory holds %v after recovery", trial, es)
		}
	}
	t.Logf("%d trials: %d journals finished forward, %d rolled back, %d found before any publish, %d trials killed between commits", *crashTrials, finished, rolledBack, before, none)
}
