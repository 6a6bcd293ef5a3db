// Package storetest is the conformance suite of docs.Store (like
// testing/fstest): Run checks the S8 commit laws — edit_lands_every_file,
// edit_all_or_nothing_on_conflict, edit_reports_what_landed,
// edit_keeps_untouched_bytes, write_never_loses_unseen, write_writes_seen,
// move_moves, move_never_overwrites — through the documents tools over any
// Store, with rapid. package docs runs it over the disk store, package lsp
// over the editor store through its in-process LSP client, so both stores
// keep the laws by one set of tests (DESIGN.md §10). The laws' deeper
// tests of the disk (every fault step, crashes, symlinks) stay in docs.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/docs"
)

// Rig is a Store under test over a workspace directory.
type Rig struct {
	Root  string
	Store docs.Store
	// Live makes a file live in the store (an editor opens it: its text is
	// then the buffer's); nil for a store without live copies.
	Live func(path string) error
	// Change is another program (or the user) changing a file: in its live
	// copy when it has one, else on disk. nil writes the disk.
	Change func(path string, b []byte) error
	// Fail makes the publish of the change of path, landing at target
	// (path, or a move's destination), fail in the commits that follow:
	// the rename or link on disk, the editor refusing an open document's
	// edit. ("", "") ends it. nil: the law that needs it is skipped.
	Fail func(path, target string)
	// Via is the way each call reaches the session's tools (t: its store,
	// hooked when a law hooks it, and its seen lines): the ipython tool's
	// kernel functions, for one. nil calls t itself.
	Via func(t *docs.Tools) Caller
}

// Caller is what the laws call: the documents tools, or a way to them.
type Caller interface {
	Read(ctx context.Context, a docs.ReadArgs) docs.Result
	Edit(ctx context.Context, a docs.EditArgs) docs.Result
	Write(ctx context.Context, a docs.WriteArgs) docs.Result
}

// call is how this case's calls reach its tools (Rig.Via).
func (w *ws) call() Caller {
	if w.rig.Via != nil {
		return w.rig.Via(w.tools)
	}
	return w.tools
}

// Run runs every law as a subtest, each over a rig from newRig.
func Run(t *testing.T, newRig func(t *testing.T) Rig) {
	for _, law := range []struct {
		name string
		f    func(*testing.T, Rig)
	}{
		{"edit_lands_every_file", editLandsEveryFile},
		{"edit_all_or_nothing_on_conflict", editAllOrNothingOnConflict},
		{"edit_reports_what_landed", editReportsWhatLanded},
		{"edit_keeps_untouched_bytes", editKeepsUntouchedBytes},
		{"write_never_loses_unseen", writeNeverLosesUnseen},
		{"write_writes_seen", writeWritesSeen},
		{"move_moves", moveMoves},
		{"move_never_overwrites", moveNeverOverwrites},
	} {
		t.Run(law.name, func(t *testing.T) { law.f(t, newRig(t)) })
	}
}

// ws is one rapid case: a fresh directory under the rig's root, and a
// session of tools over the rig's store.
type ws struct {
	rig   Rig
	dir   string // relative to the root
	tools *docs.Tools
}

func newWS(t *rapid.T, rig Rig) *ws {
	dir, err := os.MkdirTemp(rig.Root, "case")
	if err != nil {
		t.Fatal(err)
	}
	rel, _ := filepath.Rel(rig.Root, dir)
	return &ws{rig: rig, dir: rel, tools: &docs.Tools{Store: rig.Store, Session: docs.NewSession(), Root: rig.Root}}
}

func (w *ws) name(base string) string { return filepath.ToSlash(filepath.Join(w.dir, base)) }
func (w *ws) abs(name string) string  { return filepath.Join(w.rig.Root, name) }

