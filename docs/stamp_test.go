//go:build linux

package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// settledFile writes a file and waits until its change time is behind the
// kernel's coarse clock, so that a read of it is stamped settled.
func settledFile(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(30 * time.Millisecond) // more than a tick of the coarse clock at any HZ
}

func readStamp(t *testing.T, d *Disk, path string) Snapshot {
	t.Helper()
	snap, err := d.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if !snap.Stamp.Settled() {
		t.Fatalf("%s, written 30 ms ago, read without a settled stamp", path)
	}
	return snap
}

// Every way of changing a file's bytes behind the read changes its stamp,
// even with its size and modification time put back.
func TestStampVouchesOnlyForAnUnwrittenFile(t *testing.T) {
	d := NewDisk()
	dir := t.TempDir()
	old := []byte("one\ntwo\nthree\n")
	changes := map[string]func(path string) error{
		"nothing": func(string) error { return nil },
		"the same size written in place, times put back": func(path string) error {
			fi, _ := os.Stat(path)
			f, err := os.OpenFile(path, os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			f.WriteAt([]byte("ONE"), 0)
			f.Close()
			return os.Chtimes(path, fi.ModTime(), fi.ModTime())
		},
		"replaced by a rename of the same bytes and times": func(path string) error {
			fi, _ := os.Stat(path)
			tmp := path + ".new"
			os.WriteFile(tmp, old, 0o644)
			os.Chtimes(tmp, fi.ModTime(), fi.ModTime())
			return os.Rename(tmp, path)
		},
		"grown and cut back": func(path string) error {
			fi, _ := os.Stat(path)
			f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
			if err != nil {
				return err
			}
			f.Write([]byte("x"))
			f.Truncate(int64(len(old)))
			f.Close()
			return os.Chtimes(path, fi.ModTime(), fi.ModTime())
		},
		"made read-only": func(path string) error { return os.Chmod(path, 0o444) },
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(name, " ", "_"))
			settledFile(t, path, old)
			snap := readStamp(t, d, path)
			if err := change(path); err != nil {
				t.Fatal(err)
			}
			st, same := d.Unchanged(path, snap.Stamp)
			if want := name == "nothing"; same != want {
				t.Fatalf("Unchanged = %v after %s", same, name)
			}
			if same && (st.Size != int64(len(old)) || st.Mode.Perm() != 0o644) {
				t.Errorf("Unchanged's Stat %+v", st)
			}
		})
	}
}

// A file written in the tick of its read, or read while it changed, is
// never vouched for: the zero and unsettled stamps are refused.
func TestUnsettledStampsVouchForNothing(t *testing.T) {
	d := NewDisk()
	path := filepath.Join(t.TempDir(), "f")
	settledFile(t, path, []byte("x\n"))
	snap := readStamp(t, d, path)
	if _, same := d.Unchanged(path, Stamp{}); same {
		t.Error("the zero stamp vouched for a file")
	}
	if _, same := d.Unchanged(path, snap.Stamp.unsettled()); same {
		t.Error("an unsettled stamp vouched for a file")
	}
	if s := snap.Stamp.settle(snap.Stamp.ctime, true); s.Settled() {
		t.Error("a change time in the read's own tick was settled")
	}
	if s := snap.Stamp.settle(snap.Stamp.ctime+1e9, false); s.Settled() {
		t.Error("a stamp from a file system not known to stamp to the nanosecond was settled")
	}
	whole := snap.Stamp
	whole.ctime -= whole.ctime % 1e9
	if s := whole.settle(whole.ctime+1e9, true); s.Settled() {
		t.Error("a change time of whole seconds (a coarse file system: two writes in a second share it) was settled")
	}
}

// The engine takes the disk's word for a settled, unchanged file and does
// not read it again under the lock: the bytes it checks are the change's
// Old (made different here from the file's, which a real read could not
// be, to see which it used).
func TestCommitCheckReadsNoFileTheDiskVouchesFor(t *testing.T) {
	d := NewDisk()
	path := filepath.Join(t.TempDir(), "f")
	settledFile(t, path, []byte("on disk\n"))
	snap := readStamp(t, d, path)
	e := engine{pub: d}
	ps := []*Pending{{Change: Change{Path: path, Old: []byte("staged\n"), OldStamp: snap.Stamp}, Real: path}}
	cur := e.current(ps)
	if !cur[0].same || string(cur[0].snap.Data) != "staged\n" {
		t.Fatalf("vouched %v, bytes %q", cur[0].same, cur[0].snap.Data)
	}
	ps[0].OldStamp = Stamp{}
	cur = e.current(ps)
	if cur[0].same || string(cur[0].snap.Data) != "on disk\n" {
		t.Fatalf("without a stamp: vouched %v, bytes %q", cur[0].same, cur[0].snap.Data)
	}
	cur[0].Release()
}

// A writer that ignores eukhe's lock rewrites a file between the edit's
// read and its commit, keeping the size and putting the modification time
// back: the commit still sees it (the change time moved) — it refuses when
// the writer changed a line the edit stands on, and rebases otherwise.
func TestCommitSeesAWriteThatKeptSizeAndModificationTime(t *testing.T) {
	for _, tc := range []struct {
		name, theirs string
		lands        bool
	}{
		{"on the edited line", "ONE\ntwo\nthree\n", false},
		{"on another line", "one\ntwo\nTHREE\n", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			a, b := filepath.Join(dir, "a.txt"), filepath.Join(dir, "b.txt")
			old := []byte("one\ntwo\nthree\n")
			settledFile(t, a, old)
			settledFile(t, b, old)
			d := NewDisk()
			var rewrite func() error // their write, once, when the commit takes the lock
			tools := &Tools{Store: d, Session: NewSession(), Root: dir}
			for _, n := range []string{"a.txt", "b.txt"} {
				tools.Read(context.Background(), ReadArgs{Path: n})
			}
			var once sync.Once
			d.Fault = func(step, path string) (err error) {
				if step == "lock" {
					once.Do(func() { err = rewrite() })
				}
				return err
			}
			rewrite = func() error {
				fi, _ := os.Stat(b)
				f, err := os.OpenFile(b, os.O_WRONLY, 0)
				if err != nil {
					return err
				}
				f.WriteAt([]byte(tc.theirs), 0)
				f.Close()
				return os.Chtimes(b, fi.ModTime(), fi.ModTime())
			}
			tag := DigestOf(old).Tag()
			res := tools.Edit(context.Background(), EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ 1\n+uno\n[b.txt#%s]\n@@ 1\n+uno\n", tag, tag)})
			gotA, _ := os.ReadFile(a)
			gotB, _ := os.ReadFile(b)
			if !tc.lands {
				if !res.Failed || string(gotA) != string(old) || string(gotB) != tc.theirs {
					t.Fatalf("failed %v, a %q, b %q:\n%s", res.Failed, gotA, gotB, res.Text)
				}
				return
			}
			if res.Failed || string(gotA) != "uno\ntwo\nthree\n" || string(gotB) != "uno\ntwo\nTHREE\n" {
				t.Fatalf("failed %v, a %q, b %q:\n%s", res.Failed, gotA, gotB, res.Text)
			}
		})
	}
}
