package settings

// The fourteenth red team's attacks on the startup-file scan of a shell
// that did not answer (shellpath_scan.go) that HELD: other spellings of
// a relative PATH entry the scan finds. Those it misses are in
// redteam14_open14_test.go (build tag open_attacks).

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// r14scanCase is one unanswered shell's home: its files, the shell asked,
// and the relative entry the shell adds to PATH (a workspace directory
// once the user's terminal is in the workspace), which the scan must find.
type r14scanCase struct {
	name  string
	files map[string]string
	inv   shellInvocation
	env   map[string]string
	want  string
}

// r14scan writes c's files in a temporary home and tells whether the
// scan of the unanswered shell's startup files finds c.want.
func r14scan(t *testing.T, c r14scanCase) (string, bool) {
	t.Helper()
	home := t.TempDir()
	for rel, text := range c.files {
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{"HOME": home}
	for k, v := range c.env {
		env[k] = strings.ReplaceAll(v, "HOME", home)
	}
	got := scannedPathDirs(unansweredFiles(c.inv, env), home)
	return got, slices.Contains(strings.Split(got, ":"), c.want)
}

var (
	r14bash = shellInvocation{"/bin/bash", "-i", "-l", "-c"}
	r14zsh  = shellInvocation{"/usr/bin/zsh", "-i", "-c"}
	r14fish = shellInvocation{"/usr/bin/fish", "-i", "-c"}
)

// Attack (target 4): PATH+=, ${PATH} braces, a heredoc eval, fish's set
// -x, a sourced "$HOME/…" file, a sourced ${HOME} file, declare -x, a
// path+=( ) with quotes, $PATH:'x', POSIX sh's ENV file.
// Held: each is found.
func TestRedteam14_ScanFindsOtherSpellings(t *testing.T) {
	for _, c := range []r14scanCase{
		{name: "PATH+=", files: map[string]string{".bashrc": "PATH+=:tools\n"}, inv: r14bash, want: "tools"},
		{name: "${PATH}", files: map[string]string{".bashrc": "export PATH=\"${PATH}:tools\"\n"}, inv: r14bash, want: "tools"},
		{name: "heredoc", files: map[string]string{".bashrc": "eval \"$(cat <<'EOF'\nexport PATH=tools:$PATH\nEOF\n)\"\n"}, inv: r14bash, want: "tools"},
		{name: "set -x", files: map[string]string{".config/fish/config.fish": "set -x PATH tools $PATH\n"}, inv: r14fish, want: "tools"},
		{name: "sourced $HOME", files: map[string]string{".bashrc": ". \"$HOME/.paths\"\n", ".paths": "PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		{name: "declare -x", files: map[string]string{".bashrc": "declare -x PATH=tools:$PATH\n"}, inv: r14bash, want: "tools"},
		{name: "zsh path+=", files: map[string]string{".zshrc": "typeset -U path\npath+=('tools')\n"}, inv: r14zsh, want: "tools"},
		{name: "$PATH:'x'", files: map[string]string{".bashrc": "PATH=$PATH:'tools'\n"}, inv: r14bash, want: "tools"},
		{name: "ENV", files: map[string]string{".shrc": "PATH=tools:$PATH\n"}, env: map[string]string{"ENV": "HOME/.shrc"}, inv: shellInvocation{"/bin/dash", "-i", "-c"}, want: "tools"},
	} {
		if got, ok := r14scan(t, c); !ok {
			t.Errorf("THROUGH (%s): the scan found %q, not %q", c.name, got, c.want)
		}
	}
}