// put writes a file on disk, and maybe makes it live.
func (w *ws) put(t *rapid.T, name string, b []byte, label string) {
	p := w.abs(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if w.rig.Live != nil && rapid.Bool().Draw(t, label+"/live") {
		if err := w.rig.Live(p); err != nil {
			t.Fatalf("making %s live: %v", name, err)
		}
	}
}

// change is another program changing a file.
func (w *ws) change(t *rapid.T, name string, b []byte) {
	if w.rig.Change != nil {
		if err := w.rig.Change(w.abs(name), b); err != nil {
			t.Fatalf("changing %s: %v", name, err)
		}
		return
	}
	if err := os.WriteFile(w.abs(name), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// get is what the store holds at a name.
func (w *ws) get(t *rapid.T, name string) ([]byte, bool) {
	s, err := w.rig.Store.Read(w.abs(name))
	if err != nil {
		t.Fatalf("reading %s: %v", name, err)
	}
	defer s.Release()
	return bytes.Clone(s.Data), s.Stat.Exists
}

func (w *ws) read(t *rapid.T, name string) {
	if r := w.call().Read(context.Background(), docs.ReadArgs{Path: name}); r.Failed {
		t.Fatalf("read %s: %s", name, r.Text)
	}
}

func tagOf(b []byte) string { return docs.DigestOf(b).Tag().String() }

// genText is a few lines, LF-ended.
func genText(t *rapid.T, label string) []byte {
	n := rapid.IntRange(1, 5).Draw(t, label+"/lines")
	var b []byte
	for i := range n {
		b = append(b, fmt.Sprintf("%s line %d %s\n", label, i+1, rapid.StringMatching(`[a-zé ]{0,6}`).Draw(t, fmt.Sprintf("%s/l%d", label, i)))...)
	}
	return b
}

// file is one file of a drawn edit: its first line replaced, maybe moved.
type file struct {
	name, moveTo string
	old, new     []byte
}

func (f file) target() string {
	if f.moveTo != "" {
		return f.moveTo
	}
	return f.name
}

func drawFiles(t *rapid.T, w *ws, moves bool) []file {
	n := rapid.IntRange(1, 3).Draw(t, "files")
	fs := make([]file, n)
	for i := range fs {
		f := &fs[i]
		f.name = w.name(fmt.Sprintf("f%d.txt", i))
		f.old = genText(t, fmt.Sprintf("f%d", i))
		_, rest, _ := bytes.Cut(f.old, []byte("\n"))
		f.new = append([]byte(fmt.Sprintf("NEW %d\n", i)), rest...)
		if moves && rapid.IntRange(0, 3).Draw(t, fmt.Sprintf("f%d/move", i)) == 0 {
			f.moveTo = w.name(fmt.Sprintf("sub/g%d.txt", i))
		}
		w.put(t, f.name, f.old, fmt.Sprintf("f%d", i))
		w.read(t, f.name)
	}
	return fs
}

func patchOf(fs []file) string {
	var b strings.Builder
	for i, f := range fs {
		fmt.Fprintf(&b, "[%s#%s]\n@@ 1\n+NEW %d\n", f.name, tagOf(f.old), i)
		if f.moveTo != "" {
			b.WriteString("MV " + f.moveTo + "\n")
		}
	}
	return b.String()
}

var appliedRe = regexp.MustCompile(`([^\s,;]+)#([0-9a-f]{8})`)

// applied reads the files a reply says landed, with their tags.
func applied(text string) map[string]string {
	line, _, _ := strings.Cut(text, "\n")
	out := map[string]string{}
	rest, ok := strings.CutPrefix(line, "Applied to ")
	if !ok {
		return out
	}
	if i := strings.Index(rest, "; NOT applied"); i >= 0 {
		rest = rest[:i]
	}
	for _, m := range appliedRe.FindAllStringSubmatch(rest, -1) {
		out[m[1]] = m[2]
	}
	return out
}

// edit_lands_every_file: nothing changed underneath and no publish fails:
// every file lands, and the reply names each with its new tag.
func editLandsEveryFile(t *testing.T, rig Rig) {
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		fs := drawFiles(t, w, true)
		r := w.call().Edit(context.Background(), docs.EditArgs{Patch: patchOf(fs)})
		if r.Failed {
			t.Fatalf("edit failed: %s", r.Text)
		}
		got := applied(r.Text)
		for _, f := range fs {
			if b, ok := w.get(t, f.target()); !ok || !bytes.Equal(b, f.new) {
				t.Fatalf("%s holds %q, want %q (reply %s)", f.target(), b, f.new, r.Text)
			}
			if f.moveTo != "" {
				if _, still := w.get(t, f.name); still {
					t.Fatalf("moved %s is still there", f.name)
				}
			}
			if got[f.target()] != tagOf(f.new) {
				t.Fatalf("the reply does not name %s#%s: %s", f.target(), tagOf(f.new), r.Text)
			}
		}
		if len(got) != len(fs) {
			t.Fatalf("the reply names %d files, the edit has %d: %s", len(got), len(fs), r.Text)
		}
	})
}

// hooked runs a function right before a commit: another program changing
// a file after the edit was made, before the writer checks it. It embeds
// the Store, so an edit of several files begins the store's own batch and
// commits through this Commit with it (Change.Begun): the path production
// runs, hooked.
type hooked struct {
	docs.Store
	before func()
}

func (h hooked) Commit(cs []docs.Change) docs.Committed {
	h.before()
	return h.Store.Commit(cs)
}

// edit_all_or_nothing_on_conflict: a file the edit stands on changed on
// the edit's own lines (or a move's destination was taken) after the edit
// was made: no file lands, and the reply says nothing was written.
func editAllOrNothingOnConflict(t *testing.T, rig Rig) {
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		fs := drawFiles(t, w, true)
		j := rapid.IntRange(0, len(fs)-1).Draw(t, "conflict")
		squat := []byte("another program's bytes\n")
		at := fs[j].name
		if fs[j].moveTo != "" && rapid.Bool().Draw(t, "squatDest") {
			at = fs[j].moveTo
		}
		w.tools.Store = hooked{Store: rig.Store, before: func() {
			if at == fs[j].moveTo {
				if err := os.MkdirAll(filepath.Dir(w.abs(at)), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(w.abs(at), squat, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			w.change(t, at, squat)
		}}
		r := w.call().Edit(context.Background(), docs.EditArgs{Patch: patchOf(fs)})
		if !r.Failed || !strings.Contains(r.Text, "NOT applied") || !strings.Contains(r.Text, "Nothing was written") || len(applied(r.Text)) > 0 {
			t.Fatalf("%s changed before the commit, yet the reply is %q", at, r.Text)
		}
		for _, f := range fs {
			b, ok := w.get(t, f.name)
			want := f.old
			if f.name == at {
				want = squat
			}
			if !ok || !bytes.Equal(b, want) {
				t.Fatalf("%s holds %q after a conflict, want %q", f.name, b, want)
			}
			if f.moveTo != "" && f.moveTo != at {
				if _, ok := w.get(t, f.moveTo); ok {
					t.Fatalf("move destination %s exists after a conflict", f.moveTo)
				}
			}
		}
	})
}

// edit_reports_what_landed: when the publish of one file fails, the reply
// says a file was applied iff the store holds its new bytes; it is an
// error iff nothing landed; a file that did not land holds its old bytes.
func editReportsWhatLanded(t *testing.T, rig Rig) {
	if rig.Fail == nil {
		t.Skip("the rig cannot make a publish fail")
	}
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		fs := drawFiles(t, w, true)
		k := rapid.IntRange(0, len(fs)-1).Draw(t, "failing")
		rig.Fail(w.abs(fs[k].name), w.abs(fs[k].target()))
		defer rig.Fail("", "")
		r := w.call().Edit(context.Background(), docs.EditArgs{Patch: patchOf(fs)})
		says := applied(r.Text)
		landed := 0
		for _, f := range fs {
			b, ok := w.get(t, f.target())
			in := ok && bytes.Equal(b, f.new)
			tag, said := says[f.target()]
			if in != said {
				t.Fatalf("%s: new bytes in the store %v, the reply says applied %v (the publish of %s fails):\n%s", f.target(), in, said, fs[k].target(), r.Text)
			}
			if said && tag != tagOf(f.new) {
				t.Fatalf("%s applied as #%s, its new bytes are #%s", f.target(), tag, tagOf(f.new))
			}
			if in {
				landed++
			} else if b, ok := w.get(t, f.name); !ok || !bytes.Equal(b, f.old) {
				t.Fatalf("%s did not land and holds %q, not its old %q:\n%s", f.name, b, f.old, r.Text)
			}
		}
		if r.Failed != (landed == 0) {
			t.Fatalf("%d files landed, Failed=%v:\n%s", landed, r.Failed, r.Text)
		}
		if landed < len(fs) && !strings.Contains(r.Text, "NOT applied") {
			t.Fatalf("%d of %d files landed, yet the reply does not say what was NOT applied:\n%s", landed, len(fs), r.Text)
		}
	})
}

