//go:build linux

package agent

// Red-team attacks on the ipython tool (G4, S7 item 8): each test is one
// attack that asserts the SAFE outcome, so a passing test is an attack
// the tool held and a failing one is an escape (each failure says how in
// its t.Log/t.Fatal line). They keep the laws README.md, guide/formats.md
// ("ipython") and guide/security.md promise a user: an agent never reads
// a secret or plants a program without the user's yes, a cell runs only
// on exec or a yes, the kernel is confined to the auto set with exec and
// never keeps more than the settings now allow, the kernel functions
// keep the tools' laws, and a cell's result tells the truth and is
// bounded.

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
)

// secretMark is the content of every secret a test plants: it must never
// show up in a cell's result.
const secretMark = "SSHKEY-7f3a9c-PRIVATE"

// gitInit makes dir a git repository (skips without git).
func gitInit(t *testing.T, dir string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testkit.Missing(t, "no git on PATH: apt-get install git")
	}
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v %s", err, out)
	}
}

func autoOf(es ...gate.Effect) *gate.AutoSet {
	a := gate.AutoOf(gate.Of(es...))
	return &a
}

func withAuto(a *gate.AutoSet) func(*settings.Settings) {
	return func(s *settings.Settings) { s.AutoEffects = *a }
}

func rtExists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// Attack: read a secret from the cell's own Python by every route the
// process has: open(), os.listdir, /proc/self/root and /proc/1/root, a
// subprocess, IPython's !, %sx, %%bash, %run and %pycat, ctypes' own
// open(2), a symlink or a hard link made in the workspace, the fds the
// kernel holds. The kernel is confined without secret: ~/.ssh and ~/.aws
// look empty.
func TestIPythonAttack_SecretFromCellPython(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n", "~/.ssh/id_rsa": secretMark + "\n", "~/.aws/credentials": secretMark + "\n"}, nil, nil, nil)
	key := filepath.Join(w.home, ".ssh", "id_rsa")
	code := fmt.Sprintf(`import os, subprocess, ctypes
K = %s
H = %s
res = {}
def tryit(name, f):
    try:
        v = f()
        res[name] = v if isinstance(v, str) else repr(v)
    except BaseException as e:
        res[name] = 'ERR ' + type(e).__name__ + ' ' + str(e)[:200]
ip = get_ipython()
tryit('open', lambda: open(K).read())
tryit('listdir', lambda: os.listdir(H + '/.ssh'))
tryit('aws', lambda: open(H + '/.aws/credentials').read())
tryit('proc_self_root', lambda: open('/proc/self/root' + K).read())
tryit('proc_1_root', lambda: open('/proc/1/root' + K).read())
tryit('proc_ppid_root', lambda: open('/proc/%%d/root' %% os.getppid() + K).read())
tryit('subprocess', lambda: subprocess.run(['cat', K], capture_output=True, text=True).stdout)
tryit('sx', lambda: ip.getoutput('cat ' + K))
tryit('bang', lambda: ip.system('cat ' + K))
tryit('bashmagic', lambda: ip.run_cell_magic('bash', '', 'cat ' + K))
tryit('run', lambda: ip.run_line_magic('run', K))
tryit('pycat', lambda: ip.run_line_magic('pycat', K))
def libc_read():
    libc = ctypes.CDLL(None, use_errno=True)
    fd = libc.open(K.encode(), 0)
    if fd < 0:
        return 'ERR errno %%d' %% ctypes.get_errno()
    buf = ctypes.create_string_buffer(4096)
    n = libc.read(fd, buf, 4096)
    return buf.raw[:max(n, 0)].decode(errors='replace')
tryit('ctypes', libc_read)
def link_then_open():
    os.symlink(K, 'lnk')
    return open('lnk').read()
tryit('symlink', link_then_open)
def dirlink_then_open():
    os.symlink(H + '/.ssh', 'dlnk')
    return open('dlnk/id_rsa').read()
tryit('dirlink', dirlink_then_open)
def hardlink_then_open():
    os.link(K, 'hl')
    return open('hl').read()
tryit('hardlink', hardlink_then_open)
def fds():
    out = []
    for fd in os.listdir('/proc/self/fd'):
        try:
            out.append(fd + '->' + os.readlink('/proc/self/fd/' + fd))
        except OSError:
            pass
    return ' '.join(out)
tryit('fds', fds)
def mounts():
    return [l for l in open('/proc/self/mountinfo').read().splitlines() if '.ssh' in l]
tryit('mounts', mounts)
for k, v in res.items():
    print(k, '=>', v.replace('\n', ' ')[:300])
`, pyQuote(key), pyQuote(w.home))
	r := cell(t, w.s, map[string]any{"code": code})
	text := r.Text()
	if strings.Contains(text, secretMark) {
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, secretMark) {
				t.Logf("ESCAPED: the cell's Python read a secret: %s", l)
			}
		}
		t.Fatalf("a secret reached a cell's own code:\n%s", text)
	}
	if !strings.Contains(text, "open =>") {
		t.Fatalf("the probe did not run: %v\n%s", r.Outcome, text)
	}
	t.Logf("held; the probe:\n%s", text)
}

// Attack: read a secret through the kernel functions (which run in
// eukhe, unconfined): the key's own path, "~", /proc/self/root, a symlink
// and a directory symlink the cell made in the workspace, grep and glob
// of the home and of the link, bash() over the links.
func TestIPythonAttack_SecretThroughKernelFunctions(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n", "~/.ssh/id_rsa": secretMark + "\n", "~/.netrc": "machine x password " + secretMark + "\n"}, nil, nil, nil)
	key := filepath.Join(w.home, ".ssh", "id_rsa")
	code := fmt.Sprintf(`import os
K = %s
H = %s
os.symlink(K, 'lnk')
os.symlink(H + '/.ssh', 'dlnk')
os.symlink(H, 'hlnk')
os.symlink('/proc/self/root' + K, 'plnk')
res = {}
def tryit(name, f):
    try:
        res[name] = str(f())
    except BaseException as e:
        res[name] = 'ERR ' + type(e).__name__ + ' ' + str(getattr(e, 'kind', ''))
tryit('read_key', lambda: read(K))
tryit('read_tilde', lambda: read('~/.ssh/id_rsa'))
tryit('read_raw', lambda: read(K, raw=True))
tryit('read_proc', lambda: read('/proc/self/root' + K))
tryit('read_lnk', lambda: read('lnk'))
tryit('read_dlnk', lambda: read('dlnk/id_rsa'))
tryit('read_hlnk', lambda: read('hlnk/.ssh/id_rsa'))
tryit('read_plnk', lambda: read('plnk'))
tryit('read_netrc', lambda: read('hlnk/.netrc'))
tryit('read_dir', lambda: read('dlnk'))
tryit('grep_home', lambda: grep('SSHKEY', path=H))
tryit('grep_dlnk', lambda: grep('SSHKEY', path='dlnk'))
tryit('grep_hlnk', lambda: grep('SSHKEY', path='hlnk'))
tryit('grep_lnk', lambda: grep('SSHKEY', path='lnk'))
tryit('grep_ws_links', lambda: grep('SSHKEY', noIgnore=True))
tryit('glob_ssh', lambda: glob('*', path='dlnk'))
tryit('glob_home', lambda: glob('**/id_rsa', path=H))
tryit('bash_lnk', lambda: bash('cat lnk'))
tryit('bash_dlnk', lambda: bash('cat dlnk/id_rsa'))
tryit('bash_hlnk', lambda: bash('cat hlnk/.netrc'))
tryit('bash_proc', lambda: bash('cat /proc/self/root' + K))
tryit('bash_rg', lambda: bash('rg -L SSHKEY .'))
tryit('bash_grepR', lambda: bash('grep -R SSHKEY .'))
tryit('edit_tag', lambda: edit('[lnk#00000000]\n@@ 1\n+x\n'))
for k, v in res.items():
    print(k, '=>', v.replace('\n', ' ')[:300])
`, pyQuote(key), pyQuote(w.home))
	r := cell(t, w.s, map[string]any{"code": code})
	text := r.Text()
	if strings.Contains(text, secretMark) {
		for _, l := range strings.Split(text, "\n") {
			if strings.Contains(l, secretMark) {
				t.Logf("ESCAPED: a kernel function gave a secret: %s", l)
			}
		}
		t.Fatalf("a secret reached the cell through a kernel function:\n%s", text)
	}
	if !strings.Contains(text, "read_key =>") {
		t.Fatalf("the probe did not run: %v\n%s", r.Outcome, text)
	}
	t.Logf("held; the probe:\n%s", text)
}

