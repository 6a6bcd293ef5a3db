package docs_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

// The disk writer of S8.1 and S8.4 on real directories: a multi-file edit
// through docs.Tools.Edit with a session that read the files, with a failure
// injected at every step of the commit; conflicts; moves.

var errInjected = errors.New("injected failure")

// wsFile is one file of a workspace and of the edit made on it.
type wsFile struct {
	name   string      // as the patch names it
	moveTo string      // MV destination, or ""
	create bool        // a tagless section creates it
	link   string      // set: name is a symlink to this path (relative to the link)
	old    []byte      // nil for a created file
	new    []byte      // what the edit makes of it
	mode   fs.FileMode // of the file (the link's target), kept by the edit
	ops    string      // the section's body
	// conflict is what another program writes that changes a line the
	// edit stands on; nil when the edit stands on no line (an end insert,
	// a bare move), which a changed file rebases onto.
	conflict []byte
}

// target is where the file's new bytes land.
func (f wsFile) target() string {
	if f.moveTo != "" {
		return f.moveTo
	}
	return f.name
}

// label is the file's name in a reply's NOT applied list.
func (f wsFile) label() string {
	if f.moveTo != "" {
		return f.name + " -> " + f.moveTo
	}
	return f.name
}

// wsRig is a workspace on disk and a session over it.
type wsRig struct {
	root  string
	disk  *docs.Disk
	tools *docs.Tools
	files []wsFile
}

// sixFiles is the multi-file edit of the fault tests: each file in its own
// directory, so a step's path names its file. A plain LF file (0640), a
// CRLF+BOM script (0755), a symlink to a file elsewhere (0600), a created
// file, a move with an edit into a new directory (0664), a bare move (0600).
func sixFiles() []wsFile {
	return []wsFile{
		{name: "d1/a.txt", old: []byte("one\ntwo\nthree\n"), new: []byte("one\nTWO\nthree\n"), mode: 0o640, ops: "@@ 2\n+TWO\n", conflict: []byte("one\n2\nthree\n")},
		{name: "d2/b.sh", old: []byte("\xEF\xBB\xBF#!/bin/sh\r\nexit 0\r\n"), new: []byte("\xEF\xBB\xBF#!/bin/sh\r\necho inserted\r\nexit 0\r\n"), mode: 0o755, ops: "@@ 1>\n+echo inserted\n", conflict: []byte("\xEF\xBB\xBF#!/bin/bash\r\nexit 0\r\n")},
		{name: "d3/c.txt", link: "../real/c.txt", old: []byte("c one\nc two"), new: []byte("C1\nc two"), mode: 0o600, ops: "@@ 1\n+C1\n", conflict: []byte("c 1\nc two")},
		{name: "d4/new.txt", create: true, new: []byte("created\n"), mode: 0o644, ops: "+created\n"},
		{name: "d5/d.txt", moveTo: "d6/sub/d.txt", old: []byte("d\n"), new: []byte("d\nappended\n"), mode: 0o664, ops: "@@ $\n+appended\n"},
		{name: "d7/e.txt", moveTo: "d8/e.txt", old: []byte("e\r\n"), new: []byte("e\r\n"), mode: 0o600},
	}
}

func newRig(t testing.TB, dir string, files []wsFile) *wsRig {
	r := &wsRig{root: dir, disk: docs.NewDisk(), files: files}
	r.disk.Journal, r.disk.Root = filepath.Join(t.TempDir(), "journal"), dir
	r.tools = &docs.Tools{Store: r.disk, Session: docs.NewSession(), Root: dir}
	for _, f := range files {
		if f.create {
			os.MkdirAll(filepath.Dir(r.abs(f.name)), 0o755)
			continue
		}
		real := r.abs(f.name)
		if f.link != "" {
			real = filepath.Join(filepath.Dir(r.abs(f.name)), f.link)
		}
		must(t, os.MkdirAll(filepath.Dir(real), 0o755))
		must(t, os.WriteFile(real, f.old, 0o600))
		must(t, os.Chmod(real, f.mode))
		if f.link != "" {
			must(t, os.MkdirAll(filepath.Dir(r.abs(f.name)), 0o755))
			must(t, os.Symlink(f.link, r.abs(f.name)))
			if _, err := os.Lstat(r.abs(f.name)); err != nil {
				t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
			}
		}
	}
	return r
}

func must(t failer, err error) {
	if err != nil {
		t.Fatal(err)
	}
}

func (r *wsRig) abs(name string) string { return filepath.Join(r.root, filepath.FromSlash(name)) }

