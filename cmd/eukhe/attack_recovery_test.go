package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/docs"
)

// Crash recovery is as careful as the commit (issue 20, class 3): a
// journal a crash left is finished at the next start of eukhe mcp. Each
// row leaves one (a commit of this user, killed at a step), lets the
// attacker change the workspace or the journal before the start, starts
// the real eukhe mcp (auto set {read, write}), and checks that nothing
// under .git or outside the workspace changed, that no planted name
// appeared, and that the first reply's notice says what recovery did not
// do. Three rules, each with three ways or more around it: recovery
// follows no link; it acts on no path the gate would not let a write run
// unasked now (the journal is turned back); it acts on no journal it did
// not write.

// jdir is the journal directory of the world's root, as eukhe mcp finds it.
func (w *attackWorld) jdir() string {
	return docs.JournalDir(map[string]string{"HOME": w.home, "XDG_STATE_HOME": w.state}, w.root)
}

// crash commits cs as eukhe would, with the world's journal, killed at
// the nth step named step: every step from there on fails, as a kill
// stops them. It gives the journal's path.
func (w *attackWorld) crash(t *testing.T, step string, nth int, cs []docs.Change) string {
	t.Helper()
	d := docs.NewDisk()
	d.Journal, d.Root = w.jdir(), w.root
	seen := 0
	d.Fault = func(s, _ string) error {
		if s == step {
			seen++
		}
		if seen >= nth {
			return errors.New("killed")
		}
		return nil
	}
	d.Commit(cs)
	js, _ := filepath.Glob(filepath.Join(w.jdir(), "*.journal"))
	if len(js) != 1 {
		t.Fatalf("the crash at %s left journals %v", step, js)
	}
	return js[0]
}

// record is a journal's record (after its signed first line).
func record(t *testing.T, jpath string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(jpath)
	mustDo(t, err)
	_, rec, _ := bytes.Cut(b, []byte("\n"))
	var m map[string]any
	mustDo(t, json.Unmarshal(rec, &m))
	return m
}

// tempIn is the temp file a journal names for its i-th change.
func tempIn(t *testing.T, jpath string, i int) string {
	t.Helper()
	f := record(t, jpath)["files"].([]any)[i].(map[string]any)
	s, _ := f["temp"].(string)
	if s == "" {
		t.Fatalf("change %d names no temp file", i)
	}
	return s
}

func (w *attackWorld) at(rel string) string { return filepath.Join(w.root, rel) }

func swapDir(t *testing.T, dir, target string) {
	t.Helper()
	mustDo(t, os.Rename(dir, dir+".was"))
	mustDo(t, os.Symlink(target, dir))
}

// linkOrBack in a row's notice: the notice says a link was not followed,
// or that the journal was turned back (the gate saw the link first).
const linkOrBack = "(a link not followed, or turned back)"

// twoNamesOrProtected in a row's notice: the temp file has two names, or
// it is judged protected (another name of a protected file: class 6) and
// the journal is turned back for it.
const twoNamesOrProtected = "(2 names, or protected)"

var plantedHook = []byte("#!/bin/sh\necho pwned > /tmp/pwned\n")

type recoveryRow struct {
	rule, name string
	attack     func(t *testing.T, w *attackWorld)
	notice     []string // what the first reply's notice must say
}

