package vscodereal

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// step runs one check of the scenario as a subtest (PASS or FAIL by
// name); the session's failures during it fail that subtest. A later step
// builds on the state an earlier one left, so a failed step ends the run.
func (s *session) step(t *testing.T, name string, f func(t *testing.T)) {
	t.Helper()
	parent := s.t
	ok := t.Run(name, func(t *testing.T) { s.t = t; f(t) })
	s.t = parent
	if !ok {
		t.FailNow()
	}
}

type statusItem struct{ ID, Text, Label string }

// One real VS Code, one workspace, one agent, in order: the extension
// activates; the agent reads the user's unsaved typing; its edit of two
// files lands in both open editors; the review's Undo and Keep lenses
// work per hunk, Undo under the user's later typing and in the editor's
// undo history, and the edit is in each file's undo history; a modal
// question is denied by Escape, by Enter and by its close control, and
// Allow runs the step; and the agent's
// edit of line 4 lands while the user types on line 1; a broken user
// settings file shows as a problem that clears once it is fixed, or
// removed.
func TestRealVSCode(t *testing.T) {
	s := start(t, map[string]string{"a.txt": "a one\na two\na three\na four\n", "b.txt": "b one\nb two\n",
		"greet.go": greetGo, "eol.txt": "one\ntwo\nthree\n"})
	var ag *agent
	top := t

	s.step(t, "the extension activates and shows its status item", func(t *testing.T) {
		var items []statusItem
		for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(300 * time.Millisecond) {
			json.Unmarshal(s.do("status", nil), &items)
			for _, it := range items {
				if strings.HasPrefix(it.ID, "eukhe.") && strings.Contains(it.Text, "eukhe") && strings.Contains(it.Label, "Confinement") {
					t.Logf("status item %s: %q", it.ID, it.Label)
					return
				}
			}
			if time.Now().After(deadline) {
				s.fail("no eukhe status item within 60 s of the workbench showing; the status bar holds: " + mustJSON(items))
			}
		}
	})

	s.step(t, "an attached agent reads the unsaved text of an open editor", func(t *testing.T) {
		s.do("open", map[string]any{"name": "a.txt"})
		s.do("type", map[string]any{"name": "a.txt", "line": 2, "text": " typed"})
		if got, ok := s.waitText("a.txt", "a one\na two typed\na three\na four\n"); !ok {
			s.fail("a.txt's editor after typing: " + got)
		}
		ag = s.attach(top)
		if text, ok := ag.readUntil(t, "a.txt", "2:a two typed\n"); !ok {
			s.fail("the agent's read of a.txt with unsaved typing:\n" + text + "\neukhe mcp:\n" + ag.stderr.String())
		}
		if b, _ := os.ReadFile(filepath.Join(s.w.Root, "a.txt")); string(b) != "a one\na two\na three\na four\n" {
			t.Errorf("a.txt on disk is %q: the typing was saved, so the read proves nothing about unsaved text", b)
		}
	})

	s.step(t, "an agent's two-file edit lands in the open editors", func(t *testing.T) {
		s.do("open", map[string]any{"name": "b.txt"})
		ra := ag.must(t, "read", map[string]any{"path": "a.txt"})
		rb := ag.must(t, "read", map[string]any{"path": "b.txt"})
		edit := ag.must(t, "edit", map[string]any{"patch": "[a.txt#" + tagOf(ra) + "]\n@@ 1\n+A ONE\n[b.txt#" + tagOf(rb) + "]\n@@ 1\n+B ONE\n"})
		if !regexp.MustCompile(`^Applied to a\.txt#[0-9a-f]+, b\.txt#[0-9a-f]+\.`).MatchString(edit) {
			t.Errorf("the two-file edit said:\n%s", edit)
		}
		if got, ok := s.waitText("a.txt", "A ONE\na two typed\na three\na four\n"); !ok {
			s.fail("a.txt's editor after the edit: " + got)
		}
		if got, ok := s.waitText("b.txt", "B ONE\nb two\n"); !ok {
			s.fail("b.txt's editor after the edit: " + got)
		}
	})

	s.step(t, "the review's Undo and Keep lenses work per hunk", func(t *testing.T) {
		// Issue 22's second finding: Undo must follow its hunk when the
		// user typed elsewhere in the file after the edit.
		s.do("type", map[string]any{"name": "a.txt", "line": 3, "text": " more"})
		if got, ok := s.waitText("a.txt", "A ONE\na two typed\na three more\na four\n"); !ok {
			s.fail("a.txt's editor after typing on line 3: " + got)
		}
		if text, ok := ag.readUntil(t, "a.txt", "3:a three more\n"); !ok {
			s.fail("the agent's read of a.txt after typing on line 3:\n" + text)
		}
		s.decide(t, "a.txt", "Undo")
		if got, ok := s.waitText("a.txt", "a one\na two typed\na three more\na four\n"); !ok {
			s.fail("a.txt's editor after Undo of its hunk on line 1, the user having typed on line 3 since the edit (the typing must stay, line 1 go back): " + got)
		}
		if text, ok := ag.readUntil(t, "a.txt", "1:a one\n2:a two typed\n"); !ok {
			t.Errorf("the agent's read after Undo:\n%s", text)
		}
		// Undo is an edit in the editor's undo history: Ctrl+Z there
		// brings the agent's line back, Ctrl+Shift+Z takes it away again.
		s.do("key", map[string]any{"name": "a.txt", "key": "Control+KeyZ"})
		if got, ok := s.waitText("a.txt", "A ONE\na two typed\na three more\na four\n"); !ok {
			t.Errorf("a.txt after Ctrl+Z following the lens's Undo (the agent's line should be back): %q", got)
		}
		s.do("key", map[string]any{"name": "a.txt", "key": "Control+Shift+KeyZ"})
		if got, ok := s.waitText("a.txt", "a one\na two typed\na three more\na four\n"); !ok {
			s.fail("a.txt after Ctrl+Shift+Z (redo of the lens's Undo): " + got)
		}
		s.decide(t, "b.txt", "Keep")
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			if l := s.lenses("b.txt"); len(l) == 0 {
				break
			} else if time.Now().After(deadline) {
				s.fail("b.txt still shows lenses after Keep of its one hunk: " + strings.Join(l, " / "))
			}
		}
		if got := s.text("b.txt"); got != "B ONE\nb two\n" {
			t.Errorf("b.txt's editor after Keep: %q", got)
		}
		// The two-file edit is in b.txt's undo history too: Ctrl+Z there
		// takes the agent's line out of b.txt alone (a.txt was typed in
		// since, so VS Code undoes the edit in this file only), and
		// Ctrl+Shift+Z brings it back.
		s.do("key", map[string]any{"name": "b.txt", "key": "Control+KeyZ"})
		if got, ok := s.waitText("b.txt", "b one\nb two\n"); !ok {
			t.Errorf("b.txt after Ctrl+Z following Keep (the agent's edit of b.txt should be undone): %q", got)
		}
		// polled: the driver read a.txt's model as "" once under load (a
		// CI rehearsal), where the file had not changed
		if got, ok := s.waitText("a.txt", "a one\na two typed\na three more\na four\n"); !ok {
			t.Errorf("a.txt after Ctrl+Z in b.txt (it must not change): %q", got)
		}
		s.do("key", map[string]any{"name": "b.txt", "key": "Control+Shift+KeyZ"})
		if got, ok := s.waitText("b.txt", "B ONE\nb two\n"); !ok {
			s.fail("b.txt after Ctrl+Shift+Z (redo of the agent's edit): " + got)
		}
	})

	s.step(t, "an edit of a Go file shows each hunk with its lenses, and Keep all keeps them (README's picture)", func(t *testing.T) {
		s.do("open", map[string]any{"name": "greet.go"})
		r := ag.must(t, "read", map[string]any{"path": "greet.go"})
		edit := ag.must(t, "edit", map[string]any{"patch": "[greet.go#" + tagOf(r) + "]\n" + greetPatch})
		if !strings.HasPrefix(edit, "Applied to greet.go#") {
			t.Errorf("the edit of greet.go said:\n%s", edit)
		}
		// the editor draws a tab as four spaces (its default tab size)
		shown := strings.ReplaceAll(greetGoEdited, "\t", "    ")
		if got, ok := s.waitText("greet.go", shown); !ok {
			s.fail("greet.go's editor after the edit: " + got)
		}
		// the line diff makes three hunks of the two: the comment, the
		// body, the call; the file's own lens keeps or undoes them all
		l, ok := s.waitLenses("greet.go", "Keep", "Undo")
		if !ok || len(l) != 4 || l[0] != "Keep all | Undo all" || l[1] != "Keep | Undo" {
			s.fail(fmt.Sprintf("greet.go shows %q, not Keep all and Undo all, then a Keep and an Undo for each of its three hunks", l))
		}
		// README's picture of the review: written where
		// EUKHE_README_PICTURE says (guide/review.png), else beside the
		// test's workspace; either way it must be a picture.
		path := os.Getenv("EUKHE_README_PICTURE")
		if path == "" {
			path = filepath.Join(s.w.Base, "review.png")
		}
		var layout shotLayout
		if err := json.Unmarshal(s.do("shot", map[string]any{"path": path, "clip": "editor", "height": 425}), &layout); err != nil {
			t.Errorf("the driver's shot: %v", err)
		}
		if len(layout.Moved) > 0 {
			t.Logf("boxes the browser had scrolled, put back before the picture: %q", layout.Moved)
		}
		for _, p := range layout.problems() {
			t.Errorf("the review's picture %s: %s", path, p)
		}
		if b, err := os.ReadFile(path); err != nil {
			t.Errorf("the review's picture %s: %v", path, err)
		} else {
			for _, p := range pictureProblems(b, layout.Clip.Width, layout.Clip.Height) {
				t.Errorf("the review's picture %s: %s", path, p)
			}
		}
		s.do("click", map[string]any{"name": "greet.go", "lens": "Keep all"})
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			if l := s.lenses("greet.go"); len(l) == 0 {
				break
			} else if time.Now().After(deadline) {
				s.fail("greet.go still shows lenses after Keep all: " + strings.Join(l, " / "))
			}
		}
		if got := s.text("greet.go"); got != shown {
			t.Errorf("greet.go's editor after Keep all: %q", got)
		}
	})

	// A file switched from LF to CRLF in the editor: VS Code changes the
	// document's line endings without a text edit. eukhe's copy must
	// follow, or every later edit of the file would be checked against
	// the old endings and refused.
	s.step(t, "a file switched to CRLF in the editor takes the agent's edit, in CRLF", func(t *testing.T) {
		s.do("open", map[string]any{"name": "eol.txt"})
		before := tagOf(ag.must(t, "read", map[string]any{"path": "eol.txt"}))
		var says string
		json.Unmarshal(s.do("eol", map[string]any{"name": "eol.txt", "eol": "CRLF"}), &says)
		t.Logf("the end-of-line item says %q", says)
		// the status bar shows CRLF before the editor's didChange reaches
		// eukhe; a read's tag names the exact bytes, so it changes when
		// eukhe's copy has the new endings. An edit read before that is
		// refused, rightly: every line changed under it.
		var r string
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
			if r = ag.must(t, "read", map[string]any{"path": "eol.txt"}); tagOf(r) != before {
				break
			} else if time.Now().After(deadline) {
				s.fail("eukhe's copy of eol.txt never took the switch to CRLF: its tag stays " + before)
			}
		}
		edit, isErr, err := ag.call("edit", map[string]any{"patch": "[eol.txt#" + tagOf(r) + "]\n@@ 2\n+TWO\n"})
		if err != nil || isErr || !strings.HasPrefix(edit, "Applied to eol.txt#") {
			s.fail(fmt.Sprintf("the edit of eol.txt after the switch to CRLF (%v, error result %v):\n%s\nthe read was:\n%s", err, isErr, edit, r))
		}
		if got, ok := s.waitText("eol.txt", "one\nTWO\nthree\n"); !ok {
			s.fail("eol.txt's editor after the edit: " + got)
		}
		s.do("save", map[string]any{"name": "eol.txt"})
		if got, ok := s.waitDisk(filepath.Join(s.w.Root, "eol.txt"), "one\r\nTWO\r\nthree\r\n"); !ok {
			t.Errorf("eol.txt on disk after the edit and a save: %q, want every line in CRLF", got)
		}
	})

	s.step(t, "a modal question denies on Escape, on Enter and on its close control; Allow runs the step", func(t *testing.T) {
		for _, c := range []struct{ how, file string }{{"Escape", "escaped.txt"}, {"Enter", "entered.txt"}, {"Close", "closed.txt"}, {"Allow", "allowed.txt"}} {
			d, text := s.ask(t, ag, "sh -c 'echo ran > "+c.file+"'", func() {
				switch c.how {
				case "Allow":
					s.do("button", map[string]any{"text": "Allow"})
				case "Close":
					// the X of the dialog's toolbar, clicked with the
					// mouse (VS Code's "Close Dialog": the dialog's
					// cancel, which the extension answers as a denial)
					s.do("close", nil)
				default:
					s.do("key", map[string]any{"key": c.how})
				}
			})
			t.Logf("%s: the dialog %q / %q, buttons %q, close control %v", c.how, d.Message, d.Detail, d.Buttons, d.CloseControl)
			if c.how == "Close" && !d.CloseControl {
				t.Errorf("the modal question has no close control (the X of VS Code's dialog): %+v", d)
			}
			if !strings.Contains(d.Message+"\n"+d.Detail, "echo ran > "+c.file) {
				t.Errorf("%s: the dialog does not show the step as it will run: %q / %q", c.how, d.Message, d.Detail)
			}
			b, err := os.ReadFile(filepath.Join(s.w.Root, c.file))
			switch {
			case c.how == "Allow" && string(b) != "ran\n":
				t.Errorf("Allow: the step did not run (%s: %q, %v); it said:\n%s", c.file, b, err, text)
			case c.how != "Allow" && (err == nil || !strings.Contains(text, "denied")):
				t.Errorf("%s: the step ran (%s exists: %v) or its reply does not say it was denied:\n%s", c.how, c.file, err == nil, text)
			}
		}
	})

	// Issue 22's first finding: an edit elsewhere in a file the user is
	// typing in must land (rebased on the typing), not be refused. Alone
	// on the machine every try lands; with the eukhe before the rebase fix
	// 2 of 3 did. Under load (two runs of this test at once) VS Code
	// refused 2 of 5 while eukhe waited 300 ms for the didChange behind a
	// refusal; it waits up to 2 s now (lsp/rebase.go refusedWait). In CI
	// 1 of 5 ran out of sends while the user typed: a stale edit is sent
	// again after a pause in the typing now (typingPause), so its reply
	// may come after the typing ends.
	s.step(t, "the agent's edit of line 4 lands while the user types on line 1", func(t *testing.T) {
		const typed = " and the user keeps typing"
		want := "a one\na two typed\na three more\na four\n"
		landed, raced := 0, 0
		const tries = 5
		aTxt := filepath.Join(s.w.Root, "a.txt")
		for i := 1; i <= tries; i++ {
			// saved first, so the edit is checked on a clean buffer:
			// eukhe saves such a one after the edit, but not with the
			// user's keystrokes in it
			if _, err := s.drv.do("save", map[string]any{"name": "a.txt"}); err != nil {
				s.fail("save: " + err.Error())
			}
			saved, ok := s.waitDisk(aTxt, want)
			if !ok {
				s.fail(fmt.Sprintf("a.txt on disk after Ctrl+S: %q, the editor holds %q", saved, want))
			}
			// odd tries read while the user types; even ones read the
			// saved text and edit as the typing begins, so the edit may be
			// checked on a clean buffer and land over the keystrokes
			var ra string
			if i%2 == 0 {
				ra = ag.must(t, "read", map[string]any{"path": "a.txt"})
			}
			typing := make(chan error, 1)
			go func() {
				_, err := s.drv.do("type", map[string]any{"name": "a.txt", "line": 1, "text": typed, "delay": 40})
				typing <- err
			}()
			if i%2 == 0 {
				time.Sleep(20 * time.Millisecond)
			} else {
				time.Sleep(300 * time.Millisecond)
				ra = ag.must(t, "read", map[string]any{"path": "a.txt"})
			}
			line4 := fmt.Sprintf("A FOUR %d", i)
			select {
			case terr := <-typing:
				typing <- terr
			default:
				raced++ // the edit is sent while the user types
			}
			edit, isErr, err := ag.call("edit", map[string]any{"patch": "[a.txt#" + tagOf(ra) + "]\n@@ 4\n+" + line4 + "\n"})
			if err := <-typing; err != nil {
				s.fail("typing: " + err.Error())
			}
			first, _, _ := strings.Cut(want, "\n")
			want = first + typed + "\na two typed\na three more\n" + line4 + "\n"
			got, ok := s.waitText("a.txt", want)
			if b, _ := os.ReadFile(aTxt); strings.Count(string(b), typed) != strings.Count(saved, typed) {
				t.Errorf("try %d: eukhe saved the user's keystrokes with the edit: a.txt on disk is %q; the edit said:\n%s", i, b, edit)
			}
			if err == nil && !isErr && strings.HasPrefix(edit, "Applied to a.txt#") && ok {
				landed++
				continue
			}
			t.Logf("try %d: the edit said (%v, error result %v):\n%s\nthe editor shows %q", i, err, isErr, edit, got)
			if !ok {
				// the edit did not land: what stands is the typing alone
				want = got
			}
		}
		t.Logf("in %d of %d tries the user was still typing when the edit was sent", raced, tries)
		if raced == 0 {
			t.Errorf("the typing had ended before every edit was sent: the race was not run")
		}
		if landed != tries {
			t.Errorf("the edit of line 4 landed in %d of %d tries while the user typed on line 1", landed, tries)
		}
	})

	s.step(t, "a settings file's problem shows and clears when the file is fixed or removed", func(t *testing.T) {
		user := filepath.Join(s.w.Config, "eukhe", "settings.json")
		good, err := os.ReadFile(user)
		if err != nil {
			t.Fatal(err)
		}
		for _, fix := range []string{"fixed", "removed"} {
			if err := os.WriteFile(user, []byte(`{"shell.autoEffects": [`), 0o600); err != nil {
				t.Fatal(err)
			}
			s.waitSettings(t, "Settings: 1 problem", "after the user settings file was broken")
			if fix == "fixed" {
				err = os.WriteFile(user, good, 0o600)
			} else {
				err = os.Remove(user)
			}
			if err != nil {
				t.Fatal(err)
			}
			s.waitSettings(t, "Settings: no problems", "after the broken user settings file was "+fix)
		}
		os.WriteFile(user, good, 0o600)
	})
}