// readAll reads every existing file whole, as the model would before an
// edit, so that every line is seen.
func (r *wsRig) readAll(t testing.TB) {
	t.Helper()
	for _, f := range r.files {
		if f.create {
			continue
		}
		if res := r.tools.Read(context.Background(), docs.ReadArgs{Path: f.name}); res.Failed {
			t.Fatalf("read %s: %s", f.name, res.Text)
		}
	}
}

// patch spells the edit of every file, with the tags of their old bytes.
func (r *wsRig) patch() string {
	var b strings.Builder
	for _, f := range r.files {
		if f.create {
			fmt.Fprintf(&b, "[%s]\n%s", f.name, f.ops)
			continue
		}
		fmt.Fprintf(&b, "[%s#%s]\n%s", f.name, docs.DigestOf(f.old).Tag(), f.ops)
		if f.moveTo != "" {
			fmt.Fprintf(&b, "MV %s\n", f.moveTo)
		}
	}
	return b.String()
}

// fileState is what a file of the rig holds now.
type fileState int

const (
	stateOld fileState = iota
	stateNew
	stateMovedSourceStays // a move that landed and whose source stays
	stateMixed
)

func (s fileState) String() string {
	return [...]string{"its old bytes", "its new bytes", "its new bytes (source stays)", "neither its old nor its new bytes"}[s]
}

func readMaybe(path string) ([]byte, bool) {
	b, err := os.ReadFile(path)
	return b, err == nil
}

// state looks at the disk: is the file at its old bytes or its new ones?
// It also checks its mode and, for a symlink, that the link stays a link.
func (r *wsRig) state(t testing.TB, f wsFile) (fileState, string) {
	t.Helper()
	src, srcOK := readMaybe(r.abs(f.name))
	if f.link != "" {
		fi, err := os.Lstat(r.abs(f.name))
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			return stateMixed, fmt.Sprintf("%s is no longer a symlink (%v)", f.name, err)
		}
		if l, _ := os.Readlink(r.abs(f.name)); l != f.link {
			return stateMixed, fmt.Sprintf("%s links to %q now, not %q", f.name, l, f.link)
		}
	}
	modeOf := func(path string) fs.FileMode {
		fi, err := os.Stat(path)
		if err != nil {
			return 0
		}
		return fi.Mode().Perm()
	}
	switch {
	case f.create:
		switch {
		case !srcOK:
			return stateOld, ""
		case bytes.Equal(src, f.new):
			if m := modeOf(r.abs(f.name)); m != f.mode {
				return stateMixed, fmt.Sprintf("created %s has mode %v, want %v", f.name, m, f.mode)
			}
			return stateNew, ""
		}
		return stateMixed, fmt.Sprintf("created %s holds %q", f.name, src)
	case f.moveTo != "":
		dst, dstOK := readMaybe(r.abs(f.moveTo))
		switch {
		case srcOK && !bytes.Equal(src, f.old):
			return stateMixed, fmt.Sprintf("move source %s holds %q", f.name, src)
		case !dstOK && srcOK:
			return stateOld, ""
		case dstOK && !bytes.Equal(dst, f.new):
			return stateMixed, fmt.Sprintf("move destination %s holds %q", f.moveTo, dst)
		case !dstOK:
			return stateMixed, fmt.Sprintf("%s and %s are both gone", f.name, f.moveTo)
		}
		if m := modeOf(r.abs(f.moveTo)); m != f.mode {
			return stateMixed, fmt.Sprintf("moved %s has mode %v, want %v", f.moveTo, m, f.mode)
		}
		if srcOK {
			return stateMovedSourceStays, ""
		}
		return stateNew, ""
	}
	if m := modeOf(r.abs(f.name)); m != f.mode {
		return stateMixed, fmt.Sprintf("%s has mode %v, want %v", f.name, m, f.mode)
	}
	switch {
	case !srcOK:
		return stateMixed, fmt.Sprintf("%s is gone", f.name)
	case bytes.Equal(src, f.old):
		return stateOld, ""
	case bytes.Equal(src, f.new):
		return stateNew, ""
	}
	return stateMixed, fmt.Sprintf("%s holds %q", f.name, src)
}

// reply is an edit's reply as the model reads it: the first line names
// what was applied (with tags) and what was not.
type reply struct {
	applied map[string]string // target -> tag
	not     []string          // labels
}

var appliedItem = regexp.MustCompile(`^([^,;#]+)#([0-9a-f]{8})`)