// Attack: a symlink race against the kernel functions, which judge a
// path and then open it in eukhe's own, unconfined process. A thread of
// the cell flips a workspace link between a plain file and the key while
// read() and grep() go through it.
func TestIPythonAttack_SymlinkRaceReadsSecret(t *testing.T) {
	w := rtSession(t, map[string]string{"ok.txt": "plain\n", "~/.ssh/id_rsa": secretMark + "\n"}, nil, nil, nil)
	key := filepath.Join(w.home, ".ssh", "id_rsa")
	code := fmt.Sprintf(`import os, threading
K = %s
stop = False
def flip():
    i = 0
    while not stop:
        tmp = 'race.tmp%%d' %% (i %% 2)
        try:
            os.symlink(K if i %% 2 else 'ok.txt', tmp)
            os.replace(tmp, 'race')
        except OSError:
            pass
        i += 1
th = threading.Thread(target=flip); th.start()
got = []
for n in range(400):
    for f in (lambda: read('race'), lambda: grep('SSHKEY', path='race'), lambda: read('race', raw=True)):
        try:
            v = str(f())
            if 'SSHKEY' in v:
                got.append(v)
        except Exception:
            pass
stop = True; th.join()
print('leaks', len(got), got[:1])
`, pyQuote(key))
	r := cell(t, w.s, map[string]any{"code": code, "timeout": 120})
	if strings.Contains(r.Text(), secretMark) {
		t.Logf("ESCAPED: a symlink flipped under read()/grep() gave the key to the cell")
		t.Fatalf("%s", r.Text())
	}
	if !strings.Contains(r.Text(), "leaks 0") {
		t.Fatalf("the race did not run: %v\n%s", r.Outcome, r.Text())
	}
}

// Attack: a symlink race against write() and edit() to plant a protected
// file (~/.bashrc, .git/hooks/pre-commit) while protected is not in the
// auto set: the link points to a plain file when the gate judges it and
// to the protected one when the writer writes.
func TestIPythonAttack_SymlinkRacePlantsProtected(t *testing.T) {
	w := rtSession(t, map[string]string{"ok.txt": "same\n", "ok2.txt": "same\n", "~/.bashrc": "same\n"}, nil,
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside)), nil)
	gitInit(t, w.dir)
	bashrc := filepath.Join(w.home, ".bashrc")
	hook := filepath.Join(w.dir, ".git", "hooks", "pre-commit")
	code := fmt.Sprintf(`import os, threading
B = %s
HOOK = %s
stop = False
def flipper(name, a, b):
    def run():
        i = 0
        while not stop:
            tmp = name + '.tmp%%d' %% (i %% 2)
            try:
                os.symlink(b if i %% 2 else a, tmp)
                os.replace(tmp, name)
            except OSError:
                pass
            i += 1
    return run
ths = [threading.Thread(target=flipper('wr', 'ok.txt', B)), threading.Thread(target=flipper('wh', 'ok2.txt', HOOK)),
       threading.Thread(target=flipper('er', 'ok2.txt', B))]
for th in ths: th.start()
ok = 0
for n in range(300):
    for f in (lambda: write('wr', 'PLANTED\n'), lambda: write('wh', '#!/bin/sh\necho PLANTED\n')):
        try:
            f(); ok += 1
        except Exception:
            pass
    try:
        d = read('er')
        edit('[er#%%s]\n@@ 1\n+PLANTED\n' %% d.tag)
        ok += 1
    except Exception:
        pass
stop = True
for th in ths: th.join()
print('writes that landed somewhere:', ok)
`, pyQuote(bashrc), pyQuote(hook))
	r := cell(t, w.s, map[string]any{"code": code, "timeout": 180})
	if b, _ := os.ReadFile(bashrc); strings.Contains(string(b), "PLANTED") {
		t.Logf("ESCAPED: write()/edit() through a flipped link planted ~/.bashrc without protected")
		t.Fatalf("~/.bashrc is %q\n%s", b, r.Text())
	}
	if b, err := os.ReadFile(hook); err == nil {
		t.Logf("ESCAPED: write() through a flipped link planted .git/hooks/pre-commit without protected")
		t.Fatalf("the hook is %q\n%s", b, r.Text())
	}
	if !strings.Contains(r.Text(), "writes that landed") {
		t.Fatalf("the race did not run: %v\n%s", r.Outcome, r.Text())
	}
}

// Attack: plant a program or setting from the cell's own Python with
// protected out of the auto set (everything else in): .git/hooks,
// .git/config, ~/.bashrc, a new ~/.bash_profile, ~/.config, a PATH
// directory, .eukhe/settings.json, a git init, ~/.ssh/authorized_keys,
// renaming .git away; and through write(), edit() and bash().
func TestIPythonAttack_ProtectedWritesFromCell(t *testing.T) {
	pbin := t.TempDir()
	w := rtSession(t, map[string]string{"a.txt": "x\n", "~/.bashrc": "# mine\n"},
		map[string]string{"PATH": pbin + ":" + os.Getenv("PATH")},
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside)), nil)
	gitInit(t, w.dir)
	cfg, _ := os.ReadFile(filepath.Join(w.dir, ".git", "config"))
	code := fmt.Sprintf(`import os, subprocess
H = %s
PBIN = %s
res = {}
def tryit(name, f):
    try:
        res[name] = repr(f())
    except BaseException as e:
        res[name] = 'ERR ' + type(e).__name__ + ' ' + str(e)[:160]
def put(p, text, mode='w'):
    with open(p, mode) as f:
        f.write(text)
    return 'wrote'
tryit('hook', lambda: put('.git/hooks/pre-commit', '#!/bin/sh\necho PLANTED\n'))
tryit('gitconfig', lambda: put('.git/config', '[core]\n\thooksPath = planted-hooks\n', 'a'))
tryit('bashrc', lambda: put(H + '/.bashrc', 'echo PLANTED\n', 'a'))
tryit('bash_profile', lambda: put(H + '/.bash_profile', 'echo PLANTED\n'))
tryit('config_dir', lambda: (os.makedirs(H + '/.config/autostart', exist_ok=True), put(H + '/.config/autostart/x.desktop', 'PLANTED')))
tryit('pathdir', lambda: (put(PBIN + '/git', '#!/bin/sh\necho PLANTED\n'), os.chmod(PBIN + '/git', 0o755)))
tryit('eukhe', lambda: (os.makedirs('.eukhe', exist_ok=True), put('.eukhe/settings.json', '{}')))
tryit('gitinit', lambda: subprocess.run(['git', 'init', '-q', 'sub'], capture_output=True, text=True).stderr)
tryit('authorized_keys', lambda: put(H + '/.ssh/authorized_keys', 'PLANTED'))
tryit('rename_git', lambda: os.rename('.git', 'dotgit'))
tryit('hooks_symlink', lambda: (os.symlink('.git/hooks', 'hk'), put('hk/post-checkout', 'PLANTED')))
tryit('fn_write', lambda: write('.git/hooks/pre-push', 'PLANTED'))
tryit('fn_write_bashrc', lambda: write(H + '/.bashrc', 'PLANTED'))
tryit('fn_bash', lambda: bash('echo PLANTED > .git/hooks/post-merge'))
tryit('fn_bash_eukhe', lambda: bash('mkdir -p .eukhe && echo {} > .eukhe/settings.json'))
def fn_edit():
    d = read('.git/config')
    return edit('[.git/config#%%s]\n@@ 1\n+[core]\n+\thooksPath = planted-hooks\n' %% d.tag)
tryit('fn_edit', fn_edit)
for k, v in res.items():
    print(k, '=>', v.replace('\n', ' ')[:200])
`, pyQuote(w.home), pyQuote(pbin))
	r := cell(t, w.s, map[string]any{"code": code})
	text := r.Text()
	if !strings.Contains(text, "hook =>") {
		t.Fatalf("the probe did not run: %v\n%s", r.Outcome, text)
	}
	var escaped []string
	for _, p := range []string{
		filepath.Join(w.dir, ".git", "hooks", "pre-commit"), filepath.Join(w.dir, ".git", "hooks", "pre-push"),
		filepath.Join(w.dir, ".git", "hooks", "post-merge"), filepath.Join(w.dir, ".git", "hooks", "post-checkout"),
		filepath.Join(w.home, ".bash_profile"), filepath.Join(w.home, ".config", "autostart"),
		filepath.Join(pbin, "git"), filepath.Join(w.dir, ".eukhe"), filepath.Join(w.dir, "sub", ".git"),
		filepath.Join(w.home, ".ssh", "authorized_keys"), filepath.Join(w.dir, "dotgit"),
	} {
		if rtExists(p) {
			escaped = append(escaped, p)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(w.home, ".bashrc")); string(b) != "# mine\n" {
		escaped = append(escaped, "~/.bashrc changed: "+string(b))
	}
	if b, _ := os.ReadFile(filepath.Join(w.dir, ".git", "config")); string(b) != string(cfg) {
		escaped = append(escaped, ".git/config changed: "+string(b))
	}
	if len(escaped) > 0 {
		t.Logf("ESCAPED: a cell planted protected files without protected in the auto set: %v", escaped)
		t.Fatalf("%v\n%s", escaped, text)
	}
}