func recoveryRows() []recoveryRow {
	// the workspace's copy of a file elsewhere, moved; the crash falls
	// between the link of its destination and the removal of its source
	moveOut := func(rel string) func(t *testing.T, w *attackWorld) string {
		return func(t *testing.T, w *attackWorld) string {
			old, err := os.ReadFile(filepath.Join(w.home, rel))
			mustDo(t, err)
			name := filepath.Base(rel)
			writeAt(t, w.root, "s/"+name, string(old))
			mustDo(t, os.MkdirAll(w.at("t"), 0o755))
			return w.crash(t, "unlink", 1, []docs.Change{
				{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
				{Path: w.at("s/" + name), Old: old, New: old, MoveTo: w.at("t/" + name)},
			})
		}
	}
	// an edit of d/b.txt and a.txt killed before its first publish
	editD := func(t *testing.T, w *attackWorld) string {
		writeAt(t, w.root, "d/b.txt", "b\n")
		return w.crash(t, "rename", 1, []docs.Change{
			{Path: w.at("d/b.txt"), Old: []byte("b\n"), New: plantedHook},
			{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
		})
	}
	// a bare move of the agent's script into h/, killed before its link
	moveInto := func(t *testing.T, w *attackWorld) string {
		writeAt(t, w.root, "s/pre-commit", string(plantedHook))
		writeAt(t, w.root, "h/keep", "k\n")
		return w.crash(t, "link", 1, []docs.Change{
			{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
			{Path: w.at("s/pre-commit"), Old: plantedHook, MoveTo: w.at("h/pre-commit")},
		})
	}
	// a genuine journal, recovered once (its files end new), the files put
	// back and the journal's file kept: what a replay finds
	genuine := func(t *testing.T, w *attackWorld) []byte {
		writeAt(t, w.root, "d/b.txt", "b\n")
		jpath := w.crash(t, "rename", 1, []docs.Change{
			{Path: w.at("d/b.txt"), Old: []byte("b\n"), New: plantedHook},
			{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
		})
		b, err := os.ReadFile(jpath)
		mustDo(t, err)
		tmp := tempIn(t, jpath, 0)
		tb, err := os.ReadFile(tmp)
		mustDo(t, err)
		d := docs.NewDisk()
		d.Journal, d.Root = w.jdir(), w.root
		if rs := d.Recover(); len(rs) != 1 || rs[0].Err != nil {
			t.Fatalf("the genuine journal: %+v", rs)
		}
		writeAt(t, w.root, "d/b.txt", "b\n")
		writeAt(t, w.root, "a.txt", "PRIVATE workspace words\nline two\n")
		mustDo(t, os.WriteFile(tmp, tb, 0o755))
		return b
	}
	jname := func(w *attackWorld) string { return filepath.Join(w.jdir(), "4242-1.journal") }
	return []recoveryRow{
		// 1. recovery follows no link
		{"no link", "a move's destination directory swapped for a link to .git/hooks",
			func(t *testing.T, w *attackWorld) { moveInto(t, w); swapDir(t, w.at("h"), ".git/hooks") },
			[]string{"pre-commit", linkOrBack}},
		{"no link", "a move's source directory swapped for a link to .git",
			func(t *testing.T, w *attackWorld) { moveOut("proj/.git/config")(t, w); swapDir(t, w.at("s"), ".git") },
			[]string{"config", linkOrBack}},
		{"no link", "a move's source directory swapped for a link to ~",
			func(t *testing.T, w *attackWorld) { moveOut(".bashrc")(t, w); swapDir(t, w.at("s"), w.home) },
			[]string{".bashrc", linkOrBack}},
		{"no link", "an edited file's directory swapped for a link out of the workspace, its temp file copied there",
			func(t *testing.T, w *attackWorld) {
				jpath := editD(t, w)
				tmp := tempIn(t, jpath, 0)
				b, err := os.ReadFile(tmp)
				mustDo(t, err)
				out := filepath.Join(w.base, "out")
				writeAt(t, out, "b.txt", "b\n")
				mustDo(t, os.WriteFile(filepath.Join(out, filepath.Base(tmp)), b, 0o755))
				swapDir(t, w.at("d"), out)
			},
			[]string{"b.txt", linkOrBack}},
		{"no link", "a temp file swapped for a hard link of a hook",
			func(t *testing.T, w *attackWorld) {
				jpath := editD(t, w)
				tmp := tempIn(t, jpath, 0)
				mustDo(t, os.WriteFile(w.at(".git/hooks/pre-push"), plantedHook, 0o755))
				mustDo(t, os.Remove(tmp))
				mustDo(t, os.Link(w.at(".git/hooks/pre-push"), tmp))
			},
			[]string{"b.txt", twoNamesOrProtected}},
		// 2. a path the gate would ask about now turns the journal back
		{"judged again", "a signed journal that writes .git/info/exclude",
			func(t *testing.T, w *attackWorld) {
				w.crash(t, "rename", 1, []docs.Change{
					{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
					{Path: w.at(".git/info/attributes"), Create: true, New: []byte("* filter=pwn\n")},
				})
			},
			[]string{"turned it back", "attributes"}},
		{"judged again", "a signed journal that writes a file outside through the workspace's link up",
			func(t *testing.T, w *attackWorld) {
				w.crash(t, "rename", 1, []docs.Change{
					{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
					{Path: w.at("up/.bashrc"), Old: []byte("export EDITOR=vi\n"), New: []byte("echo pwned\n")},
				})
			},
			[]string{"turned it back", ".bashrc"}},
		{"judged again", "a signed journal whose directory became a link to .git/hooks (the gate sees it there)",
			func(t *testing.T, w *attackWorld) {
				writeAt(t, w.root, "g/x", "x\n")
				w.crash(t, "rename", 1, []docs.Change{
					{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
					{Path: w.at("g/pre-commit"), Create: true, New: plantedHook},
				})
				swapDir(t, w.at("g"), ".git/hooks")
			},
			[]string{"turned it back", "pre-commit"}},
		// 3. a journal eukhe did not write is set aside
		{"not written by eukhe", "a forged journal with a made-up signature",
			func(t *testing.T, w *attackWorld) {
				b := genuine(t, w)
				_, rec, _ := bytes.Cut(b, []byte("\n"))
				mustDo(t, os.WriteFile(jname(w), append([]byte("eukhe-journal v2 "+strings.Repeat("00", 32)+"\n"), rec...), 0o600))
			},
			[]string{"set aside", "signature does not verify"}},
		{"not written by eukhe", "an unsigned journal of an earlier eukhe",
			func(t *testing.T, w *attackWorld) {
				b := genuine(t, w)
				_, rec, _ := bytes.Cut(b, []byte("\n"))
				mustDo(t, os.WriteFile(jname(w), bytes.Replace(rec, []byte(`{"v":2,`), []byte(`{"v":1,`), 1), 0o600))
			},
			[]string{"set aside", "earlier eukhe"}},
		{"not written by eukhe", "a replayed copy of this user's genuine journal",
			func(t *testing.T, w *attackWorld) { mustDo(t, os.WriteFile(jname(w), genuine(t, w), 0o600)) },
			[]string{"set aside", "signature does not verify"}},
		{"not written by eukhe", "a genuine journal kept under a second name",
			func(t *testing.T, w *attackWorld) {
				mustDo(t, os.WriteFile(jname(w)+".kept", genuine(t, w), 0o600))
				mustDo(t, os.Link(jname(w)+".kept", jname(w)))
			},
			[]string{"set aside", "2 names"}},
	}
}

func TestAttacks_recovery_through_eukhe_mcp_follows_no_link_and_acts_on_no_journal_it_did_not_write(t *testing.T) {
	t.Parallel()
	for _, row := range recoveryRows() {
		t.Run(strings.ReplaceAll(row.rule+": "+row.name, " ", "_"), func(t *testing.T) {
			w := newAttackWorld(t)
			before := w.snapshot(t)
			row.attack(t, w)
			if after := w.snapshot(t); len(after) != len(before) {
				before = after // the attack itself changed .git (a hard link's count)
			}
			bashrc, _ := os.ReadFile(filepath.Join(w.home, ".bashrc"))
			p := w.startMCP(t, "headless")
			text, _ := p.call("read", map[string]any{"path": "a.txt"})
			_, notice, ok := strings.Cut(text, "[notice] ")
			if !ok {
				t.Fatalf("the first reply has no notice:\n%s", text)
			}
			for _, want := range row.notice {
				if want == linkOrBack && (strings.Contains(notice, "symbolic link") || strings.Contains(notice, "turned it back")) {
					continue
				}
				if want == twoNamesOrProtected && (strings.Contains(notice, "2 names") || strings.Contains(notice, "write+protected")) {
					continue
				}
				if !strings.Contains(notice, want) {
					t.Errorf("the notice does not say %q:\n%s", want, notice)
				}
			}
			after := w.snapshot(t)
			for k, v := range after {
				if before[k] != v && !strings.HasSuffix(k, ".was") {
					t.Errorf("recovery changed %s\nnotice: %s", k, notice)
				}
			}
			for k := range before {
				if _, ok := after[k]; !ok {
					t.Errorf("recovery removed %s\nnotice: %s", k, notice)
				}
			}
			if b, _ := os.ReadFile(filepath.Join(w.home, ".bashrc")); !bytes.Equal(b, bashrc) {
				t.Errorf("~/.bashrc holds %q", b)
			}
			for _, hook := range []string{"pre-commit", "pre-push"} {
				if b, err := os.ReadFile(w.at(".git/hooks/" + hook)); err == nil && hook == "pre-commit" {
					t.Errorf("a hook was planted: %q", b)
				}
			}
			if n := namesOf(w.at("d/b.txt")); n > 1 {
				t.Errorf("d/b.txt has %d names: a hook was linked into the workspace", n)
			}
			if planted := plantedIn(w.root); len(planted) > 0 {
				t.Errorf("planted: %v", planted)
			}
			if js, _ := filepath.Glob(filepath.Join(w.jdir(), "*.journal")); len(js) > 0 {
				t.Errorf("journals left: %v", js)
			}
			// controls: the session works on, unasked (the user has put
			// the swapped directories back)
			was, _ := filepath.Glob(filepath.Join(w.root, "*.was"))
			for _, d := range was {
				mustDo(t, os.Remove(strings.TrimSuffix(d, ".was")))
				mustDo(t, os.Rename(d, strings.TrimSuffix(d, ".was")))
			}
			for _, c := range []attack{
				sh("control", "sed -i 's/line two/line 2/' a.txt; git log --oneline -1 || true; echo done"),
				doc("control", "write", map[string]any{"path": "notes/after.txt", "content": "fine\n"}),
			} {
				if out, failed := p.call(c.tool, c.args); failed || strings.Contains(out, "did not run") {
					t.Errorf("control %s %v:\n%s", c.tool, c.args, out)
				}
			}
		})
	}
}

// The agent cannot reach the journals to plant or copy one: eukhe's state
// directory is secret to the document tools and hidden from every step.
func TestAttacks_the_agent_cannot_write_a_journal(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	p := w.startMCP(t, "headless")
	jdir := w.jdir()
	rel := strings.TrimPrefix(jdir, w.home+"/")
	for _, a := range []attack{
		sh("journal", "mkdir -p ~/"+rel+"; echo '{}' > ~/"+rel+"/1-1.journal"),
		sh("journal", "cp a.txt ~/"+rel+"/1-2.journal"),
		sh("journal", "cat ~/"+rel+"/key; ls ~/.local/state/eukhe/journal"),
		doc("journal", "write", map[string]any{"path": "~/" + rel + "/1-3.journal", "content": "{}\n"}),
		doc("journal", "read", map[string]any{"path": "~/" + rel + "/key"}),
		doc("journal", "grep", map[string]any{"pattern": ".", "path": "~/.local/state/eukhe"}),
	} {
		out, _ := p.call(a.tool, a.args)
		if !strings.Contains(out, "secret") {
			t.Errorf("%s %v was not refused as secret:\n%s", a.tool, a.args, out)
		}
	}
	if js, _ := filepath.Glob(filepath.Join(jdir, "*.journal")); len(js) > 0 {
		t.Errorf("the agent wrote journals: %v", js)
	}
}

// With exec in the auto set, a program the gate cannot see into runs
// unasked, in the sandbox: the journal directory and its key are hidden
// from it.
func TestAttacks_a_program_cannot_read_the_journal_key(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	writeAt(t, w.home, ".config/eukhe/settings.json", `{"shell.autoEffects": ["read", "write", "exec"]}`)
	w.crash(t, "rename", 1, []docs.Change{ // makes the key
		{Path: w.at("a.txt"), Old: []byte("PRIVATE workspace words\nline two\n"), New: []byte("edited\n")},
		{Path: w.at("b.txt"), Create: true, New: []byte("b\n")},
	})
	key, err := os.ReadFile(filepath.Join(w.jdir(), "key"))
	mustDo(t, err)
	p := w.startMCP(t, "headless")
	hexKey := fmt.Sprintf("%x", key)
	for _, script := range []string{
		`sh -c 'od -An -tx1 "$HOME"/.local/state/eukhe/journal/*/key | tr -d " \n"; echo'`,
		`python3 -c 'import glob,os; [print(open(p,"rb").read().hex()) for p in glob.glob(os.path.expanduser("~/.local/state/eukhe/journal/*/key"))]'`,
		`sh -c 'for d in "$HOME"/.local/state/eukhe/journal/*; do xxd -p "$d/key"; done'`,
		`sh -c 'ls -la "$HOME"/.local/state/eukhe/journal/ | wc -l'`,
		`python3 -c 'import os,glob; d=os.environ["HOME"]+"/."+"lo"+"cal/st"+"ate"; [print(open(k,"rb").read().hex()) for k in glob.glob(d+"/eu*/jo*/*/k*")]'`,
	} {
		out, _ := p.call("bash", map[string]any{"script": script})
		if os.Getenv("EUKHE_ATTACK_LOG") != "" {
			t.Logf("%s:\n%.300s", script, out)
		}
		flat := strings.NewReplacer("\n", "", " ", "").Replace(out)
		if strings.Contains(flat, hexKey) {
			t.Errorf("%s showed the journal key:\n%s", script, out)
		}
	}
	if out, failed := p.call("bash", map[string]any{"script": "python3 -c 'print(6*7)'"}); failed || !strings.Contains(out, "42") {
		t.Errorf("control: python3 under exec did not run unasked:\n%s", out)
	}
}
