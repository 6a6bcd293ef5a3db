//go:build open_attacks

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The attacks still open: each got through when it was written and still
// does; the closing note of the stop that found it says why it is not
// fixed yet. They build only with the tag open_attacks
// (go test -tags open_attacks -run TestAttackOpen ./cmd/eukhe), so CI
// stays green while they are kept where the next person finds them; the
// helpers they call are in the round's own file. Fixing one moves it back
// to its round's file.

// Outside the roots the shadow rule does not look: with PATH "./bin"
// and outside in the auto set, a program makes ~/other/bin/ls (another
// project of the user's) and the user's ls there runs it. The gate asks
// for the words (every path ending in /bin is protected); the program
// is not looked at.
func TestAttackOpen_a_shadowing_program_outside_the_roots_stays(t *testing.T) {
	needEdgeTools(t)
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec", "outside"]`)
			other := filepath.Join(w.home, "other")
			writeFile(t, filepath.Join(other, "README"), "other\n", 0o644)
			path := "./bin:" + os.Getenv("PATH")
			p := r3mcp(t, w, w.root, path, "EUKHE_CONFINEMENT="+mech)
			text, _ := p.call("bash", map[string]any{"script": r3py("import os\n" + r6plant(filepath.Join(other, "bin", "ls")))})
			out := r6user(w, other, path, "sh", "-c", "ls /dev/null")
			if strings.Contains(out, "PLANTEDRAN") {
				t.Errorf("the user's ls in another project ran bin/ls, made there by a step's program: %s\n%s", out, text)
			}
		})
	}
}

// lefthook's config is protected by every name it reads, and the fix
// left node_modules/lefthook-linux-x64 alone ("its own package"): but the
// hook lefthook installed runs that package's binary. With read and
// write the agent writes it, and the user's commit runs it.
func TestAttackOpen_lefthooks_own_binary_the_hook_runs_is_written_unasked(t *testing.T) {
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	writeFile(t, filepath.Join(w.root, ".git", "hooks", "pre-commit"), r6lefthookHook, 0o755)
	writeFile(t, filepath.Join(w.root, "lefthook.yml"), "pre-commit:\n  commands:\n    lint:\n      run: true\n", 0o644)
	arch := map[string]string{"amd64": "x64", "arm64": "arm64"}[goarch()]
	bin := "node_modules/lefthook-linux-" + arch + "/bin/lefthook"
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	t1, _ := p.call("write", map[string]any{"path": bin, "content": r3hook(mark)})
	t2, _ := p.call("bash", map[string]any{"script": "chmod +x " + bin})
	r3gitTry(w.home, w.root, "commit", "-q", "--allow-empty", "-m", "user's commit")
	if r3exists(mark) {
		t.Errorf("the lefthook binary the installed hook runs (%s) was written unasked and ran at the user's commit:\n%s\n%s", bin, t1, t2)
	}
}

// A dotfiles manager that hard-links (dotfiles kept in ~/dotfiles, each
// linked into the home by a second name, as `ln` without -s or `cp -l`
// makes it): ~/.bash_profile and ~/dotfiles/bash_profile are one file.
// The DotRule covers the name in the home; a step's program (exec and
// outside, not protected) appends to the other name, and the user's next
// login shell runs it. (The shell's words are asked: a control.)
func TestAttackOpen_a_dotfile_hard_linked_from_a_dotfiles_directory_is_written_by_a_program(t *testing.T) {
	r6hardLinkedDotfile(t, false)
}

// husky 9's hooks (core.hooksPath .husky/_) source .husky/_/h, which
// puts node_modules/.bin first on PATH and runs .husky/<hook> — whose
// commands are the user's (npm test): the agent writes
// node_modules/.bin/npm with read and write (no PATH of the user's names
// node_modules/.bin, so nothing protects it), and the user's commit runs
// it in npm's place.
func TestAttackOpen_a_program_in_node_modules_bin_husky_puts_first_on_PATH_is_written_unasked(t *testing.T) {
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	r3git(t, w.home, w.root, "config", "core.hooksPath", ".husky/_")
	writeFile(t, filepath.Join(w.root, ".husky", "_", "h"), r4huskyH, 0o644)
	writeFile(t, filepath.Join(w.root, ".husky", "_", "pre-commit"), "#!/usr/bin/env sh\n. \"$(dirname \"$0\")/h\"\n", 0o755)
	writeFile(t, filepath.Join(w.root, ".husky", "pre-commit"), "npm test\n", 0o644)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	t1, _ := p.call("write", map[string]any{"path": "node_modules/.bin/npm", "content": r3hook(mark)})
	t2, _ := p.call("bash", map[string]any{"script": "chmod +x node_modules/.bin/npm"})
	r3gitTry(w.home, w.root, "commit", "-q", "--allow-empty", "-m", "user's commit")
	if r3exists(mark) {
		t.Errorf("node_modules/.bin/npm, which husky's hook puts first on PATH, was written unasked and ran at the user's commit:\n%s\n%s", t1, t2)
	}
}