// edit_keeps_untouched_bytes: an edit of one line keeps every other byte
// of the file as it was: a BOM, other lines, their CRLF or LF endings, a
// last line without one.
func editKeepsUntouchedBytes(t *testing.T, rig Rig) {
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		n := rapid.IntRange(1, 6).Draw(t, "lines")
		var lines [][]byte
		for i := range n {
			end := rapid.SampledFrom([]string{"\n", "\r\n", "\n"}).Draw(t, fmt.Sprintf("end%d", i))
			if i == n-1 && rapid.Bool().Draw(t, "noFinalEnd") {
				end = ""
			}
			lines = append(lines, []byte(rapid.StringMatching(`[a-zé\t ]{1,8}`).Draw(t, fmt.Sprintf("line%d", i))+end))
		}
		var b []byte
		if rapid.IntRange(0, 3).Draw(t, "bom") == 0 {
			b = append(b, 0xEF, 0xBB, 0xBF)
		}
		bom := len(b)
		b = bytes.Join(append([][]byte{b}, lines...), nil)
		name := w.name("f.txt")
		w.put(t, name, b, "f")
		w.read(t, name)
		k := rapid.IntRange(1, n).Draw(t, "replace")
		r := w.call().Edit(context.Background(), docs.EditArgs{Patch: fmt.Sprintf("[%s#%s]\n@@ %d\n+REPLACED\n", name, tagOf(b), k)})
		if r.Failed {
			t.Fatalf("edit failed: %s", r.Text)
		}
		got, _ := w.get(t, name)
		head := b[:bom+len(bytes.Join(lines[:k-1], nil))]
		tail := bytes.Join(lines[k:], nil)
		if !bytes.HasPrefix(got, head) || !bytes.HasSuffix(got, tail) || !bytes.Contains(got[len(head):], []byte("REPLACED")) {
			t.Fatalf("line %d of %q replaced gives %q: the bytes around it are not kept", k, b, got)
		}
		if len(got) < len(head)+len(tail) {
			t.Fatalf("line %d of %q replaced gives %q", k, b, got)
		}
	})
}