func parseReply(t testing.TB, text string) reply {
	t.Helper()
	r := reply{applied: map[string]string{}}
	line, _, _ := strings.Cut(text, "\n")
	if rest, ok := strings.CutPrefix(line, "Applied to "); ok {
		for {
			m := appliedItem.FindStringSubmatch(rest)
			if m == nil {
				t.Fatalf("reply: cannot read the applied list of %q", line)
			}
			r.applied[m[1]] = m[2]
			rest = rest[len(m[0]):]
			if more, ok := strings.CutPrefix(rest, ", "); ok {
				rest = more
				continue
			}
			break
		}
		switch {
		case rest == "." || rest == "":
			return r
		case strings.HasPrefix(rest, "; NOT applied to "):
			line = strings.TrimPrefix(rest, "; ")
		default:
			t.Fatalf("reply: unexpected %q after the applied list in %q", rest, line)
		}
	}
	rest, ok := strings.CutPrefix(line, "NOT applied to ")
	if !ok {
		t.Fatalf("reply: first line is neither Applied nor NOT applied: %q", line)
	}
	names, _, _ := strings.Cut(rest, ": ")
	names = strings.TrimSuffix(names, ".")
	r.not = strings.Split(names, ", ")
	return r
}

// checkTruthful is the heart of the fault tests: the reply names every
// file once; a file named as applied holds its new bytes, with the tag of
// them; a file named as not applied holds its old bytes; every file holds
// its exact old or exact new bytes, with its mode, links kept links; and
// unless the reply says a restore failed, the edit is all or nothing.
func (r *wsRig) checkTruthful(t testing.TB, res docs.Result) {
	t.Helper()
	rep := parseReply(t, res.Text)
	nNew, nOld := 0, 0
	for _, f := range r.files {
		st, why := r.state(t, f)
		if st == stateMixed {
			t.Fatalf("%s: %s; reply:\n%s", f.name, why, res.Text)
		}
		tag, applied := rep.applied[f.target()]
		notApplied := slices.Contains(rep.not, f.label())
		switch {
		case applied && notApplied:
			t.Fatalf("%s is named both applied and not applied:\n%s", f.label(), res.Text)
		case !applied && !notApplied:
			t.Fatalf("the reply does not name %s:\n%s", f.label(), res.Text)
		case applied && st == stateOld:
			t.Fatalf("the reply says %s was applied, but it holds %s:\n%s", f.target(), st, res.Text)
		case applied && tag != docs.DigestOf(f.new).Tag().String():
			t.Fatalf("the reply gives %s the tag %s, not the tag of its new bytes %s:\n%s", f.target(), tag, docs.DigestOf(f.new).Tag(), res.Text)
		case notApplied && st != stateOld:
			t.Fatalf("the reply says %s was NOT applied, but it holds %s:\n%s", f.label(), st, res.Text)
		case st == stateMovedSourceStays && !strings.Contains(res.Text, "warning: "+f.label()):
			t.Fatalf("%s moved and its source stays, but the reply has no warning for it:\n%s", f.label(), res.Text)
		}
		if st == stateOld {
			nOld++
		} else {
			nNew++
		}
	}
	if res.Failed != (len(rep.applied) == 0) {
		t.Fatalf("the result's Failed is %v with %d files applied:\n%s", res.Failed, len(rep.applied), res.Text)
	}
	if len(rep.applied) > 0 && (strings.Contains(res.Text, "Nothing was written") || strings.Contains(res.Text, "Nothing of this edit is on disk")) {
		t.Fatalf("the reply says nothing was written, and names files that landed:\n%s", res.Text)
	}
	if nNew > 0 && nOld > 0 && !strings.Contains(res.Text, "restoring its previous bytes failed") {
		t.Fatalf("%d files hold the edit and %d do not, and the reply names no failed restore:\n%s", nNew, nOld, res.Text)
	}
}

// writeEach writes every file at its current place once more from a new
// session (read, then write), then checks that no temporary file is left
// anywhere in the workspace.
func (r *wsRig) writeEach(t testing.TB) {
	t.Helper()
	tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: r.root}
	for _, f := range r.files {
		for _, name := range []string{f.name, f.moveTo} {
			if name == "" {
				continue
			}
			if _, err := os.Stat(r.abs(name)); err != nil {
				continue
			}
			if res := tools.Read(context.Background(), docs.ReadArgs{Path: name}); res.Failed {
				t.Fatalf("read %s after the edit: %s", name, res.Text)
			}
			if res := tools.Write(context.Background(), docs.WriteArgs{Path: name, Content: "next write\n"}); res.Failed {
				t.Fatalf("write %s after the edit: %s", name, res.Text)
			}
		}
	}
	filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && docs.IsTemp(d.Name()) {
			t.Errorf("temp file %s survives the next write", p)
		}
		return nil
	})
}