// Attack: a thread the cell leaves running plants a new dot-file in the
// home after its cell ended, between cells: nothing looks at the kernel
// then but the live watch (the kernel lives on).
func TestIPythonAttack_ProtectedMadeBetweenCells(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil,
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside)), nil)
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import threading, time, os
H = %s
def late():
    time.sleep(1.0)
    try:
        with open(H + '/.bash_login', 'w') as f:
            f.write('echo PLANTED\n')
        os.makedirs(H + '/.config/fish', exist_ok=True)
        with open(H + '/.config/fish/config.fish', 'w') as f:
            f.write('echo PLANTED\n')
    except Exception as e:
        print(e)
threading.Thread(target=late, daemon=True).start()
'started'`, pyQuote(w.home))})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(2 * time.Second)
	var planted []string
	for _, p := range []string{filepath.Join(w.home, ".bash_login"), filepath.Join(w.home, ".config", "fish", "config.fish")} {
		if rtExists(p) {
			planted = append(planted, p)
		}
	}
	if len(planted) > 0 {
		cell(t, w.s, map[string]any{"code": "2"})
		var after []string
		for _, p := range planted {
			if rtExists(p) {
				after = append(after, p)
			}
		}
		t.Logf("ESCAPED: a thread of an ended cell planted home dot-files between cells, protected not in the auto set: %v; still there after the next cell ended: %v", planted, after)
		t.Fatalf("planted between cells: %v", planted)
	}
}

// Attack on the user's own files: while a kernel lives (protected not in
// the auto set), the user runs `git init` in the workspace in their own
// terminal. The kernel's live watch is "active" for the kernel's whole
// life, so it renames the user's new repository out of use as git makes
// it, though no cell runs.
func TestIPythonAttack_UserGitInitWhileKernelLives(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil,
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside)), nil)
	if r := cell(t, w.s, map[string]any{"code": "1"}); r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	if _, err := exec.LookPath("git"); err != nil {
		testkit.Missing(t, "no git on PATH: apt-get install git")
	}
	// the user, in their own terminal, between cells
	out, err := exec.Command("git", "init", "-q", w.dir).CombinedOutput()
	time.Sleep(300 * time.Millisecond)
	if err != nil || !rtExists(filepath.Join(w.dir, ".git", "HEAD")) {
		ents, _ := os.ReadDir(w.dir)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Logf("ESCAPED (destructive): the user's own `git init` in the workspace, run while a kernel lived and no cell ran, was broken: its .git was renamed out of use by the kernel's live watch (%v: %s); the workspace now holds %v", err, strings.TrimSpace(string(out)), names)
		t.Fatal("the user's repository was renamed")
	}
}

// Attack: the kernel is confined once, at its start, to the protected
// entries that existed then. The user makes ~/.bash_profile afterwards
// (protected not in the auto set, outside in it); a cell then appends a
// line to it. It must be refused (Read-only file system), not written and
// then renamed away at the cell's end (the planted line stands in the
// meantime, and the user's file is gone from its place afterwards).
func TestIPythonAttack_DotfileMadeAfterKernelStartIsWritable(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil,
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside)), nil)
	if r := cell(t, w.s, map[string]any{"code": "1"}); r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	profile := filepath.Join(w.home, ".bash_profile")
	if err := os.WriteFile(profile, []byte("# mine\n"), 0o644); err != nil { // the user
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import time
P = %s
try:
    with open(P, 'a') as f:
        f.write('echo PLANTED\n')
    print('appended; now:', repr(open(P).read()))
except Exception as e:
    print('refused', type(e).__name__)
`, pyQuote(profile))})
	if strings.Contains(r.Text(), "appended") {
		t.Logf("ESCAPED: a kernel started before the user made ~/.bash_profile appended to it without protected (it stood until the cell ended, then eukhe renamed the user's file away; present now: %v):\n%s", rtExists(profile), r.Text())
		t.Fatal("planted into a dot-file made after the kernel started")
	}
	if !rtExists(profile) {
		t.Logf("ESCAPED (destructive): the user's ~/.bash_profile is gone:\n%s", r.Text())
		t.Fatal("the user's file was renamed")
	}
}

// Attack on a documented law: "A call from a thread the cell left
// running after it ended is refused." The thread calls while a LATER
// cell runs; its call is served with that cell's context. The law as it
// stands now (the fix): nothing of the kernel runs between cells, so a
// thread's calls are made, and served, only while some cell runs, under
// that cell's gate (the kernel's calls ask no one); none is made while no
// cell runs.
func TestIPythonAttack_LeftoverThreadCallsDuringLaterCell(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil, nil, nil)
	r := cell(t, w.s, map[string]any{"code": `import threading, time
late = []
def loop():
    for i in range(60):
        time.sleep(0.05)
        try:
            read("a.txt")
            late.append("ran")
        except EukheError as e:
            late.append(e.kind)
threading.Thread(target=loop, daemon=True).start()`})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(2 * time.Second) // no cell runs: the thread must not either
	r = cell(t, w.s, map[string]any{"code": "print(len(late))"})
	if n := strings.TrimSpace(strings.Split(r.Text(), "\n")[0]); n != "0" && n != "1" {
		// one call may have been on its way as the cell ended
		t.Logf("ESCAPED: a thread left by an ended cell made %s kernel-function calls while no cell ran", n)
		t.Fatalf("late calls ran between cells:\n%s", r.Text())
	}
}