// lenses are the CodeLens texts of name's editor, top to bottom.
func (s *session) lenses(name string) []string {
	var l []string
	json.Unmarshal(s.do("lenses", map[string]any{"name": name}), &l)
	return l
}

// decide clicks name's lens titled lens (its one hunk); a lens that is
// not drawn within 20 s fails the test.
func (s *session) decide(t *testing.T, name, lens string) {
	t.Helper()
	l, ok := s.waitLenses(name, "Keep", "Undo")
	if !ok {
		s.fail(fmt.Sprintf("%s shows no Keep and Undo lenses 20 s after the review (it shows %q); the editor draws %s", name, l, s.do("probe", nil)))
	}
	t.Logf("%s's lenses: %s", name, strings.Join(l, " / "))
	s.do("click", map[string]any{"name": name, "lens": lens})
}

// waitLenses waits up to 20 s for name's editor to show lens links with
// each of the titles. It looks without moving the focus (driver.mjs's
// activate leaves an editor in front alone): the workbench asks for an
// editor's lenses only once the editor has kept the focus for its CodeLens
// debounce (at least 250 ms, more under load), so polling that clicked
// the editor's tab every 200 ms kept the lenses from ever being asked for.
func (s *session) waitLenses(name string, titles ...string) ([]string, bool) {
	s.t.Helper()
	var l []string
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		l = s.lenses(name)
		all := " | " + strings.Join(l, " | ") + " | "
		ok := true
		for _, ti := range titles {
			ok = ok && strings.Contains(all, " "+ti+" ")
		}
		if ok {
			return l, true
		}
		if time.Now().After(deadline) {
			return l, false
		}
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

type dialog struct {
	Message, Detail string
	Buttons         []string
	CloseControl    bool
}

// ask runs script as the agent's bash step, waits for its modal question,
// answers it with answer and gives the dialog and the step's reply.
func (s *session) ask(t *testing.T, ag *agent, script string, answer func()) (dialog, string) {
	t.Helper()
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		text, _, err := ag.call("bash", map[string]any{"script": script})
		done <- result{text, err}
	}()
	var d dialog
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(200 * time.Millisecond) {
		if raw := s.do("dialog", nil); string(raw) != "null" {
			json.Unmarshal(raw, &d)
			break
		}
		if time.Now().After(deadline) {
			s.fail("no dialog within 30 s of the gated step " + script + "\neukhe mcp:\n" + ag.stderr.String())
		}
	}
	answer()
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatalf("the gated step %s: %v", script, r.err)
		}
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if raw := s.do("dialog", nil); string(raw) == "null" {
				break
			}
		}
		return d, r.text
	case <-time.After(30 * time.Second):
		s.fail("the gated step " + script + " had no reply 30 s after its dialog was answered")
	}
	return d, ""
}