// write_never_loses_unseen: over a version this session did not see, write
// is refused and nothing changes.
func writeNeverLosesUnseen(t *testing.T, rig Rig) {
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		name := w.name("f.txt")
		b := genText(t, "old")
		if rapid.Bool().Draw(t, "readBefore") {
			w.put(t, name, []byte("an earlier version\n"), "f")
			w.read(t, name)
			w.change(t, name, b)
		} else {
			w.put(t, name, b, "f")
		}
		r := w.call().Write(context.Background(), docs.WriteArgs{Path: name, Content: string(genText(t, "content"))})
		got, _ := w.get(t, name)
		if !r.Failed || !bytes.Equal(got, b) || !strings.Contains(r.Text, "NOT written") {
			t.Fatalf("write over an unseen version: %q; the file holds %q (was %q)", r.Text, got, b)
		}
	})
}

// write_writes_seen: over no file, or a version this session read, write
// writes the content.
func writeWritesSeen(t *testing.T, rig Rig) {
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		name := w.name("f.txt")
		if rapid.Bool().Draw(t, "existing") {
			w.put(t, name, genText(t, "old"), "f")
			w.read(t, name)
		}
		content := genText(t, "content")
		r := w.call().Write(context.Background(), docs.WriteArgs{Path: name, Content: string(content)})
		got, ok := w.get(t, name)
		if r.Failed || !ok || !bytes.Equal(got, content) {
			t.Fatalf("write of a seen version: %q; the file holds %q, want %q", r.Text, got, content)
		}
	})
}

