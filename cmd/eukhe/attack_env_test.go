package main

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The environment and PATH of a step, attacked through the real `eukhe
// mcp`: credentials the name list missed (their names or their values'
// shapes) never reach a program, and a program planted in a PATH
// directory — one not made yet, a relative entry, an empty one — never
// runs in place of the command a step names unless the step was judged
// exec and allowed.

// envWorld is a fake home (HOME) with a workspace (a git repository with
// one commit) and eukhe's settings holding the auto set.
type envWorld struct {
	base, home, root string
	env              []string
}

func newEnvWorld(t *testing.T, auto string) *envWorld {
	t.Helper()
	base, _ := filepath.EvalSymlinks(t.TempDir())
	return newEnvWorldIn(t, base, auto)
}

// newEnvWorldIn is newEnvWorld with its base at base (real, existing).
func newEnvWorldIn(t *testing.T, base, auto string) *envWorld {
	t.Helper()
	w := &envWorld{base: base, home: filepath.Join(base, "home")}
	w.root = filepath.Join(w.home, "proj")
	for name, text := range map[string]string{
		".config/eukhe/settings.json": `{"shell.autoEffects": ` + auto + `}`,
		"proj/a.txt":                  "zeta\nalpha\n",
		"proj/sub/README":             "sub\n",
	} {
		writeFile(t, filepath.Join(w.home, name), text, 0o644)
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."},
		{"-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-qm", "first"}} {
		if out, err := runCmd(w.root, append([]string{"git"}, args...)...); err != nil {
			testkit.Missing(t, fmt.Sprintf("git is needed: %v\n%s", err, out))
		}
	}
	run, err := os.MkdirTemp("", "eu")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(run) })
	w.env = []string{"HOME=" + w.home, "XDG_STATE_HOME=" + filepath.Join(w.home, ".local", "state"),
		"XDG_RUNTIME_DIR=" + run, "LANG=C.UTF-8", "GOTOOLCHAIN=local"}
	return w
}

func writeFile(t *testing.T, path, text string, mode os.FileMode) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), mode); err != nil {
		t.Fatal(err)
	}
}

// withPath is the world's environment with PATH set.
func (w *envWorld) withPath(path string, more ...string) []string {
	return append(append(append([]string(nil), w.env...), "PATH="+path), more...)
}

// planted is what a planted program does: it says so, and leaves a mark
// where it stands. Its own text does not hold the words it prints.
const planted = "#!/bin/sh\necho PLANTED\"RAN\" \"$0\"\n: > planted-ran\n"

// plant writes the planted program at each path (below the world's base).
func (w *envWorld) plant(t *testing.T, rels ...string) {
	t.Helper()
	for _, rel := range rels {
		writeFile(t, filepath.Join(w.base, rel), planted, 0o755)
	}
}

// ranPlanted reports whether a planted program ran: its words in a reply,
// or its mark anywhere under the base.
func (w *envWorld) ranPlanted(reply string) bool {
	if strings.Contains(reply, "PLANTEDRAN") {
		return true
	}
	found := false
	filepath.WalkDir(w.base, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "planted-ran" {
			found = true
		}
		return nil
	})
	return found
}

// shows reports whether reply shows the credential core as written, in
// another case, reversed, in hex or in base64 at any alignment.
func shows(reply, core string) bool {
	forms := []string{core, reverse(core), hex.EncodeToString([]byte(core))}
	for pad := range 3 {
		enc := base64.StdEncoding.EncodeToString([]byte(strings.Repeat("x", pad) + core))
		start := (pad*8 + 5) / 6
		forms = append(forms, enc[start:len(enc)-4])
	}
	low := strings.ToLower(reply)
	for _, f := range forms {
		if strings.Contains(low, strings.ToLower(f)) {
			return true
		}
	}
	return false
}