// checkRecovered finishes what a crashed commit left (the journal, its
// temp files) as the next start of eukhe would, then checks that every
// file holds its old bytes or every file its new ones, and that no temp
// file or journal is left.
func (r *wsRig) checkRecovered(t testing.TB, res docs.Result) (allNew bool) {
	t.Helper()
	recs := r.disk.Recover()
	var old, nw []string
	for _, f := range r.files {
		st, why := r.state(t, f)
		switch st {
		case stateMixed:
			t.Fatalf("after recovery %s: %s; reply:\n%s", f.label(), why, res.Text)
		case stateOld:
			old = append(old, f.label())
		default:
			nw = append(nw, f.label())
		}
	}
	var texts []string
	for _, rc := range recs {
		texts = append(texts, rc.Text(func(p string) string { return p }))
	}
	if len(old) > 0 && len(nw) > 0 {
		t.Fatalf("after recovery %v hold the edit and %v do not; recovery: %v; reply:\n%s", nw, old, texts, res.Text)
	}
	for _, rc := range recs {
		if len(rc.Left) > 0 || rc.Err != nil {
			t.Fatalf("recovery left files: %v", texts)
		}
	}
	filepath.WalkDir(r.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && docs.IsTemp(d.Name()) {
			t.Errorf("temp file %s survives recovery; recovery: %v", p, texts)
		}
		return nil
	})
	if es := leftJournals(r.disk.Journal); len(es) > 0 {
		t.Errorf("the journal directory holds %v after recovery", es)
	}
	return len(old) == 0
}

// call is one step the writer took, as its Fault hook saw it.
type call struct{ step, path string }

// TestDisk_faults_at_every_step runs the six-file edit once cleanly to
// learn every step the writer takes, then once for every step with a
// failure injected there (only there, and from there on, so restores fail
// too), and checks the reply and the disk each time.
func TestDisk_faults_at_every_step(t *testing.T) {
	clean := newRig(t, t.TempDir(), sixFiles())
	clean.readAll(t)
	var steps []call
	clean.disk.Fault = func(step, path string) error {
		rel, _ := filepath.Rel(clean.root, path)
		steps = append(steps, call{step, filepath.ToSlash(rel)})
		return nil
	}
	res := clean.tools.Edit(context.Background(), docs.EditArgs{Patch: clean.patch()})
	if res.Failed || !strings.HasPrefix(res.Text, "Applied to ") || strings.Contains(res.Text, "NOT") {
		t.Fatalf("clean edit:\n%s", res.Text)
	}
	clean.checkTruthful(t, res)
	for _, f := range clean.files {
		if st, _ := clean.state(t, f); st != stateNew {
			t.Fatalf("clean edit: %s holds %s", f.label(), st)
		}
	}
	seen := map[string]bool{}
	for _, c := range steps {
		seen[c.step] = true
	}
	for _, s := range []string{"lock", "journal", "temp", "write", "fsync", "rename", "link", "unlink", "dirsync", "mkdir", "discard", "unjournal"} {
		if !seen[s] {
			t.Fatalf("the clean edit never took step %q; steps: %v", s, steps)
		}
	}

	for m, c := range steps {
		for _, onward := range []bool{false, true} {
			name := fmt.Sprintf("%02d-%s-%s", m, c.step, strings.ReplaceAll(c.path, "/", "_"))
			if onward {
				name += "-onward"
			}
			t.Run(name, func(t *testing.T) {
				r := newRig(t, t.TempDir(), sixFiles())
				r.readAll(t)
				n := 0
				r.disk.Fault = func(step, path string) error {
					n++
					if n-1 == m || onward && n-1 > m {
						return errInjected
					}
					return nil
				}
				res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
				r.checkTruthful(t, res)
				if !onward {
					switch c.step {
					case "dirsync":
						if res.Failed || strings.Contains(res.Text, "NOT") || !regexp.MustCompile(`warning: .*syncing .*directory.* failed`).MatchString(res.Text) {
							t.Fatalf("a failed directory sync is a landed write with a warning:\n%s", res.Text)
						}
					case "unlink":
						if res.Failed || strings.Contains(res.Text, "NOT") || !strings.Contains(res.Text, "stays") {
							t.Fatalf("a move whose source stays is a landed write with a warning:\n%s", res.Text)
						}
					case "lock":
						if !strings.Contains(res.Text, "Nothing was written") {
							t.Fatalf("a failed lock writes nothing and says so:\n%s", res.Text)
						}
					case "discard", "unjournal":
						// A temp file or a journal left behind: the edit
						// landed; the next commit or start clears them.
						if res.Failed || strings.Contains(res.Text, "NOT") {
							t.Fatalf("a failed %s after every publish is a landed edit:\n%s", c.step, res.Text)
						}
					default:
						if !res.Failed || !strings.Contains(res.Text, errInjected.Error()) {
							t.Fatalf("a failed %s fails the edit and says why:\n%s", c.step, res.Text)
						}
					}
				}
				r.disk.Fault = nil
				finished := false
				if onward {
					// Failing every step from one on is a crash there:
					// the journal's finder leaves all old or all new.
					finished = r.checkRecovered(t, res)
				}
				if strings.Contains(res.Text, "retry the same edit") && !finished {
					// The reply's advice holds: the same edit, retried, lands.
					again := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
					if again.Failed || strings.Contains(again.Text, "NOT") {
						t.Fatalf("the retry the reply advised:\n%s\nfirst reply:\n%s", again.Text, res.Text)
					}
					for _, f := range r.files {
						if st, why := r.state(t, f); st != stateNew {
							t.Fatalf("after the retry %s holds %s %s", f.label(), st, why)
						}
					}
				}
				r.writeEach(t)
			})
		}
	}
}

// A file changed by another program between the read and the edit, on the
// lines the edit stands on: the edit writes nothing and says so.
func TestDisk_conflict_between_read_and_edit(t *testing.T) {
	for k, f := range sixFiles() {
		if f.conflict == nil {
			continue
		}
		t.Run(strings.ReplaceAll(f.name, "/", "_"), func(t *testing.T) {
			r := newRig(t, t.TempDir(), sixFiles())
			r.readAll(t)
			changed := f.conflict
			must(t, os.WriteFile(r.abs(f.name), changed, 0)) // through a link, too
			res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
			if !res.Failed || !strings.Contains(res.Text, "Nothing was written") {
				t.Fatalf("edit over a changed %s:\n%s", f.name, res.Text)
			}
			for i, g := range r.files {
				if i == k {
					if got, _ := readMaybe(r.abs(g.name)); !bytes.Equal(got, changed) {
						t.Fatalf("%s holds %q, not the other program's bytes", g.name, got)
					}
					continue
				}
				if st, why := r.state(t, g); st != stateOld {
					t.Fatalf("%s holds %s %s after a refused edit:\n%s", g.label(), st, why, res.Text)
				}
			}
		})
	}
}

// A file changed by another program after the edit was staged, while the
// writer takes its locks (the byte check of S8.1 catches it, and the
// rebase refuses it when a line the edit stands on changed), and a move
// destination or a created file that appears then: nothing is written.
// A file whose edit stands on no line rebases onto the change.
func TestDisk_conflict_during_commit(t *testing.T) {
	for k, f := range sixFiles() {
		for _, what := range []string{"source", "destination"} {
			switch {
			case what == "source" && f.create:
				what = "created"
			case what == "destination" && f.moveTo == "":
				continue
			}
			t.Run(strings.ReplaceAll(f.name, "/", "_")+"-"+what, func(t *testing.T) {
				r := newRig(t, t.TempDir(), sixFiles())
				r.readAll(t)
				theirs := []byte("another program's bytes\n")
				path := r.abs(f.name)
				if what == "destination" {
					path = r.abs(f.moveTo)
				}
				rebases := what == "source" && f.conflict == nil // the edit stands on no line
				if what == "source" && f.conflict != nil {
					theirs = f.conflict
				}
				done := false
				r.disk.Fault = func(step, _ string) error {
					if step == "lock" && !done {
						done = true
						must(t, os.MkdirAll(filepath.Dir(path), 0o755))
						must(t, os.WriteFile(path, theirs, 0o644))
					}
					return nil
				}
				res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
				if rebases {
					// The check under the lock rebases it: it lands over
					// the other program's bytes, and the reply says so.
					if res.Failed || !strings.Contains(res.Text, "Rebased: "+f.label()) {
						t.Fatalf("edit over %s changed on lines it does not touch:\n%s", f.name, res.Text)
					}
					return
				}
				if !res.Failed || !strings.Contains(res.Text, "Nothing was written") {
					t.Fatalf("edit over a changed %s:\n%s", f.name, res.Text)
				}
				rep := parseReply(t, res.Text)
				if len(rep.applied) > 0 || len(rep.not) != len(r.files) {
					t.Fatalf("a conflict names every file NOT applied:\n%s", res.Text)
				}
				if got, _ := readMaybe(path); !bytes.Equal(got, theirs) {
					t.Fatalf("%s holds %q, not the other program's bytes", path, got)
				}
				for i, g := range r.files {
					if i == k {
						continue
					}
					if st, why := r.state(t, g); st != stateOld {
						t.Fatalf("%s holds %s %s after a refused edit:\n%s", g.label(), st, why, res.Text)
					}
				}
			})
		}
	}
}

// A failed directory sync after a rename is a landed write with a warning:
// the reply says applied, the file holds the edit, and the session knows
// its new version (a next edit with the new tag applies).
func TestDisk_dirsync_failure_is_landed_with_warning(t *testing.T) {
	if fi, err := os.Stat(t.TempDir()); err == nil && fi.Mode().Perm() != 0o700 {
		t.Skip("this system keeps no Unix mode (a t.TempDir is made 0700; Windows has a read-only attribute only), and the landed file's mode (0640) is checked")
	}
	r := newRig(t, t.TempDir(), sixFiles()[:1])
	r.readAll(t)
	r.disk.Fault = func(step, _ string) error {
		if step == "dirsync" {
			return errInjected
		}
		return nil
	}
	res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
	r.checkTruthful(t, res)
	f := r.files[0]
	if res.Failed || !strings.Contains(res.Text, "warning: "+f.name) || !strings.Contains(res.Text, "syncing its directory failed") {
		t.Fatalf("reply:\n%s", res.Text)
	}
	if st, _ := r.state(t, f); st != stateNew {
		t.Fatalf("%s holds %s", f.name, st)
	}
	next := fmt.Sprintf("[%s#%s]\n@@ 1\n+ONE\n", f.name, docs.DigestOf(f.new).Tag())
	if res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: next}); res.Failed {
		t.Fatalf("an edit with the landed write's tag:\n%s", res.Text)
	}
}

// Two sections that name one file (a path and a symlink to it) would
// publish twice over the same bytes: the second write would replace the
// first, and the reply would name a tag the file does not hold. The
// writer refuses them and writes nothing.
func TestDisk_one_file_named_twice(t *testing.T) {
	dir := t.TempDir()
	files := []wsFile{
		{name: "a.txt", old: []byte("a\nb\n"), new: []byte("A\nb\n"), mode: 0o644, ops: "@@ 1\n+A\n"},
		{name: "alias.txt", link: "a.txt", old: []byte("a\nb\n"), new: []byte("a\nB\n"), mode: 0o644, ops: "@@ 2\n+B\n"},
	}
	r := &wsRig{root: dir, disk: docs.NewDisk(), files: files}
	r.tools = &docs.Tools{Store: r.disk, Session: docs.NewSession(), Root: dir}
	must(t, os.WriteFile(r.abs("a.txt"), files[0].old, 0o644))
	must(t, os.Symlink("a.txt", r.abs("alias.txt")))
	if _, err := os.Lstat(r.abs("alias.txt")); err != nil {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	r.readAll(t)
	res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
	got, _ := os.ReadFile(r.abs("a.txt"))
	if !res.Failed || !bytes.Equal(got, files[0].old) {
		t.Fatalf("two sections over one file: a.txt holds %q; reply:\n%s", got, res.Text)
	}
	if !strings.Contains(res.Text, "same file") || !strings.Contains(res.Text, "Nothing was written") {
		t.Fatalf("the refusal says why:\n%s", res.Text)
	}
}

// MV of a symlink would move the file the link points to and leave the
// link dangling: it is refused, and nothing moves.
func TestDisk_move_of_a_symlink_is_refused(t *testing.T) {
	dir := t.TempDir()
	files := []wsFile{{name: "d3/c.txt", link: "../real/c.txt", moveTo: "d9/c.txt", old: []byte("c\n"), new: []byte("c\n"), mode: 0o644}}
	r := newRig(t, dir, files)
	r.readAll(t)
	res := r.tools.Edit(context.Background(), docs.EditArgs{Patch: r.patch()})
	if !res.Failed || !strings.Contains(res.Text, "Nothing was written") {
		t.Fatalf("MV of a symlink:\n%s", res.Text)
	}
	if st, why := r.state(t, files[0]); st != stateOld {
		t.Fatalf("after a refused move: %s %s", st, why)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "real", "c.txt")); !bytes.Equal(got, files[0].old) {
		t.Fatalf("the link's target holds %q", got)
	}
}

// moveCase is a file, a move of it (with or without an edit), and what is
// at the destination.
type moveCase struct {
	content []byte
	withOp  bool
	dest    string // relative
}

func drawContent(t *rapid.T, label string) []byte {
	piece := rapid.SampledFrom([]string{"a", "b c", "\n", "\r\n", "\r", "é", "\t", "x\n", ""})
	ps := rapid.SliceOfN(piece, 0, 12).Draw(t, label)
	s := strings.Join(ps, "")
	if rapid.Bool().Draw(t, label+"-bom") {
		s = "\xEF\xBB\xBF" + s
	}
	return []byte(s)
}

func drawMove(t *rapid.T) moveCase {
	return moveCase{
		content: drawContent(t, "content"),
		withOp:  rapid.Bool().Draw(t, "withOp"),
		dest:    rapid.SampledFrom([]string{"b.txt", "sub/b.txt", "sub/deeper/b.txt", "a.txt.bak", "A.txt"}).Draw(t, "dest"),
	}
}