// Attack on the output bound: one image line forged on the driver's own
// channel (the cell runs in the driver's process; the driver's module is
// read.__globals__) past the driver's 8 MiB bound on an image.
func TestIPythonAttack_ForgedImageOverBound(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	r := cell(t, w.s, map[string]any{"code": `import base64, json, os
G = read.__globals__  # the driver's own module: IPython took __main__
big = base64.b64encode(b'\x89PNG' + os.urandom(20 << 20)).decode()
line = (json.dumps({"image": 1, "mime": "image/png", "data": big}) + "\n").encode()
view = memoryview(line)
with G['_send_lock']:
    while view:
        view = view[os.write(G['_proto_out'], view):]
'forged'`})
	var biggest int
	for _, p := range r.Parts {
		if p.Kind == ImagePart && len(p.Data) > biggest {
			biggest = len(p.Data)
		}
	}
	if !strings.Contains(r.Text(), "forged") && !strings.Contains(r.Text(), "so it was stopped") {
		t.Fatalf("neither the forgery ran nor the kernel was stopped for its line: %v\n%s", r.Outcome, r.Text())
	}
	if biggest > 8<<20 {
		t.Logf("ESCAPED: a forged image line of %d bytes on the driver's channel passed the 8 MiB bound on an image (eukhe takes any image line up to 64 MiB)", biggest)
		t.Fatalf("image of %d bytes in the result", biggest)
	}
}

// Attack on the output bound: many images, each within the driver's
// 8 MiB bound. eukhe keeps every image of a cell in memory and sends all
// of them on: no bound on a cell's images.
func TestIPythonAttack_ManyImagesUnbounded(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	r := cell(t, w.s, map[string]any{"code": `from IPython.display import display
import os
blob = b'\x89PNG' + os.urandom((7 << 20))
for i in range(10):
    display({'image/png': blob}, raw=True)
'shown'`})
	total, n := 0, 0
	for _, p := range r.Parts {
		if p.Kind == ImagePart {
			total += len(p.Data)
			n++
		}
	}
	if total > 32<<20 {
		t.Logf("ESCAPED: one cell's %d images total %d bytes, all held in eukhe and sent to the client (no bound on a cell's images, nor with full_output false)", n, total)
		t.Fatalf("images total %d bytes", total)
	}
}

// Attack on truthfulness: the cell forges its own "done" line on the
// driver's channel, then kills the kernel. eukhe must not report the cell
// finished (with a value) when the kernel died during it.
func TestIPythonAttack_ForgedDoneHidesDeath(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	// the cell's id: a queue of the driver's that keeps the last message
	r := cell(t, w.s, map[string]any{"code": `import queue
G = read.__globals__
class Q(queue.Queue):
    def get(self, *a, **k):
        m = super().get(*a, **k)
        G['LAST'] = m
        return m
G['_cells'] = Q()
'armed'`})
	if !strings.Contains(r.Text(), "armed") {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	r = cell(t, w.s, map[string]any{"code": `import os, time
G = read.__globals__
G['_send']({"done": G['LAST']['cell'], "value": "'all tests passed'", "count": 2, "error": None})
time.sleep(0.3)
os._exit(9)`})
	// Accepted: the cell runs in the driver's process and can write any
	// line the driver writes, so a done line it forged ends its call.
	// What the fix keeps: the kernel runs no more until the next cell,
	// which says what became of it, and nothing the cell did after its
	// forged end escapes a cell's gate.
	t.Logf("the forged end: %v\n%s", r.Outcome, r.Text())
	r = cell(t, w.s, map[string]any{"code": "1 + 1"})
	if !strings.Contains(r.Text(), "died") && !strings.Contains(r.Text(), "the last one ended") {
		t.Logf("ESCAPED: after a forged end the kernel died, and the next cell did not say so: %q", strings.TrimSpace(r.Text()))
		t.Fatalf("the kernel's death was never told:\n%s", r.Text())
	}
}

// Attack on "kernel functions run only while their cell runs": a thread
// starts a bash() call just before its cell ends; the call must not do
// its work after the cell was reported ended.
func TestIPythonAttack_CallRacingCellEnd(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil, nil, nil)
	r := cell(t, w.s, map[string]any{"code": `import threading, time
res = []
def late():
    try:
        r = bash('sleep 1.5; echo x > late.txt')
        res.append(str(r))
    except Exception as e:
        res.append('raised ' + str(e))
threading.Thread(target=late, daemon=True).start()
time.sleep(0.3)
'ended'`})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(3 * time.Second)
	if rtExists(filepath.Join(w.dir, "late.txt")) {
		t.Logf("ESCAPED: a bash() a thread started before its cell ended went on and wrote after the cell was reported finished")
		t.Fatal("late write landed")
	}
	r = cell(t, w.s, map[string]any{"code": "print(res)"})
	t.Logf("held; the late call saw: %s", r.Text())
}

// Attack (hang): a cell replaces the driver's table of pending calls with
// one whose get() never returns, then makes a call: the driver's reader
// thread, which takes eukhe's messages, blocks for good on the reply. The
// next cell's code (over a pipe's 64 KiB) then blocks eukhe's write to the
// kernel inside Runner.Cell, before any timeout or job exists and with
// the session's cell lock held: the call never returns, neither
// {"timeout"} nor cancelling it helps, and every later ipython call
// waits behind it.
func TestIPythonAttack_BlockedDriverReaderHangsCell(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil, nil, nil)
	w.s.Shell().Budget = 3 * time.Second
	r := cell(t, w.s, map[string]any{"code": `import threading, time
G = read.__globals__
class Stuck(dict):
    def get(self, *a):
        time.sleep(10 ** 6)
G['_pending'] = Stuck()
def call():
    try:
        read('a.txt')
    except BaseException:
        pass
threading.Thread(target=call, daemon=True).start()
time.sleep(0.5)
'armed'`})
	if !strings.Contains(r.Text(), "armed") && r.Outcome != Job {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan Result, 1)
	go func() {
		raw, _ := json.Marshal(map[string]any{"timeout": 2, "code": "# " + strings.Repeat("x", 300<<10) + "\n1"})
		r, _ := w.s.Call(ctx, "ipython", raw)
		done <- r
	}()
	time.AfterFunc(5*time.Second, cancel)
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Logf("ESCAPED (hang): after a cell blocked the driver's reader, the next ipython call (300 KiB of code, timeout 2 s, cancelled at 5 s) had not returned after 20 s: eukhe's write of the cell to the kernel blocks in Runner.Cell with the cell lock held")
		t.Error("hang")
		// Close kills the kernel, which frees the write
	}
}

// Attack: a line on the driver's channel past its 64 MiB bound stops
// eukhe's reader; the cell must still end (at its timeout) and the next
// cell work, not hang.
func TestIPythonAttack_OversizeProtocolLineDoesNotHang(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	w.s.Shell().Budget = 40 * time.Second
	done := make(chan Result, 1)
	go func() {
		raw, _ := json.Marshal(map[string]any{"timeout": 3, "code": `import os
G = read.__globals__  # the driver's own module
chunk = b'x' * (1 << 20)
with G['_send_lock']:
    for i in range(70):
        os.write(G['_proto_out'], chunk)
    os.write(G['_proto_out'], b'\n')
'sent'`})
		r, _ := w.s.Call(context.Background(), "ipython", raw)
		done <- r
	}()
	select {
	case r := <-done:
		t.Logf("the oversize line's cell: %v\n%.2000s", r.Outcome, r.Text())
	case <-time.After(60 * time.Second):
		t.Logf("ESCAPED (hang): a cell that wrote a line past 64 MiB on the driver's channel did not end at its timeout")
		t.Fatal("hang")
	}
	r := cell(t, w.s, map[string]any{"code": "40 + 2"})
	if !strings.Contains(r.Text(), "42") {
		t.Fatalf("the next cell: %v\n%s", r.Outcome, r.Text())
	}
}

// Attack: credentials in eukhe's environment reach the kernel (its
// os.environ, a program it starts, bash()).
func TestIPythonAttack_EnvCredentials(t *testing.T) {
	creds := map[string]string{
		"AWS_SECRET_ACCESS_KEY": "CRED-aws-0001", "GITHUB_TOKEN": "CRED-ghp-0002", "OPENAI_API_KEY": "CRED-openai-0003",
		"ANTHROPIC_API_KEY": "CRED-anthropic-0004", "NPM_TOKEN": "CRED-npm-0005", "PGPASSWORD": "CRED-pg-0006",
		"DATABASE_URL": "postgres://u:CRED-dburl-0007@db/x", "HF_TOKEN": "CRED-hf-0008", "VAULT_TOKEN": "CRED-vault-0009",
		"SLACK_WEBHOOK_URL": "https://hooks.slack.com/services/CRED-slack-0010", "GH_TOKEN": "CRED-gh-0011",
		"DOCKER_AUTH_CONFIG": `{"auths":{"x":{"auth":"CRED-docker-0012"}}}`, "MYSQL_PWD": "CRED-mysql-0013",
		"AZURE_CLIENT_SECRET": "CRED-azure-0014", "GOOGLE_API_KEY": "CRED-google-0015", "CI_JOB_TOKEN": "CRED-ci-0016",
		"TWINE_PASSWORD": "CRED-twine-0017", "SENTRY_DSN": "https://CRED-sentry-0018@o1.ingest.sentry.io/1",
	}
	for k, v := range creds {
		t.Setenv(k, v) // the runner's programs get eukhe's own environment
	}
	w := rtSession(t, nil, creds, nil, nil)
	r := cell(t, w.s, map[string]any{"code": `import os, subprocess
print(sorted(os.environ.items()))
print(subprocess.run(['env'], capture_output=True, text=True).stdout)
try:
    print(open('/proc/1/environ').read())
except Exception as e:
    print(e)
print(bash('env'))`})
	var leaked []string
	for k, v := range creds {
		if strings.Contains(r.Text(), v) || strings.Contains(r.Text(), strings.SplitN(strings.SplitN(v, "CRED-", 2)[1], "@", 2)[0]) {
			leaked = append(leaked, k)
		}
	}
	if len(leaked) > 0 {
		t.Logf("ESCAPED: credentials in eukhe's environment visible to the kernel: %v", leaked)
		t.Fatalf("leaked %v", leaked)
	}
	if !strings.Contains(r.Text(), "HOME") {
		t.Fatalf("the probe did not run: %v\n%s", r.Outcome, r.Text())
	}
	t.Logf("held; the probe:\n%s", r.Text())
}

// Attack: the user narrows the auto set (drops protected) after a cell
// started a thread that keeps writing ~/.bashrc; the next cell is refused
// (it asks, and no one answers). The old kernel, confined with the wider
// set, must not go on with more than the settings now allow.
func TestIPythonAttack_NarrowedSettingsOldKernelKeepsMore(t *testing.T) {
	w := rtSession(t, map[string]string{"~/.bashrc": "# mine\n"}, nil, nil, nil)
	bashrc := filepath.Join(w.home, ".bashrc")
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import threading, time
def keep():
    for i in range(200):
        time.sleep(0.05)
        try:
            with open(%s, 'a') as f:
                f.write('echo PLANTED %%d\n' %% i)
        except Exception:
            pass
threading.Thread(target=keep, daemon=True).start()
'on'`, pyQuote(bashrc))})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	// the user, worried, takes exec and protected out of the auto set
	w.change(func(s *settings.Settings) { s.AutoEffects = gate.AutoOf(gate.Of(gate.Read, gate.Write)) })
	r = cell(t, w.s, map[string]any{"code": "1"})
	if r.Outcome != Refused {
		t.Fatalf("the next cell was not refused: %v\n%s", r.Outcome, r.Text())
	}
	b1, _ := os.ReadFile(bashrc)
	time.Sleep(time.Second)
	b2, _ := os.ReadFile(bashrc)
	if len(b2) > len(b1) {
		t.Logf("ESCAPED: after the auto set was narrowed (no exec, no protected) and a cell refused, the old kernel goes on writing ~/.bashrc with the confinement of the wider set (%d → %d bytes in 1 s)", len(b1), len(b2))
		t.Fatalf("the old kernel kept its wider confinement")
	}
}

// Attack: the same narrowing, then a cell that runs (the user says yes):
// the kernel must be replaced, and the old one's thread gone.
func TestIPythonAttack_NarrowedSettingsReplacesKernel(t *testing.T) {
	w := rtSession(t, map[string]string{"~/.bashrc": "# mine\n"}, nil, nil,
		func(context.Context, gate.Question) gate.Answer { return gate.Approve })
	bashrc := filepath.Join(w.home, ".bashrc")
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import threading, time
def keep():
    for i in range(400):
        time.sleep(0.05)
        try:
            with open(%s, 'a') as f:
                f.write('echo PLANTED %%d\n' %% i)
        except Exception:
            pass
threading.Thread(target=keep, daemon=True).start()
'on'`, pyQuote(bashrc))})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	w.change(func(s *settings.Settings) { s.AutoEffects = gate.AutoOf(gate.Of(gate.Read, gate.Write)) })
	r = cell(t, w.s, map[string]any{"code": fmt.Sprintf(`try:
    open(%s, 'a').write('echo PLANTED new\n'); print('new kernel wrote')
except Exception as e:
    print('refused', type(e).__name__)`, pyQuote(bashrc))})
	if !strings.Contains(r.Text(), "a new kernel") || strings.Contains(r.Text(), "new kernel wrote") {
		t.Logf("ESCAPED: after narrowing, the kernel was not replaced by one confined to less")
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	b1, _ := os.ReadFile(bashrc)
	time.Sleep(time.Second)
	b2, _ := os.ReadFile(bashrc)
	if len(b2) > len(b1) {
		t.Logf("ESCAPED: the replaced kernel's thread still writes ~/.bashrc")
		t.Fatal("old kernel alive")
	}
}

// Attack: with exec out of the auto set, a cell the user approves under
// the auto set [read] gets a kernel confined to read and exec: it writes
// nothing in the workspace, reaches no network (a server on the host's
// loopback), and its functions' writes and bash() writes are refused.
func TestIPythonAttack_ApprovedCellGetsOnlyAutoWithExec(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_, _ = c.Write([]byte("HOST-LOOPBACK-REACHED\n"))
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	var asked []gate.Question
	var mu sync.Mutex
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil, withAuto(autoOf(gate.Read)),
		func(_ context.Context, q gate.Question) gate.Answer {
			mu.Lock()
			defer mu.Unlock()
			asked = append(asked, q)
			if q.Effects == gate.Of(gate.Exec) && strings.HasSuffix(q.ID, ":cell") {
				return gate.Approve
			}
			return gate.Deny
		})
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import os, socket, subprocess
res = {}
def tryit(name, f):
    try:
        res[name] = repr(f())
    except BaseException as e:
        res[name] = 'ERR ' + type(e).__name__
tryit('open', lambda: open('made.txt', 'w').write('x'))
tryit('sub', lambda: subprocess.run(['touch', 'made2.txt']).returncode)
def conn():
    s = socket.create_connection(('127.0.0.1', %d), timeout=2)
    return s.recv(100)
tryit('net', conn)
tryit('fn_write', lambda: write('made3.txt', 'x'))
tryit('fn_bash', lambda: bash('touch made4.txt'))
for k, v in res.items():
    print(k, '=>', v)
`, port)})
	var bad []string
	for _, f := range []string{"made.txt", "made2.txt", "made3.txt", "made4.txt"} {
		if rtExists(filepath.Join(w.dir, f)) {
			bad = append(bad, f)
		}
	}
	if strings.Contains(r.Text(), "HOST-LOOPBACK-REACHED") {
		bad = append(bad, "net")
	}
	if len(bad) > 0 {
		t.Logf("ESCAPED: a cell approved under auto [read] did more than read+exec: %v", bad)
		t.Fatalf("%v\n%s", bad, r.Text())
	}
	if !strings.Contains(r.Text(), "open =>") {
		t.Fatalf("the probe did not run: %v\n%s", r.Outcome, r.Text())
	}
}

// Attack on "a no runs nothing": a cell denied while an earlier approved
// cell left an input transformer in the kernel — the question shows the
// code, but what would run is other code. A denied cell must not run at
// all (no transformer runs either).
func TestIPythonAttack_DeniedCellRunsNothing(t *testing.T) {
	answer := gate.Approve
	var mu sync.Mutex
	w := rtSession(t, nil, nil, withAuto(autoOf(gate.Read, gate.Write)), func(context.Context, gate.Question) gate.Answer {
		mu.Lock()
		defer mu.Unlock()
		return answer
	})
	r := cell(t, w.s, map[string]any{"code": `def t(lines):
    open('transformed.txt', 'a').write('x')
    return lines
get_ipython().input_transformers_post.append(t)`})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	_ = os.Remove(filepath.Join(w.dir, "transformed.txt"))
	mu.Lock()
	answer = gate.Deny
	mu.Unlock()
	for _, code := range []string{"print(1)", "", "%whos"} {
		r = cell(t, w.s, map[string]any{"code": code})
		if r.Outcome != Refused {
			t.Fatalf("a denied cell %q: %v\n%s", code, r.Outcome, r.Text())
		}
	}
	r = cell(t, w.s, map[string]any{"restart": true})
	if r.Outcome != Refused {
		t.Fatalf("a denied restart: %v\n%s", r.Outcome, r.Text())
	}
	if rtExists(filepath.Join(w.dir, "transformed.txt")) {
		t.Logf("ESCAPED: a denied cell ran code in the kernel")
		t.Fatal("denied cell ran")
	}
}

// Attack on the question: what the user approves is the code shown, but
// an earlier cell installed an input transformer, so the approved cell
// "print('hello')" runs other code. The question must show what runs.
func TestIPythonAttack_QuestionShowsOtherCodeThanRuns(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	w := rtSession(t, nil, nil, withAuto(autoOf(gate.Read, gate.Write)), func(_ context.Context, q gate.Question) gate.Answer {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, q.What)
		return gate.Approve
	})
	r := cell(t, w.s, map[string]any{"code": `def t(lines):
    return ["open('hidden-ran.txt', 'w').write('x')\n"]
get_ipython().input_transformers_post.append(t)`})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	cell(t, w.s, map[string]any{"code": "print('hello')"})
	mu.Lock()
	last := asked[len(asked)-1]
	mu.Unlock()
	if rtExists(filepath.Join(w.dir, "hidden-ran.txt")) && !strings.Contains(last, "hidden-ran") {
		t.Logf("ESCAPED (design): the user approved a cell shown as %q, and the kernel ran other code (an input transformer a previous cell left)", last)
		t.Fatal("the question did not show what ran")
	}
}

// Attack: a kernel that ignores SIGINT and loops must still end at a
// timeout and at a kill, and leave eukhe able to run the next cell.
func TestIPythonAttack_KernelIgnoringSIGINTEnds(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	start := time.Now()
	r := cell(t, w.s, map[string]any{"timeout": 0.5, "code": "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\nwhile True:\n    pass"})
	for r.Outcome == Job {
		r = cell(t, w.s, map[string]any{"job": r.Job})
	}
	if r.Outcome != TimedOut || time.Since(start) > 30*time.Second {
		t.Fatalf("ESCAPED: a kernel ignoring SIGINT: %v after %s\n%s", r.Outcome, time.Since(start), r.Text())
	}
	r = cell(t, w.s, map[string]any{"code": "1 + 1"})
	if !strings.Contains(r.Text(), "2") {
		t.Fatalf("the next cell: %v\n%s", r.Outcome, r.Text())
	}
}

// Attack (hang): the cell forks a child that leaves the kernel's process
// group (setsid) and keeps the driver's channel open. A kill must still
// return: eukhe waits for the channel's end before it counts the kernel
// dead. Under "shell.confinement": "off" (a user setting) there is no PID
// namespace to take the child with the kernel.
func TestIPythonAttack_SetsidChildHangsKill(t *testing.T) {
	for _, mode := range []string{"auto", "off"} {
		t.Run(mode, func(t *testing.T) {
			w := rtSession(t, nil, nil, func(s *settings.Settings) { s.Confinement = mode }, nil)
			w.s.Shell().Budget = 2 * time.Second
			r := cell(t, w.s, map[string]any{"code": `import os, time
pid = os.fork()
if pid == 0:
    os.setsid()
    time.sleep(25)
    os._exit(0)
time.sleep(60)`})
			if r.Outcome != Job {
				t.Fatalf("not a job: %v\n%s", r.Outcome, r.Text())
			}
			done := make(chan Result, 1)
			go func() { done <- cell(t, w.s, map[string]any{"kill": r.Job}) }()
			select {
			case <-done:
			case <-time.After(15 * time.Second):
				t.Logf("ESCAPED (hang): with shell.confinement %q, {\"kill\"} of a cell whose forked child called setsid() did not return in 15 s (the child holds the driver's channel; eukhe waits for its EOF)", mode)
				t.Error("kill hung")
				<-done // the child ends at 25 s
			}
		})
	}
}

// Attack (hang): the kernel functions run in eukhe; a FIFO, /dev/zero or
// a character device behind a workspace link must not block them for
// ever (the cell cannot interrupt a call eukhe is serving).
func TestIPythonAttack_KernelFunctionOnFIFODoesNotHang(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil, nil, nil)
	w.s.Shell().Budget = 40 * time.Second
	done := make(chan Result, 1)
	go func() {
		raw, _ := json.Marshal(map[string]any{"timeout": 5, "code": `import os
os.mkfifo('p')
os.symlink('/dev/zero', 'z')
os.symlink('/dev/urandom', 'u')
for f in (lambda: read('p'), lambda: read('z'), lambda: read('u'), lambda: grep('x', path='p'), lambda: grep('x', path='z'),
          lambda: write('p', 'x')):
    try:
        print(str(f())[:80])
    except Exception as e:
        print('err', type(e).__name__)
print('all returned')`})
		r, _ := w.s.Call(context.Background(), "ipython", raw)
		done <- r
	}()
	var r Result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Logf("ESCAPED (hang): a kernel function on a FIFO or device did not return, and the cell's timeout did not end the call")
		t.Fatal("hang")
	}
	if !strings.Contains(r.Text(), "all returned") {
		t.Logf("note: kernel functions on a FIFO/device did not all return within the cell's 5 s timeout: %s", r.Text())
	} else {
		t.Logf("held:\n%s", r.Text())
	}
	// eukhe itself still serves the session
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	rr, err := w.s.Call(ctx, "read", json.RawMessage(`{"path":"a.txt"}`))
	if err != nil || rr.Failed() || ctx.Err() != nil {
		t.Logf("ESCAPED (hang): after a kernel function blocked on a FIFO, the session's read tool does not answer")
		t.Fatalf("read after FIFO: %v %v", err, rr.Text())
	}
}

// Attack (secret, default settings): eukhe's user settings file is a
// protected place, and the default auto set holds protected, so a cell
// may write it unasked. The cell rewrites it (confinement off, or a
// writable dir over a secret store); the settings watch takes it, the
// next cell gets a new kernel confined by the new settings, and reads
// ~/.ssh/id_rsa without any question. A step must never be able to lift
// its own confinement (nor the next one's) without the user's yes.
func TestIPythonAttack_CellRewritesSettingsThenReadsSecret(t *testing.T) {
	for _, c := range []struct {
		name, set string
		bash      bool // the second step is a bash() of the same cell
	}{
		{"confinement-off", `{"shell.confinement": "off"}`, false},
		{"confinement-off-bash-same-cell", `{"shell.confinement": "off"}`, true},
		{"writable-ssh", `{"shell.writableDirs": ["~/.ssh"]}`, false},
	} {
		t.Run(c.name, func(t *testing.T) { rtSettingsChain(t, c.set, c.bash) })
	}
}

func rtSettingsChain(t *testing.T, set string, sameCell bool) {
	py := testkit.IPython(t)
	dir := t.TempDir()
	home := t.TempDir()
	key := filepath.Join(home, ".ssh", "id_rsa")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte(secretMark+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	paths := settings.Locate(env, []string{dir})
	if err := os.MkdirAll(paths.UserDir, 0o755); err != nil {
		t.Fatal(err)
	}
	// the user's file names the kernel's Python and nothing else: the
	// default auto set, confinement "auto"
	if err := os.WriteFile(paths.UserFile, []byte(`{"ipython.python": `+pyQuote(py)+`}`), 0o644); err != nil {
		t.Fatal(err)
	}
	watch, err := settings.Watch(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watch.Close() })
	if watch.Current().IPythonPython != py {
		t.Fatalf("the settings file was not read: %+v", watch.Current())
	}
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS), Current: watch.Current}
	s, err := Open(Options{Host: host, Env: env, ShellBudget: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	var extra map[string]any
	if err := json.Unmarshal([]byte(set), &extra); err != nil {
		t.Fatal(err)
	}
	extra["ipython.python"] = py
	newSet, _ := json.Marshal(extra)
	second := ""
	if sameCell {
		// the key's path never appears in the script's words
		second = fmt.Sprintf(`
import time, base64
time.sleep(1.5)
p = base64.b64encode(%s.encode()).decode()
print(bash("python3 -c \"import base64; print(open(base64.b64decode('" + p + "').decode()).read())\""))`, pyQuote(key))
	}
	r := cell(t, s, map[string]any{"code": fmt.Sprintf(`try:
    print(open(%s).read())
except Exception as e:
    print('confined:', type(e).__name__)
with open(%s, 'w') as f:
    f.write(%s)
print('rewrote')%s`, pyQuote(key), pyQuote(paths.UserFile), pyQuote(string(newSet)), second)})
	if sameCell {
		if strings.Contains(r.Text(), secretMark) {
			t.Logf("ESCAPED: under the default settings, a cell wrote eukhe's user settings (%s; protected, in the default auto set), and a bash() of the same cell then ran unconfined and read ~/.ssh/id_rsa with no question asked", set)
			t.Fatalf("cell:\n%s", r.Text())
		}
		t.Logf("held:\n%s", r.Text())
		return
	}
	if strings.Contains(r.Text(), secretMark) {
		t.Fatalf("ESCAPED: the first kernel read the key:\n%s", r.Text())
	}
	time.Sleep(time.Second) // the settings watch
	r2 := cell(t, s, map[string]any{"code": fmt.Sprintf(`try:
    print(open(%s).read())
except Exception as e:
    print('confined:', type(e).__name__)`, pyQuote(key))})
	if strings.Contains(r2.Text(), secretMark) {
		t.Logf("ESCAPED: under the default settings, cell 1 wrote eukhe's user settings (%s; protected, in the default auto set), and cell 2's new kernel read ~/.ssh/id_rsa with no question asked", set)
		t.Fatalf("cell 1:\n%s\ncell 2:\n%s", r.Text(), r2.Text())
	}
	t.Logf("held: settings now %+v\ncell 1:\n%s\ncell 2:\n%s", watch.Current(), r.Text(), r2.Text())
}

// Attack (policy gap, not the ipython tool's alone): credential stores
// the policy does not name as secret — the coding agents' own tokens
// (Claude Code's ~/.claude/.credentials.json, Codex's ~/.codex/auth.json,
// Gemini CLI's ~/.gemini/oauth_creds.json, Copilot's
// ~/.config/github-copilot/apps.json) and the browsers' saved logins —
// are readable from a cell under the default settings.
func TestIPythonAttack_AgentCredentialStoresReadable(t *testing.T) {
	stores := []string{
		".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
		".config/github-copilot/apps.json", ".config/github-copilot/hosts.json",
		".mozilla/firefox/p.default-release/logins.json", ".config/google-chrome/Default/Login Data",
		".config/chromium/Default/Login Data",
	}
	files := map[string]string{}
	for _, p := range stores {
		files["~/"+p] = secretMark + " " + p + "\n"
	}
	w := rtSession(t, files, nil, nil, nil)
	var paths []string
	for _, p := range stores {
		paths = append(paths, filepath.Join(w.home, p))
	}
	list, _ := json.Marshal(paths)
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`for p in %s:
    try:
        print('READ', open(p).read().strip())
    except Exception as e:
        print('hidden', type(e).__name__)
    try:
        print('FN', str(read(p)).split('\n')[1])
    except Exception as e:
        print('fn refused', getattr(e, 'kind', type(e).__name__))`, list)})
	var readable []string
	for _, l := range strings.Split(r.Text(), "\n") {
		if strings.Contains(l, secretMark) {
			readable = append(readable, l)
		}
	}
	if len(readable) > 0 {
		t.Logf("ESCAPED (policy gap): credential stores not in the policy's secrets are readable from a cell with no question: %v", readable)
		t.Fatalf("%d readable", len(readable))
	}
}

// Attack on the question: characters that print as nothing (Hangul
// fillers, which Python takes in identifiers; the braille blank; a zero
// width space; a line separator; an ANSI erase) must reach the user
// escaped, so the code shown is the code that runs.
func TestIPythonAttack_QuestionShowsInvisibleCharacters(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	w := rtSession(t, nil, nil, withAuto(autoOf(gate.Read, gate.Write)), func(_ context.Context, q gate.Question) gate.Answer {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, q.What)
		return gate.Deny
	})
	for _, ch := range []string{"\u3164", "\u115f", "\u2800", "\u200b", "\u2028", "\x1b", "\r", "\u00ad", "\ufeff", "\U000e0041", "\u2066", "\u034f", "\u180e"} {
		code := "import os\n" + ch + " = 'rm -rf x'\nos.system(" + ch + ")\n"
		cell(t, w.s, map[string]any{"code": code})
		mu.Lock()
		last := asked[len(asked)-1]
		mu.Unlock()
		if strings.Contains(last, ch) {
			t.Logf("ESCAPED: the cell's question shows %U raw (it prints as nothing): the user sees %q", []rune(ch)[0], last)
			t.Errorf("%U not escaped", []rune(ch)[0])
		}
	}
}

// Attack on truthfulness of {"kill"}: the driver raises SIGINT from its
// reader thread (signal.raise_signal), which does not wake the main
// thread out of a blocking call; a cell in time.sleep() is never
// interrupted, so every kill of a waiting cell kills the kernel and its
// variables, though the docs say a kill interrupts it (KeyboardInterrupt)
// and the kernel stays.
func TestIPythonAttack_InterruptDoesNotReachBlockedCell(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	w.s.Shell().Budget = 500 * time.Millisecond
	cell(t, w.s, map[string]any{"code": "kept = 7"})
	r := cell(t, w.s, map[string]any{"code": "import time\ntime.sleep(60)"})
	if r.Outcome != Job {
		t.Fatalf("not a job: %v\n%s", r.Outcome, r.Text())
	}
	r = cell(t, w.s, map[string]any{"kill": r.Job})
	r2 := cell(t, w.s, map[string]any{"code": "kept"})
	if strings.Contains(r.Text(), "did not stop at the interrupt") || !strings.Contains(r2.Text(), ": 7") {
		t.Logf("ESCAPED (truthfulness): a kill of a cell blocked in time.sleep() never interrupts it: the driver's SIGINT is raised on its reader thread, the main thread sleeps on, and the kernel is killed with its variables:\n%s", r.Text())
		t.Fatalf("kill:\n%s\nnext:\n%s", r.Text(), r2.Text())
	}
}

// Attack: ~/.bashrc is a hard link whose other name lies outside the home
// and the workspace (a dotfiles checkout elsewhere); with outside in the
// auto set and protected not, a cell appends to the other name.
func TestIPythonAttack_HardLinkedDotfileOtherName(t *testing.T) {
	other := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(other, []byte("# mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil,
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside)), nil)
	if err := os.Link(other, filepath.Join(w.home, ".bashrc")); err != nil {
		t.Skip("no hard links here:", err)
	}
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`try:
    with open(%s, 'a') as f:
        f.write('echo PLANTED\n')
    print('appended')
