package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The twelfth red team's rows through the real binary: eukhe's user
// settings file and the agents' stores made secret, attacked with the
// bash, read and write tools of a real `eukhe mcp`; and the editor found
// late by a discovery.Finder, with the agent's lines routed on the SDK's
// reader (agent/attach/late.go). Each asserts the safe outcome; these
// held. The ones that got through are in attack_round12_open12_test.go
// (build tag open_attacks).

// r12auto is the default auto set written out (the guide's second
// preset): protected is in it, secret never is.
const r12auto = `["read", "write", "exec", "net", "outside", "protected"]`

const r12mark = "R12KEY-5b1e-PRIVATE"

// r12world is newEnvWorld with the default auto set and ~/.ssh/id_rsa
// holding r12mark.
func r12world(t *testing.T) *envWorld {
	t.Helper()
	w := newEnvWorld(t, r12auto)
	writeFile(t, filepath.Join(w.home, ".ssh", "id_rsa"), r12mark+"\n", 0o600)
	return w
}

// r12keyStep is a step whose program reads ~/.ssh/id_rsa, the path never
// one word of the script.
func r12keyStep(w *envWorld) string {
	p := strings.NewReplacer("/", "'+'/'+'").Replace(filepath.Join(w.home, ".ssh", "id_rsa"))
	return r3py("print(open('" + p + "').read())")
}

// r12settingsUnchanged fails when the user settings file lost its auto
// set or says confinement off, or when a later step read the key.
func r12settingsUnchanged(t *testing.T, w *envWorld, p *mcpProc, replies ...string) {
	t.Helper()
	time.Sleep(1200 * time.Millisecond) // the settings watch
	reply, _ := p.call("bash", map[string]any{"script": r12keyStep(w)})
	b, _ := os.ReadFile(filepath.Join(w.home, ".config", "eukhe", "settings.json"))
	if strings.Contains(reply, r12mark) || strings.Contains(string(b), "off") {
		t.Errorf("the settings file is now %q, and a step's program read the key:\n%s\nafter:\n%s", b, reply, strings.Join(replies, "\n---\n"))
	}
}

// Attack (settings file, other spellings, the shell's words): a step
// writes eukhe's user settings file (confinement off) named with ./, //,
// a detour through .., through $HOME and ~, relative from the workspace,
// by redirection, tee, cp, dd of=, sed -i, a here-document; each is
// secret and refused headless, and a later step is still confined.
// Class: writing eukhe's settings by another route.
func TestAttackRound12_a_step_writes_the_settings_file_under_other_spellings(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	w := r12world(t)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	evil := `{"shell.confinement": "off"}`
	writeFile(t, filepath.Join(w.root, "evil.json"), evil, 0o644)
	var replies []string
	for _, s := range []string{
		`printf '%s' '` + evil + `' > ~/.config/./eukhe/settings.json`,
		`printf '%s' '` + evil + `' > $HOME//.config//eukhe//settings.json`,
		`printf '%s' '` + evil + `' > ../.config/eukhe/../eukhe/settings.json`,
		`tee ~/.config/eukhe/settings.json < evil.json`,
		`cp evil.json ~/.config/eukhe/settings.json`,
		`cp evil.json ~/.config/eukhe/`,
		`dd if=evil.json of=$HOME/.config/eukhe/settings.json`,
		`sed -i 's/autoEffects/x/' ~/.config/eukhe/settings.json`,
		"cat > ~/.config/eukhe/settings.json <<'EOF'\n" + evil + "\nEOF",
		`d=~/.config; f=eukhe/settings.json; cat evil.json > $d/$f`,
		`cd ~/.config/eukhe && cp ../../proj/evil.json settings.json`,
		`install -m 644 evil.json ~/.config/eukhe/settings.json`,
		`rsync evil.json ~/.config/eukhe/settings.json`,
		`ln -sf $PWD/evil.json ~/.config/eukhe/settings.json`,
		`rm ~/.config/eukhe/settings.json`,
	} {
		reply, _ := p.call("bash", map[string]any{"script": s})
		replies = append(replies, s+"\n"+reply)
	}
	r12settingsUnchanged(t, w, p, replies...)
}

