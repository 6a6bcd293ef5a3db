package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Class 4 of the trust boundaries, through the real eukhe mcp: a program
// under {read, write, exec} plants a working repository (an fsmonitor
// hook) or editor config deep below the root — in a new tree, by a
// rename, as a gitdir file, twice in one script, from a child that
// outlived its step — and `git status` there must not run it. Each made
// entry is renamed out of use, and the reply says what was done.
func TestAttacks_protected_names_at_any_depth(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	settings := filepath.Join(w.home, ".config/eukhe/settings.json")
	if err := os.WriteFile(settings, []byte(`{"shell.autoEffects": ["read", "write", "exec"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	os.MkdirAll(filepath.Join(w.root, "deep/er"), 0o755)
	p := w.startMCP(t, "session")
	pwned := filepath.Join(w.base, "pwned")
	// Each program is python3 (exec: its words do not tell what it does),
	// so the sandbox is what stands between it and the workspace.
	py := func(code string) string { return "python3 -c " + shellQuote(code) }
	hook := func(dir string) string {
		return "import subprocess as s; s.run(['git','init','-q','" + dir + "']); s.run(['git','-C','" + dir + "','config','core.fsmonitor','touch " + pwned + "; false'])"
	}
	rows := []struct{ name, script, check string }{
		{"a repository in a new tree", py(hook("deep/er/a/b")), "deep/er/a/b"},
		{"a repository renamed into place", py(hook("deep/tmpx/r") + "; import os; os.rename('deep/tmpx/r/.git','deep/er/.git')"), "deep/er"},
		{"a gitdir file pointing at a repository made outside the workspace", py("import subprocess as s, os; s.run(['git','init','-q','--bare','" + w.base + "/evil.git']); s.run(['git','--git-dir=" + w.base + "/evil.git','config','core.fsmonitor','touch " + pwned + "; false']); os.makedirs('deep/g', exist_ok=True); open('deep/g/.git','w').write('gitdir: " + w.base + "/evil.git\\n')"), "deep/g"},
		{"twice in one script", py(hook("deep/t")+"; import os; os.rename('deep/t/.git','deep/t/keep')") + " && " + py(hook("deep/t")), "deep/t"},
		{"editor config in a new directory", py("import os; os.makedirs('deep/v/.vscode'); open('deep/v/.vscode/tasks.json','w').write('{}')"), ""},
		{"a child that outlives its step", py("import os, subprocess; os.makedirs('deep/late', exist_ok=True); subprocess.Popen(['sh','-c','sleep 1; git init -q deep/late && git -C deep/late config core.fsmonitor \"touch " + pwned + "; false\"'], start_new_session=True)"), "deep/late"},
	}
	for _, r := range rows {
		text, _ := p.call("bash", map[string]any{"script": r.script})
		time.Sleep(1500 * time.Millisecond) // the outliving child's moment
		if r.check != "" {
			cmd := exec.Command("git", "status", "--short")
			cmd.Dir = filepath.Join(w.root, r.check)
			cmd.Env = append(os.Environ(), "HOME="+w.home, "GIT_CEILING_DIRECTORIES="+w.root)
			cmd.Run()
			if _, err := os.Stat(pwned); err == nil {
				t.Errorf("%s: git status in %s ran the planted hook:\n%s", r.name, r.check, text)
				os.Remove(pwned)
			}
		}
		if r.name != "a child that outlives its step" && !strings.Contains(text, "renamed out of use") {
			t.Errorf("%s: the reply does not say what was done:\n%s", r.name, text)
		}
	}
	if _, err := os.Stat(filepath.Join(w.root, "deep/v/.vscode")); err == nil {
		t.Errorf("deep/v/.vscode stayed in use")
	}
	// Control: git with protected allowed keeps its repository; a build runs.
	if err := os.WriteFile(settings, []byte(`{"shell.autoEffects": ["read", "write", "exec", "protected"]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the settings are re-read when they change
	text, failed := p.call("bash", map[string]any{"script": "git init -q deep/ok && git -C deep/ok status --short; sed -i s/two/2/ a.txt"})
	if failed || !dirExists(filepath.Join(w.root, "deep/ok/.git")) {
		t.Errorf("git init with protected allowed: %s", text)
	}
}

func dirExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }
