package settings

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// The relative entries a startup file spells out are found in each
// shell's ways of adding to PATH; absolute, variable and ~ entries are
// not relative; a comment adds nothing.
func TestStartupRelativeEntriesFindWhatTheFilesSpellOut(t *testing.T) {
	for text, want := range map[string][]string{
		"export PATH=./bin:$PATH\n":                                                  {"./bin"},
		"PATH=\"node_modules/.bin:$PATH\"; export PATH\n":                            {"node_modules/.bin"},
		"PATH=$PATH:\n":                                                              {"."},
		"PATH=.:$PATH\n":                                                             {"."},
		"typeset -x PATH=bin:$PATH\n":                                                {"bin"},
		"path=(./bin vendor/tools $path)\n":                                          {"./bin", "vendor/tools"},
		"path+=('.venv/bin')\n":                                                      {".venv/bin"},
		"fish_add_path -g ./bin scripts\n":                                           {"./bin", "scripts"},
		"set -gx PATH ./tools $PATH\n":                                               {"./tools"},
		"set -U fish_user_paths node_modules/.bin\n":                                 {"node_modules/.bin"},
		"pathadd() { PATH=\"$1:$PATH\"; }\npathadd ./bin\n":                          {"./bin"},
		"export PATH=/usr/local/bin:$HOME/bin:~/bin:$PATH\n":                         nil,
		"# export PATH=./bin:$PATH\n":                                                nil,
		"alias ll='ls -l' # PATH=./x\n":                                              nil,
		"if [ -d \"$HOME/.local/bin\" ]; then PATH=\"$HOME/.local/bin:$PATH\"; fi\n": nil,
	} {
		if got := startupRelativeEntries(text); !slices.Equal(got, want) {
			t.Errorf("%q: found %q, want %q", text, got, want)
		}
	}
}

// A shell that does not answer in time has its startup files read: bash's
// own, fish's conf.d directory, and BASH_ENV's file for a non-interactive
// bash.
func TestUnansweredShellsStartupFilesAreRead(t *testing.T) {
	home := t.TempDir()
	write := func(rel, text string) {
		t.Helper()
		p := filepath.Join(home, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".bash_login", "export PATH=./bin:$PATH\n")
	write(".config/fish/conf.d/tools.fish", "fish_add_path ./tools\n")
	write("env.sh", "PATH=.:$PATH\n")
	write(".zshrc", "source ~/.zsh/paths.zsh\n. \"$HOME/.zsh/more.zsh\"\n")
	write(".zsh/paths.zsh", "path=(./bin $path)\n")
	write(".zsh/more.zsh", "source ${HOME}/.zsh/deeper.zsh\n")
	write(".zsh/deeper.zsh", "export PATH=vendor/bin:$PATH\n")
	env := map[string]string{"HOME": home, "BASH_ENV": filepath.Join(home, "env.sh")}
	for _, c := range []struct {
		inv  shellInvocation
		want string
	}{
		{shellInvocation{"/bin/bash", "-i", "-l", "-c"}, "./bin"},
		{shellInvocation{"/usr/bin/fish", "-i", "-c"}, "./tools"},
		{shellInvocation{"/bin/bash", "-c"}, "."},
		{shellInvocation{"/bin/ksh", "-i", "-c"}, ""},
		// the files ~/.zshrc sources by a fixed path, and theirs
		{shellInvocation{"/usr/bin/zsh", "-i", "-c"}, "./bin:vendor/bin"},
	} {
		if got := scannedPathDirs(unansweredFiles(c.inv, env), home); got != c.want {
			t.Errorf("%q unanswered: %q, want %q", c.inv, got, c.want)
		}
	}
}

// Whatever a startup file holds, what is found is relative, without a
// variable, and found again in the same text.
func FuzzStartupRelativeEntries(f *testing.F) {
	for _, s := range []string{"export PATH=./bin:$PATH", "path=(a b)", "fish_add_path x", "PATH=:", "set -gx PATH a", "p ./bin # c"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		for _, e := range startupRelativeEntries(text) {
			if e == "" || filepath.IsAbs(e) || slices.ContainsFunc([]rune(e), func(r rune) bool { return r == '$' || r == '~' || r == '`' }) {
				t.Fatalf("%q gave the entry %q", text, e)
			}
		}
	})
}
