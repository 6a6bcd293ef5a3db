package nvim_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The review as the user sees it, on a real terminal (tmux): each removed
// line of a hunk is drawn once — Neovim 0.7 drew the virtual lines of a
// mark with an end twice. A changed line, a pure deletion and a pure
// insertion are shown.
func TestReview_removed_lines_are_drawn_once(t *testing.T) {
	nvim := nvimBin(t)
	tmux, err := exec.LookPath("tmux")
	if err != nil {
		testkit.Missing(t, "tmux is not installed: the review's screen test draws Neovim in it (apt-get install tmux; .ci/run does)")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "f.txt")
	must(t, os.WriteFile(file, []byte("one\ntwo\nthree\nfour\nfive\n"), 0o644))
	plugin, _ := filepath.Abs(".")
	script := filepath.Join(dir, "show.lua")
	must(t, os.WriteFile(script, []byte(`
vim.opt.rtp:prepend(`+luaString(plugin)+`)
local review = require('eukhe.review')
review.define_highlights()
vim.cmd('edit '..vim.fn.fnameescape(`+luaString(file)+`))
local function r(a, b) return { start = { line = a, character = 0 }, ['end'] = { line = b, character = 0 } } end
review.add({ editId = 'e1', hunks = {
  { uri = vim.uri_from_bufnr(0), hunk = 0, range = r(1, 2), before = 'OLD TWO\n', after = 'two\n' },
  { uri = vim.uri_from_bufnr(0), hunk = 1, range = r(3, 3), before = 'GONE\n', after = '' },
  { uri = vim.uri_from_bufnr(0), hunk = 2, range = r(4, 5), before = '', after = 'five\n' },
} }, 1)
vim.cmd('redraw')
vim.fn.writefile({ 'shown' }, `+luaString(filepath.Join(dir, "ready"))+`)
`), 0o644))
	session := "eukhe-review-" + filepath.Base(dir)
	var serverDone chan error
	shown := nvim + " --clean -u NONE -i NONE -n -c 'luafile " + script + "'"
	if remoteUI(nvim) {
		// Neovim 0.9 and later: its terminal UI starts the editor as a
		// child through v:progpath, which a Neovim run through its own
		// loader (test/nvim/fetch-0.10.sh) cannot be. The editor runs
		// headless instead and the terminal UI attaches to it.
		sock := filepath.Join(dir, "nvim.sock")
		server := exec.Command(nvim, "--clean", "-u", "NONE", "-i", "NONE", "-n", "--headless", "--listen", sock, "-c", "luafile "+script)
		serverOut, _ := os.Create(filepath.Join(dir, "server.out"))
		server.Stdout, server.Stderr = serverOut, serverOut
		if err := server.Start(); err != nil {
			t.Fatal(err)
		}
		serverDone = make(chan error, 1)
		go func() { serverDone <- server.Wait() }()
		defer func() {
			server.Process.Kill()
			<-serverDone
		}()
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
			// the UI attaches once the review is shown: one attached
			// during the editor's start holds it up
			if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatal("the headless Neovim did not show the review")
			}
		}
		// its errors kept for the failure message; the pane stays open
		shown = nvim + " --remote-ui --server " + sock + " 2>" + filepath.Join(dir, "ui.err") + "; sleep 30"
	}
	cmd := exec.Command(tmux, "-L", session, "new-session", "-d", "-s", session, "-x", "80", "-y", "20", shown)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v: %s", err, out)
	}
	defer exec.Command(tmux, "-L", session, "kill-server").Run()
	var screen string
	deadline := time.Now().Add(30 * time.Second) // a hang guard, not a measure
	for {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			out, _ := exec.Command(tmux, "-L", session, "capture-pane", "-p", "-t", session).Output()
			screen = string(out)
			if strings.Contains(screen, "- GONE") {
				break
			}
		}
		if time.Now().After(deadline) {
			uiErr, _ := os.ReadFile(filepath.Join(dir, "ui.err"))
			so, _ := os.ReadFile(filepath.Join(dir, "server.out"))
			uiErr = append(uiErr, so...) // a 0.9+ run's UI and editor errors
			t.Fatalf("the review was not drawn; the screen:\n%s\n%s", screen, uiErr)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for _, removed := range []string{"- OLD TWO", "- GONE"} {
		if n := strings.Count(screen, removed); n != 1 {
			t.Errorf("%q is drawn %d times; the screen:\n%s", removed, n, screen)
		}
	}
	lines := strings.Split(screen, "\n")
	var order []string
	for _, l := range lines {
		if s := strings.TrimSpace(l); s != "" && s != "~" {
			order = append(order, s)
		}
	}
	got := strings.Join(order[:min(len(order), 7)], " | ")
	if !strings.HasPrefix(got, "one | - OLD TWO | ~ two | three | - GONE | - four | + five") {
		t.Errorf("the review reads %q", got)
	}
}

func luaString(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// :help eukhe reads in a standard window: no line wider than 78 columns
// (Vim's help convention), so nothing wraps in an 80-column terminal.
func TestHelp_lines_fit_78_columns(t *testing.T) {
	b, err := os.ReadFile("doc/eukhe.txt")
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if n := len([]rune(l)); n > 78 {
			t.Errorf("doc/eukhe.txt:%d is %d columns wide: %q", i+1, n, l)
		}
	}
}

// remoteUI tells whether a Neovim has --remote-ui (0.9 and later).
func remoteUI(nvim string) bool {
	out, _ := exec.Command(nvim, "--version").Output()
	var major, minor int
	if _, err := fmt.Sscanf(string(out), "NVIM v%d.%d", &major, &minor); err != nil {
		return false
	}
	return major > 0 || minor >= 9
}