// The credentials the name list missed, each with the core a reply must
// never show: by name (DOCKER_AUTH_CONFIG, CI_JOB_JWT, SLACK_WEBHOOK_URL,
// STRIPE_SK) and by value under plain names.
var missedCredentials = map[string]string{
	"DOCKER_AUTH_CONFIG=" + `{"auths":{"registry.example.com":{"auth":"` + base64.StdEncoding.EncodeToString([]byte("u:dockcanary7q")) + `"}}}`: base64.StdEncoding.EncodeToString([]byte("u:dockcanary7q")),
	"CI_JOB_JWT=eyJhbGciOiJSUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJqd3RjYW5hcnkifQ.jwtsigcanary8r":                                                 "jwtsigcanary8r",
	"SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T0000/B0000/slackcanary9s0123456789":                                                    "slackcanary9s",
	"STRIPE_SK=sk_live_stripecanary0t123456789":                                                                                                 "stripecanary0t",
	"DEPLOY_URL=https://hooks.slack.com/services/T1111/B1111/hookvalcanary1u234":                                                                "hookvalcanary1u",
	"RELEASE=npm_npmcanary2v0123456789012345678901234":                                                                                          "npmcanary2v",
	"UPLOAD=pypi-AgEIcHlwaS5vcmcpypicanary3w0123456789":                                                                                         "pypicanary3w",
	"RUNNER=glrt-glrtcanary4x0123456789":                                                                                                        "glrtcanary4x",
	"FINE=github_pat_11AAAAAAA0finecanary5y0123456789":                                                                                          "finecanary5y",
	"OPENAI=sk-proj-openaicanary6z0123456789":                                                                                                   "openaicanary6z",
	"REGISTRY=" + `{ "auths" : { "r.example": { "auth": "cmVnY2FuYXJ5N2E=" } } }`:                                                               "cmVnY2FuYXJ5N2E",
}

// TestAttackEnv_credentials_the_name_list_missed_reach_no_program runs
// every way of reading the environment a step has, and one reaching the
// server's, with exec in the auto set so that interpreters run.
func TestAttackEnv_credentials_the_name_list_missed_reach_no_program(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	env := w.withPath(os.Getenv("PATH"))
	for kv := range missedCredentials {
		env = append(env, kv)
	}
	env = append(env, "PLAIN_SETTING=plain-kept-value")
	p := startMCP(t, env, w.root)
	p.waitStderr("headless")
	scripts := []string{
		"printenv",
		"env",
		"env -0 | tr '\\0' '\\n'",
		"printenv DOCKER_AUTH_CONFIG CI_JOB_JWT SLACK_WEBHOOK_URL STRIPE_SK DEPLOY_URL RELEASE UPLOAD RUNNER FINE OPENAI REGISTRY",
		`echo "$DOCKER_AUTH_CONFIG $CI_JOB_JWT $SLACK_WEBHOOK_URL $STRIPE_SK $RELEASE $UPLOAD $REGISTRY"`,
		"sh -c 'echo $STRIPE_SK $CI_JOB_JWT; set'",
		"cat /proc/self/environ",
		"cat /proc/$$/environ; cat /proc/$PPID/environ",
		"tr '\\0' '\\n' < /proc/self/environ",
		`python3 -c 'import os;print(os.environ)'`,
		`python3 -c 'print(open("/proc/self/environ").read())'`,
		`python3 -c 'import os; print(open("/proc/%d/environ" % os.getppid(), "rb").read())'`,
		`python3 -c 'import os,subprocess; print(subprocess.run(["env"], capture_output=True).stdout)'`,
		"export -p; declare -x",
	}
	for _, s := range scripts {
		text, _ := p.call("bash", map[string]any{"script": s})
		for kv, core := range missedCredentials {
			if shows(text, core) {
				t.Errorf("%s: the value of %s reached the reply:\n%.800s", s, strings.SplitN(kv, "=", 2)[0], text)
			}
		}
	}
	// the control: a plain variable still reaches a program
	if text, failed := p.call("bash", map[string]any{"script": "printenv PLAIN_SETTING"}); failed || !strings.Contains(text, "plain-kept-value") {
		t.Errorf("a plain variable did not reach printenv:\n%s", text)
	}
	t.Cleanup(func() {
		for kv, core := range missedCredentials {
			if shows(p.stderrText(), core) {
				t.Errorf("eukhe mcp's standard error shows the value of %s", strings.SplitN(kv, "=", 2)[0])
			}
		}
	})
}