except Exception as e:
    print('refused', type(e).__name__)`, pyQuote(other))})
	if b, _ := os.ReadFile(filepath.Join(w.home, ".bashrc")); strings.Contains(string(b), "PLANTED") {
		t.Logf("ESCAPED: a cell planted ~/.bashrc through its hard link's other name without protected:\n%s", r.Text())
		t.Fatal("planted through a hard link")
	}
	t.Logf("held:\n%s", r.Text())
}

// Attack: with a relative entry on PATH ("bin") and protected out of the
// auto set, a thread the cell leaves running makes bin/git in the
// workspace after its cell ended: the user's next git in the workspace
// runs it.
func TestIPythonAttack_RelativePathProgramMadeBetweenCells(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, map[string]string{"PATH": "bin:" + os.Getenv("PATH")},
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net)), nil)
	r := cell(t, w.s, map[string]any{"code": `import threading, time, os
def late():
    time.sleep(1.0)
    os.makedirs('bin', exist_ok=True)
    with open('bin/git', 'w') as f:
        f.write('#!/bin/sh\necho PLANTED\n')
    os.chmod('bin/git', 0o755)
threading.Thread(target=late, daemon=True).start()
'started'`})
	if r.Failed() {
		t.Logf("held at the start: %v\n%s", r.Outcome, r.Text())
		return
	}
	time.Sleep(2 * time.Second)
	if rtExists(filepath.Join(w.dir, "bin", "git")) {
		t.Logf("ESCAPED: a thread of an ended cell made bin/git (a relative PATH directory, named like a command) between cells, protected not in the auto set; it stands until the next cell ends:\n%s", r.Text())
		t.Fatal("planted between cells")
	}
}

// The same chain through the bash tool alone (no ipython): whether the
// settings rewrite is the ipython tool's or the gate's. A failure here
// says the hole predates the ipython tool.
func TestIPythonAttack_BashToolRewritesSettingsThenReadsSecret(t *testing.T) {
	py := testkit.IPython(t)
	dir := t.TempDir()
	home := t.TempDir()
	key := filepath.Join(home, ".ssh", "id_rsa")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte(secretMark+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	paths := settings.Locate(env, []string{dir})
	if err := os.MkdirAll(paths.UserDir, 0o755); err != nil {
		t.Fatal(err)
	}
	watch, err := settings.Watch(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watch.Close() })
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: paths.Places(env).Policy(gate.OS), Current: watch.Current}
	s, err := Open(Options{Host: host, Env: env, ShellBudget: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	bash := func(script string) Result {
		raw, _ := json.Marshal(map[string]any{"script": script})
		r, err := s.Call(context.Background(), "bash", raw)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	r1 := bash(fmt.Sprintf(`printf '%%s' '{"shell.confinement": "off"}' > %s`, paths.UserFile))
	time.Sleep(time.Second)
	p := strings.NewReplacer("/", "'+'/'+'").Replace(key) // the path is never one word
	r2 := bash(fmt.Sprintf(`%s -c "print(open('%s').read())"`, py, p))
	if strings.Contains(r2.Text(), secretMark) {
		t.Logf("ESCAPED (predates ipython): under the default settings, a bash step wrote eukhe's user settings (confinement off) unasked, and the next step read ~/.ssh/id_rsa unconfined with no question")
		t.Fatalf("step 1:\n%s\nstep 2:\n%s", r1.Text(), r2.Text())
	}
	t.Logf("held:\n%s\n%s", r1.Text(), r2.Text())
}

// Attack on truthfulness and on the user's yes: protected out of the auto
// set, a kernel alive, the user approves a bash step `git init` (a
// protected step, asked and allowed). The kernel's live watch, active for
// the kernel's whole life, renames the approved step's new .git out of
// use, though the step reports success.
func TestIPythonAttack_ApprovedGitInitRenamedByKernelWatch(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		testkit.Missing(t, "no git on PATH: apt-get install git")
	}
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, nil,
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside)),
		func(context.Context, gate.Question) gate.Answer { return gate.Approve })
	if r := cell(t, w.s, map[string]any{"code": "1"}); r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	raw, _ := json.Marshal(map[string]any{"script": "git init -q ."})
	r, err := w.s.Call(context.Background(), "bash", raw)
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if !rtExists(filepath.Join(w.dir, ".git", "HEAD")) {
		ents, _ := os.ReadDir(w.dir)
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Logf("ESCAPED (destructive): an approved `git init` (protected, the user said yes) ran while a kernel lived; its .git was renamed out of use by the kernel's live watch (workspace: %v); the step said:\n%s", names, r.Text())
		t.Fatal("approved .git renamed")
	}
}

// Attack: the auto set is narrowed while a cell job runs in the kernel
// (a job writing ~/.bashrc, allowed protected when it started). The job
// goes on in the wider confinement; every new cell is refused while it
// runs, so nothing replaces the kernel until the job is killed.
func TestIPythonAttack_NarrowedSettingsDuringJob(t *testing.T) {
	w := rtSession(t, map[string]string{"~/.bashrc": "# mine\n"}, nil, nil, nil)
	w.s.Shell().Budget = 500 * time.Millisecond
	bashrc := filepath.Join(w.home, ".bashrc")
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import time
for i in range(100):
    time.sleep(0.05)
    with open(%s, 'a') as f:
        f.write('echo PLANTED %%d\n' %% i)`, pyQuote(bashrc))})
	if r.Outcome != Job {
		t.Fatalf("not a job: %v\n%s", r.Outcome, r.Text())
	}
	w.change(func(s *settings.Settings) { s.AutoEffects = gate.AutoOf(gate.Of(gate.Read, gate.Write, gate.Exec)) })
	// the fix: the running cell is stopped within a moment of the change
	// (shell.narrowCheck, then the interrupt)
	time.Sleep(600 * time.Millisecond)
	b1, _ := os.ReadFile(bashrc)
	time.Sleep(time.Second)
	b2, _ := os.ReadFile(bashrc)
	cell(t, w.s, map[string]any{"kill": r.Job})
	if len(b2) > len(b1) {
		t.Logf("ESCAPED: after protected was taken out of the auto set, a running cell job kept writing ~/.bashrc in the old kernel's wider confinement (%d → %d bytes in 1 s)", len(b1), len(b2))
		t.Fatal("job kept the wider confinement")
	}
}

// The same through IPython's other ways to run code before a cell: an
// event hook and an AST transformer an earlier cell left.
func TestIPythonAttack_QuestionShowsOtherCodeThanRunsByHooks(t *testing.T) {
	for name, install := range map[string]string{
		"event": `def hook(*a):
    open('hidden-ran.txt', 'w').write('x')
get_ipython().events.register('pre_run_cell', hook)`,
		"ast": `import ast
class T(ast.NodeTransformer):
    def visit_Module(self, node):
        node.body = ast.parse("open('hidden-ran.txt', 'w').write('x')").body
        return node
get_ipython().ast_transformers.append(T())`,
	} {
		t.Run(name, func(t *testing.T) {
			w := rtSession(t, nil, nil, withAuto(autoOf(gate.Read, gate.Write)), func(context.Context, gate.Question) gate.Answer { return gate.Approve })
			if r := cell(t, w.s, map[string]any{"code": install}); r.Failed() {
				t.Fatalf("%v\n%s", r.Outcome, r.Text())
			}
			_ = os.Remove(filepath.Join(w.dir, "hidden-ran.txt"))
			cell(t, w.s, map[string]any{"code": "print('hello')"})
			if rtExists(filepath.Join(w.dir, "hidden-ran.txt")) {
				t.Logf("ESCAPED: an approved print('hello') ran code an earlier cell's %s left", name)
				t.Fatal("the question did not show what ran")
			}
		})
	}
}
