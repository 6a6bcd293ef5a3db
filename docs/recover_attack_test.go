//go:build !windows

package docs_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// What an attacker controls between the commit's decision and recovery's
// act (doc.go), each tried: a directory on the way swapped for a link (to
// .git/hooks, to outside the root, to ~), the target swapped for a link, a
// temp file swapped for a link or a hard link, a forged journal, a
// replayed journal of this user, and a journal whose signature verifies
// but whose paths are protected now. Each runs with no judge (the
// beneath-the-root machinery alone must hold) and with a judge like the
// documents gate's (protected: .git; outside the root): nothing under
// .git or outside the root may change, and the notice must say what was
// not done.

type recoverWorld struct {
	base, home, root, jdir string
}

func newRecoverWorld(t *testing.T) *recoverWorld {
	base := t.TempDir()
	w := &recoverWorld{base: base, home: filepath.Join(base, "home")}
	w.root = filepath.Join(w.home, "proj")
	w.jdir = filepath.Join(base, "state", "journal")
	for name, text := range map[string]string{
		".bashrc":                   "export EDITOR=vi\n",
		"proj/.git/config":          "[core]\n\tbare = false\n",
		"proj/.git/hooks/pre-push":  "#!/bin/sh\nexit 0\n",
		"proj/a.txt":                "a\n",
		"proj/d/b.txt":              "b\n",
		"proj/h/keep":               "k\n",
		"outside/b.txt":             "b\n",
		"proj/.git/hooks/README.md": "hooks\n",
	} {
		p := filepath.Join(base, name)
		if !strings.HasPrefix(name, "outside/") {
			p = filepath.Join(w.home, name)
		}
		must(t, os.MkdirAll(filepath.Dir(p), 0o755))
		must(t, os.WriteFile(p, []byte(text), 0o644))
	}
	return w
}

// guarded is every entry recovery must not touch: all of base but the
// workspace (and the journal directory), and the workspace's .git.
func (w *recoverWorld) guarded() map[string]string {
	out := map[string]string{}
	filepath.WalkDir(w.base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(w.base, p)
		inWS := p == w.root || strings.HasPrefix(p, w.root+"/")
		inGit := strings.Contains("/"+rel+"/", "/.git/")
		if (inWS && !inGit) || strings.HasPrefix(p, filepath.Dir(w.jdir)) {
			return nil
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return nil
		}
		b, _ := os.ReadFile(p)
		out[rel] = fmt.Sprintf("%v %x", fi.Mode(), sha256.Sum256(b))
		return nil
	})
	return out
}

// judgeLike judges as the documents gate under an auto set of {read,
// write}: a path whose directory resolves into a .git, or out of the
// root, is refused.
func (w *recoverWorld) judgeLike(real string) string {
	dir := filepath.Dir(real)
	for {
		if _, err := os.Lstat(dir); err == nil {
			break
		}
		dir = filepath.Dir(dir)
	}
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return "unresolvable"
	}
	r = filepath.Join(r, filepath.Base(real))
	switch {
	case !strings.HasPrefix(r, w.root+"/"):
		return "write+outside"
	case strings.Contains(r, "/.git/"):
		return "write+protected"
	}
	return ""
}

func (w *recoverWorld) p(rel string) string { return filepath.Join(w.root, rel) }

// journalOf is the record of the one journal in jdir (after its signed
// header line).
func journalOf(t *testing.T, jdir string) map[string]any {
	t.Helper()
	js := leftJournals(jdir)
	if len(js) != 1 {
		t.Fatalf("journals: %v", js)
	}
	b, err := os.ReadFile(filepath.Join(jdir, js[0]))
	must(t, err)
	_, rec, _ := bytes.Cut(b, []byte("\n"))
	var m map[string]any
	must(t, json.Unmarshal(rec, &m))
	return m
}