// bashRow is one call and what must hold after it.
type bashRow struct {
	script string
	// want is text the reply must hold (a control that ran), "" for none.
	want string
}

// runPathRows drives rows through p and fails when a planted program ran.
func (w *envWorld) runPathRows(t *testing.T, p *mcpProc, label string, rows []bashRow) {
	t.Helper()
	for _, r := range rows {
		text, _ := p.call("bash", map[string]any{"script": r.script})
		if w.ranPlanted(text) {
			t.Errorf("%s: %s ran a planted program:\n%.800s", label, r.script, text)
			filepath.WalkDir(w.base, func(p string, d fs.DirEntry, err error) error {
				if err == nil && d.Name() == "planted-ran" {
					os.Remove(p)
				}
				return nil
			})
		}
		if r.want != "" && !strings.Contains(text, r.want) {
			t.Errorf("%s: %s: want %q in:\n%.800s", label, r.script, r.want, text)
		}
	}
}

// A PATH directory in the workspace that does not exist yet: a write step
// makes it with a program in it (cp -r names only the tree it copies),
// and the next step, or a later call, names the program.
func TestAttackEnv_a_PATH_directory_made_later_runs_nothing_planted(t *testing.T) {
	t.Parallel()
	// protected in the auto set: a write step may make a directory PATH
	// names in the workspace (the directory and those above it are
	// protected), but exec is not
	w := newEnvWorld(t, `["read", "write", "protected"]`)
	bin, tools := filepath.Join(w.root, "bin"), filepath.Join(w.root, "tools")
	w.plant(t, "home/proj/stage/bin/ls", "home/proj/stage/bin/git", "home/proj/stage/bin/cat", "home/proj/stage/bin/sort",
		"home/proj/stage2/tools/ls", "home/proj/stage2/tools/sort", "home/proj/stage3/lib/bin/cat")
	p := startMCP(t, w.withPath(bin+":"+tools+":"+filepath.Join(w.root, "lib", "bin")+":"+os.Getenv("PATH")), w.root)
	p.waitStderr("headless")
	w.runPathRows(t, p, "bin made later", []bashRow{
		// in one call: made by an earlier step, or a stage of the same
		// pipeline; the PATH the call started with does not hold it
		{script: "cp -r stage2/. . && ls && sort a.txt", want: "alpha\nzeta"},
		{script: "cp -r stage3/. . | cat a.txt"},
		{script: "cp -r stage/. ."},
		// later calls: the directory exists now, in the workspace: exec
		{script: "ls"},
		{script: "git status"},
		{script: "cat a.txt"},
		{script: "sort a.txt"},
		{script: "cd sub && ls"},
		{script: "command ls"},
		{script: "env ls"},
		{script: "find . -maxdepth 0 -exec ls {} +"},
		{script: "cat a.txt; ls; sort a.txt"},
		{script: "cd sub && sort ../a.txt"},
	})
	if _, err := os.Stat(filepath.Join(bin, "ls")); err != nil {
		t.Fatalf("the plant never happened (so the rows prove nothing): %v", err)
	}
	if _, err := os.Stat(filepath.Join(tools, "ls")); err != nil {
		t.Fatalf("the plant in one call never happened: %v", err)
	}
	// a fresh session, with the directories there from the start
	p2 := startMCP(t, w.withPath(bin+":"+tools+":"+os.Getenv("PATH")), w.root)
	p2.waitStderr("headless")
	w.runPathRows(t, p2, "bin there at start", []bashRow{
		{script: "ls"}, {script: "sort a.txt"}, {script: "git log --oneline"},
		// controls: what is not planted runs unasked
		{script: "head -1 a.txt", want: "zeta"},
		{script: "echo hi > made.txt && wc -l made.txt", want: "1 made.txt"},
	})
}