// pre-commit installed in the project's virtual environment (pip
// install pre-commit in .venv, then pre-commit install): its hook runs
// .venv/bin/python -mpre_commit. The agent writes a .pth file in the
// environment's site-packages with read and write; the user's commit
// starts that python, which runs the .pth's import line.
func TestAttackOpen_the_project_venv_pre_commits_hook_runs_is_written_unasked(t *testing.T) {
	w := newEnvWorld(t, `["read", "write"]`)
	mark := filepath.Join(w.base, "pwned")
	venv := filepath.Join(w.root, ".venv")
	if out, err := exec.Command("python3", "-m", "venv", "--without-pip", venv).CombinedOutput(); err != nil {
		t.Skipf("python3 -m venv: %v\n%s", err, out)
	}
	out, err := exec.Command(filepath.Join(venv, "bin", "python3"), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])").Output()
	mustDo(t, err)
	site, _ := filepath.Rel(w.root, strings.TrimSpace(string(out)))
	writeFile(t, filepath.Join(w.root, ".git", "hooks", "pre-commit"), "#!/usr/bin/env bash\n# File generated by pre-commit: https://pre-commit.com\n"+
		"INSTALL_PYTHON="+filepath.Join(venv, "bin", "python3")+"\nARGS=(hook-impl --config=.pre-commit-config.yaml --hook-type=pre-commit)\n"+
		"HERE=\"$(cd \"$(dirname \"$0\")\" && pwd)\"\nARGS+=(--hook-dir \"$HERE\" -- \"$@\")\n"+
		"if [ -x \"$INSTALL_PYTHON\" ]; then\n    exec \"$INSTALL_PYTHON\" -mpre_commit \"${ARGS[@]}\"\nelif command -v pre-commit > /dev/null; then\n    exec pre-commit \"${ARGS[@]}\"\nelse\n    echo '`pre-commit` not found.' 1>&2\n    exit 1\nfi\n", 0o755)
	p := r3mcp(t, w, w.root, os.Getenv("PATH"))
	text, _ := p.call("write", map[string]any{"path": filepath.Join(site, "zz.pth"), "content": "import os; os.system('touch " + mark + "')\n"})
	r3gitTry(w.home, w.root, "commit", "-q", "--allow-empty", "-m", "user's commit")
	if r3exists(mark) {
		t.Errorf("a .pth in the project's venv, whose python pre-commit's hook runs, was written unasked and ran at the user's commit:\n%s", text)
	}
}

// r6lefthookHook is what `lefthook install` writes as .git/hooks/<hook>
// (lefthook 1.x): with no lefthook on PATH (installed with npm, as its
// docs show for a JavaScript project) it runs the binary of the npm
// package node_modules/lefthook-<os>-<arch>/bin/lefthook.
const r6lefthookHook = `#!/bin/sh
if [ "$LEFTHOOK_VERBOSE" = "1" -o "$LEFTHOOK_VERBOSE" = "true" ]; then
  set -x
fi
if [ "$LEFTHOOK" = "0" ]; then
  exit 0
fi
call_lefthook()
{
  if test -n "$LEFTHOOK_BIN"
  then
    "$LEFTHOOK_BIN" "$@"
  elif lefthook -h >/dev/null 2>&1
  then
    lefthook "$@"
  else
    dir="$(git rev-parse --show-toplevel)"
    osArch=$(uname | tr '[:upper:]' '[:lower:]')
    cpuArch=$(uname -m | sed 's/aarch64/arm64/;s/x86_64/x64/')
    if test -f "$dir/node_modules/lefthook-${osArch}-${cpuArch}/bin/lefthook"
    then
      "$dir/node_modules/lefthook-${osArch}-${cpuArch}/bin/lefthook" "$@"
    elif test -f "$dir/node_modules/@evilmartians/lefthook/bin/lefthook-${osArch}-${cpuArch}/lefthook"
    then
      "$dir/node_modules/@evilmartians/lefthook/bin/lefthook-${osArch}-${cpuArch}/lefthook" "$@"
    elif test -f "$dir/node_modules/lefthook/bin/index.js"
    then
      "$dir/node_modules/lefthook/bin/index.js" "$@"
    else
      echo "Can't find lefthook in PATH"
    fi
  fi
}
call_lefthook run "pre-commit" "$@"
`

func goarch() string {
	out, _ := exec.Command("go", "env", "GOARCH").Output()
	return strings.TrimSpace(string(out))
}