// movePatch spells the move: with an op, "@@ $" appends one line.
func (c moveCase) patch(src string) string {
	p := fmt.Sprintf("[%s#%s]\n", src, docs.DigestOf(c.content).Tag())
	if c.withOp {
		p += "@@ $\n+tail\n"
	}
	return p + "MV " + c.dest + "\n"
}

// expected is what the destination should hold: the source's bytes, or
// what the same edit without the move makes of them.
func (c moveCase) expected(t *rapid.T, base string) []byte {
	if !c.withOp {
		return c.content
	}
	dir, err := os.MkdirTemp(base, "oracle")
	if err != nil {
		t.Fatal(err)
	}
	must(t, os.WriteFile(filepath.Join(dir, "a.txt"), c.content, 0o644))
	tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
	tools.Read(context.Background(), docs.ReadArgs{Path: "a.txt"})
	res := tools.Edit(context.Background(), docs.EditArgs{Patch: fmt.Sprintf("[a.txt#%s]\n@@ $\n+tail\n", docs.DigestOf(c.content).Tag())})
	if res.Failed {
		t.Fatalf("oracle edit: %s", res.Text)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "a.txt"))
	return b
}

func TestLaw_move_moves(t *testing.T) {
	base := t.TempDir()
	if fi, err := os.Stat(base); err == nil && fi.Mode().Perm() != 0o700 {
		t.Skip("this system keeps no Unix mode (a t.TempDir is made 0700; Windows has a read-only attribute only), and the law checks modes")
	}
	rapid.Check(t, func(rt *rapid.T) {
		c := drawMove(rt)
		mode := rapid.SampledFrom([]fs.FileMode{0o644, 0o600, 0o755}).Draw(rt, "mode")
		dir, err := os.MkdirTemp(base, "case")
		must(rt, err)
		src := filepath.Join(dir, "a.txt")
		must(rt, os.WriteFile(src, c.content, 0o600))
		must(rt, os.Chmod(src, mode))
		tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
		if res := tools.Read(context.Background(), docs.ReadArgs{Path: "a.txt"}); res.Failed {
			rt.Fatalf("read: %s", res.Text)
		}
		res := tools.Edit(context.Background(), docs.EditArgs{Patch: c.patch("a.txt")})
		want := c.expected(rt, base)
		if res.Failed || !strings.HasPrefix(res.Text, "Applied to "+c.dest+"#"+docs.DigestOf(want).Tag().String()) {
			rt.Fatalf("move to a free name:\n%s", res.Text)
		}
		got, err := os.ReadFile(filepath.Join(dir, c.dest))
		if err != nil || !bytes.Equal(got, want) {
			rt.Fatalf("%s holds %q (%v), want %q", c.dest, got, err, want)
		}
		if _, err := os.Lstat(src); !errors.Is(err, fs.ErrNotExist) {
			rt.Fatalf("the source stays after the move (%v)", err)
		}
		if fi, err := os.Stat(filepath.Join(dir, c.dest)); err != nil || fi.Mode().Perm() != mode {
			rt.Fatalf("the moved file's mode is %v, want %v", fi.Mode().Perm(), mode)
		}
		// The session knows the moved file: an edit of it with the tag the
		// reply gave applies.
		next := fmt.Sprintf("[%s#%s]\n@@ ^\n+head\n", c.dest, docs.DigestOf(want).Tag())
		if res := tools.Edit(context.Background(), docs.EditArgs{Patch: next}); res.Failed {
			rt.Fatalf("an edit of the moved file with its new tag:\n%s", res.Text)
		}
	})
}