// Relative and empty PATH entries: the workspace's own sort, in the
// working directory or in bin/, never runs as a read step.
func TestAttackEnv_relative_and_empty_PATH_entries_find_nothing(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	w.plant(t, "home/proj/sort", "home/proj/cat", "home/proj/sub/sort", "home/proj/sub/ls", "home/proj/bin/sort",
		"home/proj/bin/wc", "home/proj/sub/bin/head")
	sys := os.Getenv("PATH")
	rows := []bashRow{
		{script: "sort a.txt", want: "alpha\nzeta"},
		{script: "cd sub && sort ../a.txt", want: "alpha\nzeta"},
		{script: "cd sub && ls", want: "README"},
		{script: "cat a.txt", want: "zeta"},
		{script: "wc -l a.txt", want: "2 a.txt"},
		{script: "cd sub; head -1 ../a.txt", want: "zeta"},
		{script: "cd bin && sort ../a.txt", want: "alpha\nzeta"},
	}
	for _, path := range []string{".:" + sys, "bin:" + sys, ":" + sys, sys + ":", strings.Replace(sys, ":", "::", 1),
		"./bin:sub:" + sys, "sub/bin:" + sys} {
		t.Run(path[:min(len(path), 12)], func(t *testing.T) {
			p := startMCP(t, w.withPath(path), w.root)
			p.waitStderr("headless")
			w.runPathRows(t, p, "PATH="+path, rows)
			// what a program gets as PATH holds no relative or empty entry
			text, _ := p.call("bash", map[string]any{"script": "printenv PATH; sh -c 'echo $PATH'"})
			for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
				if !strings.HasPrefix(line, "/") {
					continue
				}
				for _, e := range strings.Split(line, ":") {
					if !strings.HasPrefix(e, "/") {
						t.Errorf("PATH=%q: a program got the entry %q (%s)", path, e, line)
					}
				}
			}
		})
	}
}

// ~/.local/bin on PATH, missing under the home when the session looks:
// then it appears with an ls in it (a step the user allowed to write
// outside, a package installed with --user; here the test makes it, since
// the sandbox keeps the home read-only to any step not approved so). The
// next ls, a read by the table, is exec now and asks; the user denies it.
func TestAttackEnv_a_home_PATH_directory_made_during_the_session_asks(t *testing.T) {
	t.Parallel()
	w := newEnvWorld(t, `["read", "write"]`)
	local := filepath.Join(w.home, ".local", "bin")
	env := append(w.withPath(local+":"+os.Getenv("PATH")), "XDG_CONFIG_HOME="+filepath.Join(w.home, ".config"))
	g := startGoClient(t, env, w.root)
	g.reply(answerWith("deny"))
	if text, failed := g.bash(t, "ls"); failed || !strings.Contains(text, "a.txt") {
		t.Fatalf("ls before the plant: %s", text)
	}
	text, _ := g.bash(t, `mkdir -p "$HOME"/.local/bin; cp stage/ls "$HOME"/.local/bin/`)
	if _, err := os.Stat(filepath.Join(local, "ls")); err == nil {
		t.Fatalf("a step not approved made the PATH directory in the home:\n%s", text)
	}
	w.plant(t, "home/.local/bin/ls", "home/.local/bin/cat", "home/.local/bin/git", "home/.local/bin/sort")
	before := g.askedCount()
	for _, s := range []string{"ls", "cat a.txt", "git log --oneline", "cd sub && ls", "sort a.txt | head -1"} {
		text, _ := g.bash(t, s)
		if w.ranPlanted(text) {
			t.Errorf("%s ran the planted program:\n%s", s, text)
		}
	}
	if n := g.askedCount() - before; n < 5 {
		t.Errorf("asked %d times for the five steps, want each asked", n)
	}
	// a session that starts with the directory there takes it as it is
	// (what it holds was there before the session: the user's)
	os.Remove(filepath.Join(local, "ls"))
	writeFile(t, filepath.Join(local, "mine"), "#!/bin/sh\necho mine-ran\n", 0o755)
	w2 := startGoClient(t, env, w.root)
	w2.reply(answerWith("deny"))
	if text, _ := w2.bash(t, "ls"); !strings.Contains(text, "a.txt") {
		t.Errorf("ls in a new session: %s", text)
	}
}