// Attack (settings file, another name from the workspace): a symlink in
// the workspace to the settings file, and one to its directory, made by a
// step (protected and write are unasked); then the write tool and a step
// write through them. Class: another name of the file.
func TestAttackRound12_the_settings_file_written_through_workspace_links(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	w := r12world(t)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	evil := `{"shell.confinement": "off"}`
	var replies []string
	for _, s := range []string{
		`ln -s ~/.config/eukhe/settings.json s.json`,
		`ln -s ~/.config/eukhe cfg`,
		`printf '%s' '` + evil + `' > s.json`,
		`printf '%s' '` + evil + `' > cfg/settings.json`,
		r3py(`open('s.json', 'w').write('` + evil + `')`),
		r3py(`open('cfg/settings.json', 'w').write('` + evil + `')`),
	} {
		reply, _ := p.call("bash", map[string]any{"script": s})
		replies = append(replies, s+"\n"+reply)
	}
	for _, name := range []string{"s.json", "cfg/settings.json", filepath.Join(w.home, ".config", "eukhe", "settings.json")} {
		p.call("read", map[string]any{"path": name})
		reply, _ := p.call("write", map[string]any{"path": name, "content": evil})
		replies = append(replies, "write "+name+"\n"+reply)
	}
	r12settingsUnchanged(t, w, p, replies...)
}

// Attack (the agents' stores, the document tools and the shell): read
// Claude Code's, Codex's, Gemini's and Copilot's tokens and a browser's
// saved logins with the read tool, grep and glob of the home, cat, and a
// copy into the workspace read back. Each touch is secret and refused
// headless; no token shows. Class: a copy made by a tool.
func TestAttackRound12_the_agents_stores_by_every_tool(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	w := r12world(t)
	stores := []string{".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
		".config/github-copilot/apps.json", ".mozilla/firefox/p.default/logins.json", ".config/google-chrome/Default/Login Data"}
	for _, s := range stores {
		writeFile(t, filepath.Join(w.home, s), r12mark+" "+s+"\n", 0o600)
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	var all []string
	add := func(reply string, _ bool) { all = append(all, reply) }
	for _, s := range stores {
		full := filepath.Join(w.home, s)
		add(p.call("read", map[string]any{"path": full}))
		add(p.call("read", map[string]any{"path": "~/" + s}))
		add(p.call("bash", map[string]any{"script": "cat " + shellQuote(full)}))
		add(p.call("bash", map[string]any{"script": "cp " + shellQuote(full) + " copied; cat copied"}))
	}
	add(p.call("grep", map[string]any{"pattern": "R12KEY", "path": w.home}))
	add(p.call("grep", map[string]any{"pattern": "R12KEY", "path": filepath.Join(w.home, ".config")}))
	add(p.call("glob", map[string]any{"pattern": "**/*.json", "path": filepath.Join(w.home, ".claude")}))
	add(p.call("bash", map[string]any{"script": "tar cf - -C ~ .codex .claude | strings"}))
	add(p.call("bash", map[string]any{"script": r3py("import glob\nfor f in glob.glob('" + w.home + "/.*/**', recursive=True):\n  try: print(open(f).read())\n  except Exception: pass")}))
	if b, err := os.ReadFile(filepath.Join(w.root, "copied")); err == nil {
		all = append(all, "copied: "+string(b))
	}
	text := strings.Join(all, "\n---\n")
	if strings.Contains(text, r12mark) {
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, r12mark) {
				t.Errorf("a store's token showed: %s", l)
			}
		}
	}
}