// move_moves: a move to a free name lands the bytes there (with the
// edit's change, if any) and the source is gone.
func moveMoves(t *testing.T, rig Rig) {
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		name := w.name("a.txt")
		b := genText(t, "a")
		w.put(t, name, b, "a")
		w.read(t, name)
		dest := w.name(rapid.SampledFrom([]string{"b.txt", "sub/b.txt", "a.txt.bak"}).Draw(t, "dest"))
		patch := fmt.Sprintf("[%s#%s]\n", name, tagOf(b))
		want := b
		if rapid.Bool().Draw(t, "withOp") {
			patch += "@@ $\n+tail\n"
			want = append(bytes.Clone(b), "tail\n"...)
		}
		r := w.call().Edit(context.Background(), docs.EditArgs{Patch: patch + "MV " + dest + "\n"})
		if r.Failed || !strings.HasPrefix(r.Text, "Applied to "+dest+"#"+tagOf(want)) {
			t.Fatalf("move to a free name: %s", r.Text)
		}
		if got, ok := w.get(t, dest); !ok || !bytes.Equal(got, want) {
			t.Fatalf("%s holds %q, want %q", dest, got, want)
		}
		if _, ok := w.get(t, name); ok {
			t.Fatalf("the source %s stays after the move", name)
		}
	})
}

// move_never_overwrites: a move onto a name that exists (on disk, or live
// in the store) is refused, and both files stay as they were.
func moveNeverOverwrites(t *testing.T, rig Rig) {
	rapid.Check(t, func(t *rapid.T) {
		w := newWS(t, rig)
		name, dest := w.name("a.txt"), w.name("b.txt")
		b, theirs := genText(t, "a"), genText(t, "theirs")
		w.put(t, name, b, "a")
		w.put(t, dest, theirs, "b")
		w.read(t, name)
		r := w.call().Edit(context.Background(), docs.EditArgs{Patch: fmt.Sprintf("[%s#%s]\nMV %s\n", name, tagOf(b), dest)})
		if !r.Failed || !strings.Contains(r.Text, "NOT applied") {
			t.Fatalf("a move onto %s, which exists: %s", dest, r.Text)
		}
		if got, ok := w.get(t, dest); !ok || !bytes.Equal(got, theirs) {
			t.Fatalf("the destination holds %q, want its own %q", got, theirs)
		}
		if got, ok := w.get(t, name); !ok || !bytes.Equal(got, b) {
			t.Fatalf("the source holds %q, want %q", got, b)
		}
	})
}

// DiskRig is a rig of the disk store over root whose Fail makes the
// rename or link of a target fail (docs.Disk.Fault).
func DiskRig(root string) Rig {
	disk := docs.NewDisk()
	var mu sync.Mutex
	failing := ""
	disk.Fault = func(step, path string) error {
		mu.Lock()
		defer mu.Unlock()
		if failing != "" && path == failing && (step == "rename" || step == "link") {
			return errors.New("injected fault")
		}
		return nil
	}
	return Rig{Root: root, Store: disk, Fail: func(_, target string) {
		mu.Lock()
		failing = target
		mu.Unlock()
	}}
}