func (g *goClient) askedCount() int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.asked
}

// The controls under exec in the auto set: go build, git log and python3
// run unasked with PATH holding a directory of the workspace, a relative
// entry and a missing one.
func TestAttackEnv_controls_run_unasked_under_exec(t *testing.T) {
	t.Parallel()
	for _, tool := range []string{"go", "git", "python3"} {
		if _, err := exec.LookPath(tool); err != nil {
			testkit.Missing(t, tool+" is needed for the controls (.ci/run installs it)")
		}
	}
	w := newEnvWorld(t, `["read", "write", "exec"]`)
	cache := filepath.Join(w.base, "gocache")
	writeFile(t, filepath.Join(w.home, ".config", "eukhe", "settings.json"),
		`{"shell.autoEffects": ["read", "write", "exec"], "shell.writableDirs": ["`+cache+`"]}`, 0o644)
	writeFile(t, filepath.Join(w.root, "go.mod"), "module example.org/ctl\n\ngo 1.21\n", 0o644)
	writeFile(t, filepath.Join(w.root, "main.go"), "package main\n\nfunc main() { println(\"built\") }\n", 0o644)
	writeFile(t, filepath.Join(w.root, "bin", "hello"), "#!/bin/sh\necho hello-from-bin\n", 0o755)
	goDir := ""
	if gp, err := exec.LookPath("go"); err == nil {
		goDir = filepath.Dir(gp)
	}
	// (not "." nor an empty entry: a relative entry still makes its
	// directory in each root protected (gate.Places.Rules), the root
	// itself for "." or "", so go build could not write its output there
	// without protected)
	path := filepath.Join(w.root, "bin") + ":sub/bin:" + filepath.Join(w.root, "nope") + ":" + goDir + ":" + os.Getenv("PATH")
	p := startMCP(t, w.withPath(path, "GOCACHE="+cache, "GOFLAGS=-buildvcs=false"), w.root)
	p.waitStderr("headless")
	for _, c := range []bashRow{
		{script: "go build -o out . && ./out", want: "built"},
		{script: "git log --oneline", want: "first"},
		{script: "python3 -c 1 && echo py-ok", want: "py-ok"},
		{script: "hello", want: "hello-from-bin"},
	} {
		text, failed := p.call("bash", map[string]any{"script": c.script})
		if failed || !strings.Contains(text, c.want) {
			t.Errorf("control %s did not run unasked:\n%s", c.script, text)
		}
	}
}

// credentialsStayOut starts eukhe mcp in w with the credentials (name →
// value, and the part of the value a reply must never show) and the
// other variables more in its environment, runs each script as a bash
// step, and fails for each credential whose part a reply shows. It gives
// the session for the caller's controls.
func credentialsStayOut(t *testing.T, w *envWorld, creds map[string][2]string, scripts []string, more ...string) *mcpProc {
	t.Helper()
	for k, v := range creds {
		more = append(more, k+"="+v[0])
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), more...)
	for _, script := range scripts {
		text, _ := p.call("bash", map[string]any{"script": script})
		for k, v := range creds {
			if shows(text, v[1]) {
				t.Errorf("%s: the value of %s reached the step", script, k)
			}
		}
	}
	return p
}