// waitSettings waits up to 20 s for the settings status item's tooltip
// to say want.
func (s *session) waitSettings(t *testing.T, want, when string) {
	t.Helper()
	var items []statusItem
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(300 * time.Millisecond) {
		json.Unmarshal(s.do("status", nil), &items)
		for _, it := range items {
			if strings.HasPrefix(it.ID, "eukhe.") && strings.Contains(it.Label, want) {
				return
			}
		}
		if time.Now().After(deadline) {
			t.Errorf("the settings status item does not say %q %s; the status bar holds: %s", want, when, mustJSON(items))
			return
		}
	}
}

// greetGo is the Go file of README's picture, greetPatch the agent's
// two-hunk edit of it (a changed function, a changed call), and
// greetGoEdited what the file holds after it.
const (
	greetGo = "package main\n\nimport \"fmt\"\n\nfunc greet(name string) string {\n\treturn \"Hello, \" + name\n}\n\nfunc main() {\n\tfmt.Println(greet(\"world\"))\n}\n"

	greetPatch = "@@ 5-7\n" +
		"+// greet says hello to name, or to the world when name is empty.\n" +
		"+func greet(name string) string {\n" +
		"+\tif name == \"\" {\n" +
		"+\t\tname = \"world\"\n" +
		"+\t}\n" +
		"+\treturn \"Hello, \" + name + \"!\"\n" +
		"+}\n" +
		"@@ 10\n" +
		"+\tfmt.Println(greet(\"\"))\n"

	greetGoEdited = "package main\n\nimport \"fmt\"\n\n// greet says hello to name, or to the world when name is empty.\nfunc greet(name string) string {\n\tif name == \"\" {\n\t\tname = \"world\"\n\t}\n\treturn \"Hello, \" + name + \"!\"\n}\n\nfunc main() {\n\tfmt.Println(greet(\"\"))\n}\n"
)