func TestLaw_move_never_overwrites(t *testing.T) {
	base := t.TempDir()
	probe := filepath.Join(t.TempDir(), "link")
	noLinks := os.Symlink(".", probe)
	if noLinks == nil {
		_, noLinks = os.Lstat(probe) // Wine 8's CreateSymbolicLink says it made one and makes none
	}
	rapid.Check(t, func(rt *rapid.T) {
		c := drawMove(rt)
		theirs := drawContent(rt, "theirs")
		kind := rapid.SampledFrom([]string{"file", "symlink", "dangling symlink", "directory"}).Draw(rt, "kind")
		if strings.Contains(kind, "symlink") && noLinks != nil {
			rt.Skipf("this system makes no symlink: %v", noLinks)
		}
		// when the destination appears: before the edit, while the writer
		// takes its locks (after the edit was staged), or right before the
		// hard link (after the check).
		when := rapid.SampledFrom([]string{"before", "lock", "link"}).Draw(rt, "when")
		dir, err := os.MkdirTemp(base, "case")
		must(rt, err)
		src := filepath.Join(dir, "a.txt")
		dest := filepath.Join(dir, c.dest)
		must(rt, os.WriteFile(src, c.content, 0o644))
		must(rt, os.WriteFile(filepath.Join(dir, "other.txt"), theirs, 0o644))
		if _, err := os.Stat(dest); err == nil {
			rt.Skipf("this file system folds case: %s is a.txt itself", c.dest)
		}
		place := func() {
			must(rt, os.MkdirAll(filepath.Dir(dest), 0o755))
			switch kind {
			case "file":
				must(rt, os.WriteFile(dest, theirs, 0o644))
			case "symlink":
				must(rt, os.Symlink(filepath.Join(dir, "other.txt"), dest))
			case "dangling symlink":
				must(rt, os.Symlink("nowhere", dest))
			case "directory":
				must(rt, os.Mkdir(dest, 0o755))
				must(rt, os.WriteFile(filepath.Join(dest, "inside"), theirs, 0o644))
			}
		}
		disk := docs.NewDisk()
		tools := &docs.Tools{Store: disk, Session: docs.NewSession(), Root: dir}
		if res := tools.Read(context.Background(), docs.ReadArgs{Path: "a.txt"}); res.Failed {
			rt.Fatalf("read: %s", res.Text)
		}
		placed := false
		if when == "before" {
			place()
			placed = true
		}
		disk.Fault = func(step, _ string) error {
			if step == when && !placed {
				place()
				placed = true
			}
			return nil
		}
		res := tools.Edit(context.Background(), docs.EditArgs{Patch: c.patch("a.txt")})
		if !placed {
			rt.Fatalf("the writer never took step %q", when)
		}
		if !res.Failed || strings.HasPrefix(res.Text, "Applied") {
			rt.Fatalf("a move to an existing %s (%s) was applied:\n%s", kind, when, res.Text)
		}
		if strings.Contains(res.Text, "had landed") && !strings.Contains(res.Text, "restored") {
			rt.Fatalf("reply:\n%s", res.Text)
		}
		if got, _ := os.ReadFile(src); !bytes.Equal(got, c.content) {
			rt.Fatalf("the source holds %q after a refused move, want %q", got, c.content)
		}
		if got, _ := os.ReadFile(filepath.Join(dir, "other.txt")); !bytes.Equal(got, theirs) {
			rt.Fatalf("the file the destination links to holds %q", got)
		}
		fi, err := os.Lstat(dest)
		must(rt, err)
		switch kind {
		case "file":
			if got, _ := os.ReadFile(dest); !bytes.Equal(got, theirs) {
				rt.Fatalf("the destination holds %q, want %q", got, theirs)
			}
		case "symlink", "dangling symlink":
			if fi.Mode()&fs.ModeSymlink == 0 {
				rt.Fatalf("the destination symlink was replaced")
			}
		case "directory":
			if got, _ := os.ReadFile(filepath.Join(dest, "inside")); !fi.IsDir() || !bytes.Equal(got, theirs) {
				rt.Fatalf("the destination directory was touched")
			}
		}
	})
}

// Writers that race over one file, each with the bytes they read: the
// locks and the byte check let exactly one land; the others write nothing
// and say the file changed. No update is lost without a word.
func TestDisk_racing_writers_one_lands(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.txt")
	old := []byte("shared\n")
	must(t, os.WriteFile(path, old, 0o644))
	const n = 6
	results := make([]docs.Committed, n)
	done := make(chan int)
	for i := range n {
		go func() {
			results[i] = docs.NewDisk().Commit([]docs.Change{{Path: path, Old: old, New: fmt.Appendf(nil, "writer %d\n", i)}})
			done <- i
		}()
	}
	for range n {
		<-done
	}
	landed := -1
	for i, r := range results {
		switch {
		case r.Conflict != nil:
			if !strings.Contains(r.Conflict.Why, "changed") {
				t.Errorf("writer %d: conflict %q", i, r.Conflict.Why)
			}
		case r.Outcomes[0].Fate == docs.Landed:
			if landed >= 0 {
				t.Fatalf("writers %d and %d both landed over the same bytes", landed, i)
			}
			landed = i
		default:
			t.Errorf("writer %d: %+v", i, r.Outcomes[0])
		}
	}
	got, _ := os.ReadFile(path)
	if landed < 0 || string(got) != fmt.Sprintf("writer %d\n", landed) {
		t.Fatalf("landed %d, the file holds %q", landed, got)
	}
	for _, e := range namesIn(t, dir) {
		if docs.IsTemp(e) {
			t.Errorf("temp file %s left", e)
		}
	}
}
