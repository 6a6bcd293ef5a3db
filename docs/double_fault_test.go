//go:build !windows

package docs_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// A double fault (issue: nothing lost): a publish fails (EIO) after some
// files landed, and from then on the disk is full — every step that needs
// new space fails (a temp file, its write, a journal written anew, a
// directory made) for the workspace and the journal's directory alike.
// The restore needs none (each old file kept by a second name before the
// first publish, the way back written beside the journal): every file
// ends old, the reply says so, and no temp file stays in the workspace.
func TestDisk_double_fault_restores_without_new_space(t *testing.T) {
	eio := syscall.EIO
	enospc := syscall.ENOSPC
	needsSpace := map[string]bool{"journal": true, "temp": true, "write": true, "fsync": true, "mkdir": true, "keep": true}
	// learn the publishes of the clean edit
	clean := newRig(t, t.TempDir(), sixFiles())
	clean.readAll(t)
	var publishes []string
	clean.disk.Fault = func(step, path string) error {
		if step == "rename" || step == "link" {
			rel, _ := filepath.Rel(clean.root, path)
			publishes = append(publishes, step+" "+filepath.ToSlash(rel))
		}
		return nil
	}
	if res := clean.tools.Edit(context.Background(), docs.EditArgs{Patch: clean.patch()}); res.Failed {
		t.Fatalf("clean edit: %s", res.Text)
	}
	for k := 1; k < len(publishes); k++ { // the first publish failing leaves nothing to restore
		t.Run(fmt.Sprintf("%d-%s", k, strings.ReplaceAll(publishes[k], "/", "_")), func(t *testing.T) {
			r := newRig(t, t.TempDir(), sixFiles())
			r.readAll(t)
			n, full := 0, false
			r.disk.Fault = func(step, path string) error {
				if step == "rename" || step == "link" {
					if n == k && !full {
						full = true
						return eio
					}
					n++
				}
				if full && needsSpace[step] {
					return enospc
				}
				return nil
			}
			res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
			if !full {
				t.Fatalf("the fault was never reached: %s", res.Text)
			}
			r.checkTruthful(t, res)
			if !res.Failed || !strings.Contains(res.Text, "NOT applied") {
				t.Fatalf("the reply: %s", res.Text)
			}
			for _, f := range r.files {
				if st, why := r.state(t, f); st != stateOld {
					t.Fatalf("%s holds %s %s after the restore; reply:\n%s", f.label(), st, why, res.Text)
				}
			}
			if left := tempFilesUnder(t, r.root); len(left) > 0 {
				t.Fatalf("temp files stay in the workspace: %v", left)
			}
			if j := leftJournals(r.disk.Journal); len(j) > 0 {
				t.Fatalf("journals stay: %v", j)
			}
		})
	}
}

// The old file a commit keeps for its restore is a second name of it only
// where a write runs unasked: a file the judge guards (a secret, a
// protected file) is copied instead, so no new name of it appears that
// the sandbox neither hides nor binds read-only.
func TestDisk_a_guarded_file_is_kept_by_a_copy_not_a_second_name(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{".env", "a.txt"} {
		must(t, os.WriteFile(filepath.Join(root, f), []byte(f+" old\n"), 0o644))
	}
	d := docs.NewDisk()
	d.Journal, d.Root = filepath.Join(t.TempDir(), "journal"), root
	d.Judge = func(real string) string {
		if filepath.Base(real) == ".env" {
			return "a write there is write+secret and asks now"
		}
		return ""
	}
	links := map[string]uint64{}
	d.Fault = func(step, path string) error {
		if step == "rename" && len(links) == 0 {
			for _, f := range []string{".env", "a.txt"} {
				var st syscall.Stat_t
				must(t, syscall.Stat(filepath.Join(root, f), &st))
				links[f] = uint64(st.Nlink)
			}
		}
		return nil
	}
	res := d.Commit([]docs.Change{
		{Path: filepath.Join(root, ".env"), Old: []byte(".env old\n"), New: []byte(".env new\n")},
		{Path: filepath.Join(root, "a.txt"), Old: []byte("a.txt old\n"), New: []byte("a.txt new\n")},
	})
	if res.Conflict != nil || res.Outcomes[0].Fate != docs.Landed {
		t.Fatalf("commit: %+v", res)
	}
	if links[".env"] != 1 || links["a.txt"] != 2 {
		t.Fatalf("names before the first publish: %v (want .env 1: copied; a.txt 2: linked)", links)
	}
	if left := tempFilesUnder(t, root); len(left) > 0 {
		t.Fatalf("temp files stay: %v", left)
	}
}