// tempOf is the temp file the journal names for its i-th change.
func tempOf(t *testing.T, jdir string, i int) string {
	t.Helper()
	f := journalOf(t, jdir)["files"].([]any)[i].(map[string]any)
	s, _ := f["temp"].(string)
	if s == "" {
		t.Fatalf("change %d has no temp file: %v", i, f)
	}
	return s
}

func swapForLink(t *testing.T, dir, target string) {
	t.Helper()
	must(t, os.Rename(dir, dir+".was"))
	must(t, os.Symlink(target, dir))
}

type recoverAttack struct {
	name string
	// crash makes the journal the interrupted commit left; swap is what
	// the attacker does before the next start.
	crash func(t *testing.T, w *recoverWorld) *docs.Disk
	swap  func(t *testing.T, w *recoverWorld)
	// notice is what the recovery's notice must say.
	notice []string
}

var hookText = []byte("#!/bin/sh\necho pwned\n")

func recoverAttacks() []recoverAttack {
	moveInto := func(t *testing.T, w *recoverWorld) *docs.Disk {
		must(t, os.MkdirAll(w.p("s"), 0o755))
		must(t, os.WriteFile(w.p("s/pre-commit"), hookText, 0o755))
		return crashAt(t, w.jdir, w.root, "link", []docs.Change{
			{Path: w.p("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
			{Path: w.p("s/pre-commit"), Old: hookText, MoveTo: w.p("h/pre-commit")}, // a bare move: no temp file
		})
	}
	// a copy of a file elsewhere, moved: the crash falls between the
	// link of its destination and the removal of its source
	moveOutOf := func(src string) func(t *testing.T, w *recoverWorld) *docs.Disk {
		return func(t *testing.T, w *recoverWorld) *docs.Disk {
			old, err := os.ReadFile(filepath.Join(w.home, src))
			must(t, err)
			name := filepath.Base(src)
			must(t, os.MkdirAll(w.p("s"), 0o755))
			must(t, os.MkdirAll(w.p("t"), 0o755))
			must(t, os.WriteFile(w.p("s/"+name), old, 0o644))
			return crashAt(t, w.jdir, w.root, "unlink", []docs.Change{
				{Path: w.p("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
				{Path: w.p("s/" + name), Old: old, New: old, MoveTo: w.p("t/" + name)},
			})
		}
	}
	editInD := func(t *testing.T, w *recoverWorld) *docs.Disk {
		return crashAt(t, w.jdir, w.root, "rename", []docs.Change{
			{Path: w.p("d/b.txt"), Old: []byte("b\n"), New: hookText},
			{Path: w.p("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		})
	}
	return []recoverAttack{
		{"a move's destination directory swapped for a link to .git/hooks", moveInto,
			func(t *testing.T, w *recoverWorld) { swapForLink(t, w.p("h"), ".git/hooks") },
			[]string{"pre-commit"}},
		{"a move's destination directory swapped for a link out of the root", moveInto,
			func(t *testing.T, w *recoverWorld) { swapForLink(t, w.p("h"), filepath.Join(w.base, "outside")) },
			[]string{"pre-commit"}},
		{"a move's source directory swapped for a link to .git", moveOutOf(filepath.Join("proj", ".git", "config")),
			func(t *testing.T, w *recoverWorld) { swapForLink(t, w.p("s"), ".git") },
			[]string{"config"}},
		{"a move's source directory swapped for a link to ~", moveOutOf(".bashrc"),
			func(t *testing.T, w *recoverWorld) { swapForLink(t, w.p("s"), w.home) },
			[]string{".bashrc"}},
		{"an edited file's directory swapped for a link out of the root, its temp file copied there", editInD,
			func(t *testing.T, w *recoverWorld) {
				tmp := tempOf(t, w.jdir, 0)
				b, err := readTemp(tmp)
				must(t, err)
				must(t, os.WriteFile(filepath.Join(w.base, "outside", filepath.Base(tmp)), b, 0o755))
				swapForLink(t, w.p("d"), filepath.Join(w.base, "outside"))
			},
			[]string{"b.txt"}},
		{"an edited file's directory swapped for a link to .git/hooks", editInD,
			func(t *testing.T, w *recoverWorld) { swapForLink(t, w.p("d"), ".git/hooks") },
			[]string{"b.txt"}},
		{"the target swapped for a link to ~/.bashrc", editInD,
			func(t *testing.T, w *recoverWorld) {
				must(t, os.WriteFile(filepath.Join(w.home, ".bashrc"), []byte("b\n"), 0o644))
				must(t, os.Remove(w.p("d/b.txt")))
				must(t, os.Symlink(filepath.Join(w.home, ".bashrc"), w.p("d/b.txt")))
			},
			[]string{"b.txt"}},
		{"the temp file swapped for a link to a hook", editInD,
			func(t *testing.T, w *recoverWorld) {
				tmp := tempOf(t, w.jdir, 0)
				must(t, os.WriteFile(w.p(".git/hooks/pre-push"), hookText, 0o755))
				must(t, os.Remove(tmp))
				must(t, os.Symlink(w.p(".git/hooks/pre-push"), tmp))
			},
			[]string{"b.txt"}},
		{"the temp file swapped for a hard link of a hook", editInD,
			func(t *testing.T, w *recoverWorld) {
				tmp := tempOf(t, w.jdir, 0)
				must(t, os.WriteFile(w.p(".git/hooks/pre-push"), hookText, 0o755))
				must(t, os.Remove(tmp))
				must(t, os.Link(w.p(".git/hooks/pre-push"), tmp))
			},
			[]string{"b.txt"}},
	}
}

func TestRecovery_attacks_between_the_commit_and_recovery_change_nothing_guarded(t *testing.T) {
	for _, a := range recoverAttacks() {
		for _, judged := range []bool{false, true} {
			t.Run(strings.ReplaceAll(fmt.Sprintf("%s judged=%v", a.name, judged), " ", "_"), func(t *testing.T) {
				w := newRecoverWorld(t)
				d := a.crash(t, w)
				a.swap(t, w)
				before := w.guarded()
				if judged {
					d.Judge = w.judgeLike
				}
				rs := d.Recover()
				if len(rs) != 1 {
					t.Fatalf("recovery: %+v", rs)
				}
				text := rs[0].Text(func(s string) string { return s })
				t.Logf("notice: %s", text)
				after := w.guarded()
				for k, v := range after {
					if before[k] != v {
						t.Errorf("recovery changed %s; notice: %s", k, text)
					}
				}
				for k := range before {
					if _, ok := after[k]; !ok {
						t.Errorf("recovery removed %s; notice: %s", k, text)
					}
				}
				if info, err := os.Stat(w.p("a.txt")); err != nil || info.Mode()&fs.ModeSymlink != 0 {
					t.Errorf("a.txt: %v", err)
				}
				if fi, err := os.Lstat(w.p("d/b.txt")); err == nil && fi.Mode()&fs.ModeSymlink != 0 && !strings.HasPrefix(a.name, "the target") {
					t.Errorf("d/b.txt is a link now: recovery published a temp file swapped for one")
				}
				var st syscall.Stat_t
				if syscall.Lstat(w.p("d/b.txt"), &st) == nil && st.Nlink != 1 {
					t.Errorf("d/b.txt has %d names: recovery linked a hook into the workspace", st.Nlink)
				}
				if len(rs[0].Left) == 0 && len(rs[0].TurnedBack) == 0 {
					t.Errorf("the notice does not say what recovery did not do: %s", text)
				}
				for _, want := range a.notice {
					if !strings.Contains(text, want) {
						t.Errorf("the notice does not name %s: %s", want, text)
					}
				}
				if js := leftJournals(w.jdir); len(js) != 0 {
					t.Errorf("journals left: %v", js)
				}
			})
		}
	}
}

// Without a swap, the same crashes are finished: the controls.
func TestRecovery_controls_are_finished(t *testing.T) {
	for _, a := range recoverAttacks()[:5] {
		t.Run(strings.ReplaceAll(a.name, " ", "_"), func(t *testing.T) {
			w := newRecoverWorld(t)
			d := a.crash(t, w)
			d.Judge = w.judgeLike
			rs := d.Recover()
			if len(rs) != 1 || rs[0].Err != nil || len(rs[0].Left) > 0 || len(rs[0].TurnedBack) > 0 {
				t.Fatalf("recovery: %+v", rs)
			}
			if b, _ := os.ReadFile(w.p("a.txt")); string(b) != "A\n" {
				t.Fatalf("a.txt holds %q", b)
			}
		})
	}
}

// A journal whose signature verifies but one of whose paths the gate
// would not let run unasked now is turned back, not finished: the other
// files end old, the refused one is not touched, and the notice names it.
func TestRecovery_a_signed_journal_with_a_path_protected_now_is_turned_back(t *testing.T) {
	w := newRecoverWorld(t)
	d := crashAt(t, w.jdir, w.root, "link", []docs.Change{
		{Path: w.p("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
		{Path: w.p("new.txt"), Create: true, New: []byte("n\n")},
		{Path: w.p("d/b.txt"), Old: []byte("b\n"), New: []byte("B\n")},
	})
	d.Judge = func(real string) string {
		if strings.HasSuffix(real, "b.txt") || strings.Contains(real, ".eukhe-tmp-b.txt") {
			return "write+protected"
		}
		return ""
	}
	rs := d.Recover()
	if len(rs) != 1 || len(rs[0].TurnedBack) == 0 {
		t.Fatalf("recovery: %+v", rs)
	}
	text := rs[0].Text(func(s string) string { return s })
	if !strings.Contains(text, "turned it back") || !strings.Contains(text, "b.txt (write+protected)") {
		t.Fatalf("the notice: %s", text)
	}
	if _, err := os.Lstat(w.p("new.txt")); err == nil {
		t.Fatal("new.txt was created: the journal was finished")
	}
	if b, _ := os.ReadFile(w.p("d/b.txt")); string(b) != "b\n" {
		t.Fatalf("b.txt holds %q", b)
	}
	// a.txt landed in place before the crash: its old bytes were kept
	// before the first publish, and it ends old
	if b, _ := os.ReadFile(w.p("a.txt")); string(b) != "a\n" || !strings.Contains(text, "completed "+w.p("a.txt")) {
		t.Fatalf("a.txt holds %q; the notice: %s", b, text)
	}
	if strings.Count(text, "b.txt's temp file") != 1 {
		t.Fatalf("the notice names a cause twice: %s", text)
	}
}

// A journal eukhe did not write as that file — forged, an earlier
// eukhe's unsigned one, another root's, a copy of a genuine one made
// earlier, one with a second name — is set aside, not acted on, and the
// notice says where it went.
func TestRecovery_a_journal_eukhe_did_not_write_is_set_aside(t *testing.T) {
	for _, c := range []struct {
		name   string
		forge  func(t *testing.T, w *recoverWorld, genuine []byte, jpath string)
		notice string
	}{
		{"forged with a made-up signature", func(t *testing.T, w *recoverWorld, genuine []byte, jpath string) {
			_, rec, _ := bytes.Cut(genuine, []byte("\n"))
			rec = bytes.ReplaceAll(rec, []byte("a.txt"), []byte("s.txt"))
			must(t, os.WriteFile(jpath, append([]byte("eukhe-journal v2 "+strings.Repeat("ab", 32)+"\n"), rec...), 0o600))
		}, "signature does not verify"},
		{"an unsigned v1 journal of an earlier eukhe", func(t *testing.T, w *recoverWorld, genuine []byte, jpath string) {
			_, rec, _ := bytes.Cut(genuine, []byte("\n"))
			must(t, os.WriteFile(jpath, bytes.Replace(rec, []byte(`{"v":2,`), []byte(`{"v":1,`), 1), 0o600))
		}, "earlier eukhe"},
		{"a replayed copy of this user's genuine journal", func(t *testing.T, w *recoverWorld, genuine []byte, jpath string) {
			must(t, os.WriteFile(jpath, genuine, 0o600))
		}, "signature does not verify"},
		{"a genuine journal with a second name", func(t *testing.T, w *recoverWorld, genuine []byte, jpath string) {
			must(t, os.WriteFile(jpath+".x", genuine, 0o600))
			must(t, os.Link(jpath+".x", jpath))
		}, "2 names"},
		{"another root's journal", func(t *testing.T, w *recoverWorld, genuine []byte, jpath string) {
			other := filepath.Join(w.base, "other")
			must(t, os.MkdirAll(other, 0o755))
			must(t, os.WriteFile(filepath.Join(other, "a.txt"), []byte("a\n"), 0o644))
			must(t, os.WriteFile(filepath.Join(other, "b.txt"), []byte("b\n"), 0o644))
			od := crashAt(t, filepath.Join(w.base, "state", "other"), other, "rename", []docs.Change{
				{Path: filepath.Join(other, "a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
				{Path: filepath.Join(other, "b.txt"), Old: []byte("b\n"), New: []byte("B\n")},
			})
			js := leftJournals(od.Journal)
			b, err := os.ReadFile(filepath.Join(od.Journal, js[0]))
			must(t, err)
			must(t, os.WriteFile(jpath, b, 0o600))
		}, "signature does not verify"},
	} {
		t.Run(strings.ReplaceAll(c.name, " ", "_"), func(t *testing.T) {
			w := newRecoverWorld(t)
			// a genuine journal, recovered (the files end new), then put
			// back to old: what a replay would find
			d := crashAt(t, w.jdir, w.root, "rename", []docs.Change{
				{Path: w.p("a.txt"), Old: []byte("a\n"), New: []byte("A\n")},
				{Path: w.p("d/b.txt"), Old: []byte("b\n"), New: []byte("B\n")},
			})
			js := leftJournals(w.jdir)
			jpath := filepath.Join(w.jdir, js[0])
			genuine, err := os.ReadFile(jpath)
			must(t, err)
			temp := tempOf(t, w.jdir, 0)
			tb, err := readTemp(temp)
			must(t, err)
			if rs := d.Recover(); len(rs) != 1 || rs[0].Err != nil {
				t.Fatalf("the genuine journal: %+v", rs)
			}
			must(t, os.WriteFile(w.p("a.txt"), []byte("a\n"), 0o644))
			must(t, os.WriteFile(w.p("d/b.txt"), []byte("b\n"), 0o644))
			must(t, os.WriteFile(temp, tb, 0o644)) // the attacker's copy of the temp file
			c.forge(t, w, genuine, jpath)
			rs := d.Recover()
			if len(rs) != 1 || rs[0].Err == nil || rs[0].SetAside == "" {
				t.Fatalf("recovery: %+v", rs)
			}
			text := rs[0].Text(func(s string) string { return s })
			if !strings.Contains(text, "set aside") || !strings.Contains(text, c.notice) {
				t.Fatalf("the notice: %s", text)
			}
			if _, err := os.Stat(rs[0].SetAside); err != nil {
				t.Fatalf("the journal was not kept where the notice says: %v", err)
			}
			for rel, want := range map[string]string{"a.txt": "a\n", "d/b.txt": "b\n"} {
				if b, _ := os.ReadFile(w.p(rel)); string(b) != want {
					t.Fatalf("%s holds %q: the journal was acted on", rel, b)
				}
			}
		})
	}
}

// readTemp reads a temp file as another process of the user must: a temp
// file has no mode until it lands, so it is given one first (what eukhe
// then sees as a temp file changed during the commit).
func readTemp(path string) ([]byte, error) {
	if fi, err := os.Stat(path); err == nil && fi.Mode().Perm() == 0 {
		if err := os.Chmod(path, 0o400); err != nil {
			return nil, err
		}
		defer os.Chmod(path, 0)
	}
	return os.ReadFile(path)
}