// r12raw sends a tools/call as its own JSON text with extra members after
// "params" (a hostile client's), then an ordinary read of a.txt, and
// gives the raw call's answer (its text, or its error) and the read's
// text; nothing waits on an answer that never comes.
func r12raw(t *testing.T, p *mcpProc, name string, args any, extra string) (raw, after string) {
	t.Helper()
	p.id++
	rawID := p.id
	params, _ := json.Marshal(map[string]any{"name": name, "arguments": args})
	line := fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":%s%s}`, rawID, params, extra)
	if _, err := p.in.Write([]byte(line + "\n")); err != nil {
		t.Fatal(err)
	}
	p.id++
	p.send(map[string]any{"jsonrpc": "2.0", "id": p.id, "method": "tools/call",
		"params": map[string]any{"name": "read", "arguments": map[string]any{"path": "a.txt"}}})
	raw = "(no answer)"
	for {
		l, err := p.out.ReadBytes('\n')
		if err != nil {
			t.Fatalf("eukhe mcp ended: %v\n%s", err, p.stderrText())
		}
		var m struct {
			ID     *int `json:"id"`
			Result struct {
				Content []struct{ Text string } `json:"content"`
			} `json:"result"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(l, &m) != nil || m.ID == nil {
			continue
		}
		text := "error: " + string(m.Error)
		if m.Error == nil && len(m.Result.Content) > 0 {
			text = m.Result.Content[0].Text
		}
		switch *m.ID {
		case rawID:
			raw = text
		case p.id:
			if raw == "(no answer)" {
				// the raw call may still be answered after: give it a moment
				time.Sleep(500 * time.Millisecond)
			}
			return raw, text
		}
	}
}

// Attack (the late attach, the Finder): the editor comes up after the
// agent's first call, in the same second as a look that found none (the
// discovery directory's time is what the Finder compares): the agent
// calls at once and again; within its recheck the session attaches, and
// the read shows the editor's buffer. Class: an attach that never
// happens.
func TestAttackRound12_an_editor_up_right_after_a_look_is_attached_within_the_recheck(t *testing.T) {
	t.Parallel()
	env := attachEnv(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("on disk\n"), 0o644)
	ag := startMCP(t, env, root)
	ag.call("read", map[string]any{"path": "a.txt"})
	e := startEditorAt(t, env, root, func(int) string { return "approve" })
	e.open("a.txt", "unsaved in the editor\n")
	deadline := time.Now().Add(3 * time.Second)
	for {
		text, _ := ag.call("read", map[string]any{"path": "a.txt"})
		if strings.Contains(text, "1:unsaved in the editor") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the editor up for 3 s was never attached:\n%s\n%s", text, ag.stderrText())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// Attack (the late attach, JSON the relay reads another way): duplicate
// "method" members, the later one empty (the SDK's decoder and the
// relay's peek both take the last): the call is no call to either, so it
// neither reaches a tool headless nor slips past the editor.
func TestAttackRound12_a_duplicate_method_member_is_read_alike(t *testing.T) {
	t.Parallel()
	env := attachEnv(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("on disk\n"), 0o644)
	ag := startMCP(t, env, root)
	ag.call("read", map[string]any{"path": "a.txt"})
	e := startEditorAt(t, env, root, func(int) string { return "approve" })
	e.open("a.txt", "unsaved in the editor\n")
	time.Sleep(1100 * time.Millisecond)
	ag.call("read", map[string]any{"path": "a.txt"}) // attaches
	raw, _ := r12raw(t, ag, "read", map[string]any{"path": "a.txt"}, `,"method":""`)
	if strings.Contains(raw, "1:on disk") {
		t.Errorf("a call with a second, empty method member was served headless past the attached editor:\n%s", raw)
	}
	if text, _ := ag.call("read", map[string]any{"path": "a.txt"}); !strings.Contains(text, "1:unsaved in the editor") {
		t.Errorf("after the odd line the session no longer reads the editor's buffer:\n%s", text)
	}
}

// Attack (settings file, its directory replaced, the shell's words): the
// settings file is secret, its directory ~/.config/eukhe only protected
// (an ancestor of a secret entry), and protected is in the default auto
// set. One step makes cfg/settings.json in the workspace (confinement
// off), renames ~/.config/eukhe away and renames cfg into its place: no
// word names settings.json. Held: the shell's mv of a directory that
// holds a secret is secret (HoldsSecret), so it asks, and is refused
// headless. Class: writing eukhe's settings by another route.
func TestAttackRound12_the_settings_directory_is_renamed_into_place_is_refused(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	w := r12world(t)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	reply, _ := p.call("bash", map[string]any{"script": `mkdir cfg && printf '%s' '{"shell.confinement": "off"}' > cfg/settings.json
mv ~/.config/eukhe ~/.config/eukhe.old
mv cfg ~/.config/eukhe`})
	t.Logf("reply:\n%s", reply)
	r12settingsUnchanged(t, w, p, reply)
}

// The same with a symlink: the directory renamed away, a link to a
// workspace directory in its place; the agent then writes the workspace
// file, which by its own name is Inside. Held: the mv asks.
func TestAttackRound12_the_settings_directory_is_replaced_by_a_link_is_refused(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	w := r12world(t)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	r1, _ := p.call("bash", map[string]any{"script": `mkdir cfg && mv ~/.config/eukhe ~/.config/eukhe.old && ln -s $PWD/cfg ~/.config/eukhe`})
	r2, _ := p.call("write", map[string]any{"path": "cfg/settings.json", "content": `{"shell.confinement": "off"}`})
	t.Logf("replies:\n%s\n%s", r1, r2)
	r12settingsUnchanged(t, w, p, r1, r2)
}

// Attack (the late attach, JSON the relay reads another way): the relay's
// peek (segmentio's decoder, which matches member names in any case) and
// the SDK's decoder might read {"method":"tools/call", …, "Method":""}
// apart: a tools/call to the SDK and an answer to the relay, so look()
// would never run and, attached, toEditor would send it headless past the
// editor. Held: the SDK reads the line as the peek does (method ""), and
// answers "method not found"; no read is served by either. Class: an
// attach that never happens; the wrong server answering.
func TestAttackRound12_a_call_spelled_for_the_peek_is_no_call_to_either(t *testing.T) {
	t.Parallel()
	env := attachEnv(t)
	root, _ := filepath.EvalSymlinks(t.TempDir())
	os.WriteFile(filepath.Join(root, "a.txt"), []byte("on disk\n"), 0o644)
	ag := startMCP(t, env, root)
	ag.call("read", map[string]any{"path": "a.txt"})
	e := startEditorAt(t, env, root, func(int) string { return "approve" })
	e.open("a.txt", "unsaved in the editor\n")
	time.Sleep(1100 * time.Millisecond) // past the Finder's recheck
	if raw := r12rawOnly(t, ag, `,"Method":""`); strings.Contains(raw, "1:on disk") {
		t.Errorf("an editor up for over a second, a call with a \"Method\":\"\" member was served headless without an attach:\n%s\n%s", raw, ag.stderrText())
	}
	// attach by an ordinary call, then call past it
	if text, _ := ag.call("read", map[string]any{"path": "a.txt"}); !strings.Contains(text, "1:unsaved in the editor") {
		t.Fatalf("an ordinary call did not attach:\n%s\n%s", text, ag.stderrText())
	}
	if raw := r12rawOnly(t, ag, `,"Method":""`); strings.Contains(raw, "1:on disk") {
		t.Errorf("attached, a call with a \"Method\":\"\" member was served headless past the editor:\n%s", raw)
	}
}

// r12rawOnly is r12raw's read of a.txt, giving only its answer.
func r12rawOnly(t *testing.T, p *mcpProc, extra string) string {
	raw, _ := r12raw(t, p, "read", map[string]any{"path": "a.txt"}, extra)
	return raw
}

// Attack (settings file, its directory swapped by a step's program, under
// Landlock): the program of attack_round12_open12_test.go's row renames
// ~/.config/eukhe away and a workspace directory into its place. Held
// under Landlock: the rename is refused.
func TestAttackRound12_a_steps_program_swaps_the_settings_directory_under_landlock(t *testing.T) {
	t.Parallel()
	r12programSwap(t, "landlock")
}

// r12programSwap has a step's program (python3, its words naming no path)
// swap ~/.config/eukhe for a workspace directory holding settings.json
// (confinement off) under mech, then checks a later step is confined.
func r12programSwap(t *testing.T, mech string) {
	needEdgeTools(t)
	w := r12world(t)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), "EUKHE_CONFINEMENT="+mech)
	d := strings.NewReplacer("/", "'+'/'+'").Replace(filepath.Join(w.home, ".config", "eukhe"))
	reply, _ := p.call("bash", map[string]any{"script": r3py(`import os
os.makedirs('cfg', exist_ok=True)
open('cfg/settings.json', 'w').write('{"shell.confinement": "off"}')
d = '` + d + `'
try:
    os.rename(d, d + '.old')
    os.rename(os.path.abspath('cfg'), d)
    print('swapped')
except Exception as e:
    print('refused', type(e).__name__, e)`)})
	r12settingsUnchanged(t, w, p, reply)
}

// Attack (the late attach, a wrong editor), by a step's program: the
// Finder and Find trust any JSON file in the discovery directory, and an
// entry's socket may be anywhere. A program (python3, under each
// mechanism) plants $XDG_RUNTIME_DIR/eukhe/fake.json naming a live pid,
// the workspace as its root and a socket in the workspace; the next tool
// call would dial it. Held: the sandbox hides eukhe's sockets'
// directory. (By the shell's own words it got through:
// attack_round12_open12_test.go.)
func TestAttackRound12_a_steps_program_plants_a_discovery_entry(t *testing.T) {
	t.Parallel()
	needEdgeTools(t)
	for _, how := range []string{"bubblewrap", "landlock"} {
		t.Run(how, func(t *testing.T) { r12plantEntry(t, how) })
	}
}

// r12plantEntry has a step plant a discovery entry for a socket the test
// listens on in the workspace (how: "words", the shell's own redirection;
// "write tool"; else a program under that mechanism), makes a tool call past the
// Finder's recheck, and fails if the session dialed the socket or the
// entry was planted.
func r12plantEntry(t *testing.T, how string) {
	needEdgeTools(t)
	w := r12world(t)
	run := envMap(w.env)["XDG_RUNTIME_DIR"]
	sock := filepath.Join(w.root, "fake.sock")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Skip("no unix socket here:", err)
	}
	defer l.Close()
	dialed := make(chan struct{}, 1)
	go func() {
		if c, err := l.Accept(); err == nil {
			dialed <- struct{}{}
			c.Close()
		}
	}()
	more := []string{}
	if how == "bubblewrap" || how == "landlock" {
		more = append(more, "EUKHE_CONFINEMENT="+how)
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
	entry := fmt.Sprintf(`{"pid":%d,"socket":%q,"roots":[%q],"editor":"fake"}`, os.Getpid(), sock, w.root)
	target := filepath.Join(run, "eukhe", "1-0000fa4e.json") // an entry's form: discovery reads no other name
	script := "printf '%s' " + shellQuote(entry) + " > " + target
	var reply string
	if how == "write tool" {
		reply, _ = p.call("write", map[string]any{"path": target, "content": entry})
	} else if how != "words" {
		t2 := strings.NewReplacer("/", "'+'/'+'").Replace(target)
		script = r3py("import os\nt = '" + t2 + "'\nos.makedirs(os.path.dirname(t), exist_ok=True)\nopen(t, 'w').write(" + pyLit(entry) + ")\nprint('planted')")
	}
	if how != "write tool" {
		reply, _ = p.call("bash", map[string]any{"script": script})
	}
	time.Sleep(1100 * time.Millisecond) // past the Finder's recheck
	p.call("read", map[string]any{"path": "a.txt"})
	_, planted := os.Stat(target)
	select {
	case <-dialed:
		t.Errorf("the session dialed the agent's own socket through a planted discovery entry:\n%s\n%s", reply, p.stderrText())
	case <-time.After(300 * time.Millisecond):
		if planted == nil {
			t.Errorf("a step planted a discovery entry:\n%s\n%s", reply, p.stderrText())
		}
	}
}

// pyLit is s as a Python string literal.
func pyLit(s string) string { b, _ := json.Marshal(s); return string(b) }

// Attack (the late attach, a wrong editor), by the shell's own words: a
// redirection is eukhe's own write, judged by the gate alone, and the
// discovery directory ($XDG_RUNTIME_DIR/eukhe, outside the workspace) is
// no secret to it: `printf … > $XDG_RUNTIME_DIR/eukhe/fake.json` is write
// and outside, unasked by default. The entry names a live pid, the
// workspace as its root and a socket the agent serves in the workspace;
// at the next tool call past the Finder's recheck, the headless session
// dials it and says its hello (root, session, parent) to the agent's
// server, which attaches it if it answers: the session's calls and
// questions then go to the agent's server, as would every other session
// on this root (another agent's, a subagent's, `eukhe approvals`). The
// sandbox hides the directory from a program (attack_round12_test.go).
// Held now: eukhe's socket directories are secret to the gate (Places.RunDirs),
// and an entry whose socket is not the one beside its file is no server.
// Class: a wrong editor attached.
func TestAttackRound12_the_shells_words_plant_a_discovery_entry(t *testing.T) {
	t.Parallel()
	r12plantEntry(t, "words")
}

// The same entry planted by the write tool: a document tool's write is
// eukhe's own, judged by the gate alone, and the discovery directory is
// Outside to it (unasked by default). Class: a wrong editor attached.
func TestAttackRound12_the_write_tool_plants_a_discovery_entry(t *testing.T) {
	t.Parallel()
	r12plantEntry(t, "write tool")
}

// Attack (settings file, its directory swapped by a step's program): the
// same swap as the shell's mv, made by a program (python3) whose words
// name no path: the step is exec (unasked by default) and its sandbox
// hides the settings file but lets the program rename the directory that
// holds it (protected is allowed). The watch reads the agent's file; the
// next step's program is unconfined and reads ~/.ssh/id_rsa, no question
// asked. Under bubblewrap (Landlock held: attack_round12_test.go).
// Class: writing eukhe's settings by another route.
// Held now: under bubblewrap the directories above the settings file are mount points of their own (confine.Places.Pinned): EBUSY.
func TestAttackRound12_a_steps_program_swaps_the_settings_directory_under_bubblewrap(t *testing.T) {
	t.Parallel()
	r12programSwap(t, "bubblewrap")
}
