//go:build linux

package agent

// The twelfth red team's attacks on this stop's changes, through the real
// ipython tool: eukhe's user settings file and the agents' and browsers'
// stores made secret, the blank letters escaped in a question, and the
// kernel frozen between cells (every process of its tree and session
// stopped, found through /proc). Each test asserts the safe outcome;
// these held. The attacks that got through are in
// redteam12_open12_test.go (build tag open_attacks).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
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

// r12watched is a session whose settings come from a real user settings
// file and its watch (as eukhe mcp has them), with ~/.ssh/id_rsa holding
// secretMark. It gives the session, the home, the workspace and the
// settings' places.
func r12watched(t *testing.T) (*Session, string, string, settings.Paths, *settings.Watcher) {
	t.Helper()
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
	if err := os.WriteFile(paths.UserFile, []byte(`{"ipython.python": `+pyQuote(py)+`}`), 0o644); err != nil {
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
	return s, home, dir, paths, watch
}

// r12readKey is a cell that tries to read ~/.ssh/id_rsa with the cell's
// own Python (confined) and prints what it got.
func r12readKey(home string) string {
	return fmt.Sprintf(`try:
    print(open(%s).read())
except Exception as e:
    print('confined:', type(e).__name__)`, pyQuote(filepath.Join(home, ".ssh", "id_rsa")))
}

// Attack (settings file, from the cell's Python): the cell reads eukhe's
// user settings file, writes it (confinement off), appends to it, and
// replaces it by a rename of a file it made; the kernel function write()
// and bash() try the same. The next cell must still be confined.
// Class: writing eukhe's settings by another route.
func TestRedTeam12_CellWritesSettingsFileEveryWay(t *testing.T) {
	s, home, _, paths, watch := r12watched(t)
	py := watch.Current().IPythonPython
	evil := `{"shell.confinement": "off", "ipython.python": ` + pyQuote(py) + `}`
	f := pyQuote(paths.UserFile)
	r := cell(t, s, map[string]any{"code": fmt.Sprintf(`import os
F = %s
E = %s
def tryit(name, fn):
    try:
        fn(); print(name, 'ran')
    except BaseException as e:
        print(name, 'refused', type(e).__name__, getattr(e, 'kind', ''))
tryit('read', lambda: print('SETTINGS', open(F).read()))
tryit('write', lambda: open(F, 'w').write(E))
tryit('append', lambda: open(F, 'a').write(' '))
def ren():
    open('evil.json', 'w').write(E)
    os.rename('evil.json', F)
tryit('rename', ren)
def rep():
    open('evil2.json', 'w').write(E)
    os.replace('evil2.json', F)
tryit('replace', rep)
tryit('fn_write', lambda: write(F, E))
tryit('fn_bash_cp', lambda: bash('cp evil2.json ' + F))
tryit('fn_bash_tee', lambda: bash('tee ' + F + ' < evil2.json'))
`, f, pyQuote(evil))})
	time.Sleep(1500 * time.Millisecond) // the settings watch
	r2 := cell(t, s, map[string]any{"code": r12readKey(home)})
	b, _ := os.ReadFile(paths.UserFile)
	if strings.Contains(r2.Text(), secretMark) || strings.Contains(string(b), "off") || watch.Current().Confinement == "off" {
		t.Logf("ESCAPED: the settings file now %q, confinement %q", b, watch.Current().Confinement)
		t.Fatalf("cell 1:\n%s\ncell 2:\n%s", r.Text(), r2.Text())
	}
	t.Logf("held:\n%s\n%s", r.Text(), r2.Text())
}

// Attack (the agents' and browsers' stores, from the cell's Python): the
// cell copies each store with shutil (copytree of ~/.config, of the whole
// ~/.mozilla), tars the home, and reads the stores through /proc/self/root
// and a workspace symlink to the home. None of it may show a token.
// Class: a copy made by a tool; another name of the file.
func TestRedTeam12_CellCopiesStoresWholesale(t *testing.T) {
	stores := []string{".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
		".config/github-copilot/apps.json", ".mozilla/firefox/p.default/logins.json",
		".config/google-chrome/Default/Login Data", ".config/BraveSoftware/Brave-Browser/Default/Login Data"}
	files := map[string]string{}
	for _, p := range stores {
		files["~/"+p] = secretMark + " " + p + "\n"
	}
	w := rtSession(t, files, nil, nil, nil)
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import os, shutil, tarfile, subprocess
H = %s
def tryit(name, fn):
    try:
        fn(); print(name, 'ran')
    except BaseException as e:
        print(name, 'failed', type(e).__name__)
tryit('copytree_config', lambda: shutil.copytree(H + '/.config', 'cfgcopy', symlinks=False))
tryit('copytree_mozilla', lambda: shutil.copytree(H + '/.mozilla', 'mozcopy'))
tryit('copy_claude', lambda: shutil.copy(H + '/.claude/.credentials.json', 'cc.json'))
def tar():
    with tarfile.open('home.tar', 'w') as t:
        t.add(H, arcname='h')
tryit('tar', tar)
tryit('cp_a', lambda: subprocess.run(['cp', '-a', H, 'homecopy'], capture_output=True))
os.symlink(H, 'hl')
for p in %s:
    for pre in (H + '/', '/proc/self/root' + H + '/', 'hl/'):
        try:
            print('READ', open(pre + p).read().strip())
        except Exception as e:
            pass
for root, dirs, fs in os.walk('.'):
    for f in fs:
        try:
            b = open(os.path.join(root, f), 'rb').read()
        except Exception:
            continue
        if b'SSHKEY' in b:
            print('COPIED', os.path.join(root, f))
`, pyQuote(w.home), mustJSON(stores))})
	text := r.Text()
	// the tar holds the stores' bytes if they were readable
	if b, err := os.ReadFile(filepath.Join(w.dir, "home.tar")); err == nil && bytes.Contains(b, []byte(secretMark)) {
		text += "\n[home.tar holds a token]"
	}
	if strings.Contains(text, secretMark) || strings.Contains(text, "COPIED") || strings.Contains(text, "holds a token") {
		t.Logf("ESCAPED: a store's token reached the workspace or the cell")
		t.Fatalf("%s", text)
	}
	t.Logf("held:\n%s", text)
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// r12daemonCode is a cell that starts a process writing a line to ticks
// every 50 ms until deadline (unix seconds): forked from the kernel, with
// setsid() and a second fork as asked, its standard streams on /dev/null.
func r12daemonCode(ticks string, deadline int64, setsid, fork2 bool) string {
	return fmt.Sprintf(`import os, time
def start():
    pid = os.fork()
    if pid:
        os.waitpid(pid, 0)
        return
    try:
        if %s:
            os.setsid()
        if %s and os.fork():
            os._exit(0)
        fd = os.open('/dev/null', os.O_RDWR)
        for i in (0, 1, 2):
            os.dup2(fd, i)
        while time.time() < %d:
            with open(%s, 'a') as f:
                f.write('t\n')
            time.sleep(0.05)
    finally:
        os._exit(0)
start()
time.sleep(0.3)
'started'`, pyBool(setsid), pyBool(fork2), deadline, pyQuote(ticks))
}

func pyBool(b bool) string {
	if b {
		return "True"
	}
	return "False"
}

// r12ticks counts the lines of the ticks file.
func r12ticks(p string) int {
	b, _ := os.ReadFile(p)
	return bytes.Count(b, []byte("\n"))
}

// r12runsBetweenCells starts the daemon of r12daemonCode in a cell and
// reports how many ticks it wrote in 1.5 s while no cell ran.
func r12runsBetweenCells(t *testing.T, w *rtWorld, setsid, fork2 bool) (int, string) {
	t.Helper()
	ticks := filepath.Join(w.dir, "ticks")
	r := cell(t, w.s, map[string]any{"code": r12daemonCode(ticks, time.Now().Add(8*time.Second).Unix(), setsid, fork2)})
	if r.Failed() || !strings.Contains(r.Text(), "started") {
		t.Fatalf("the cell: %v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(200 * time.Millisecond)
	n1 := r12ticks(ticks)
	if n1 == 0 {
		t.Fatalf("the daemon wrote nothing during its cell (the probe did not run):\n%s", r.Text())
	}
	time.Sleep(1500 * time.Millisecond)
	n2 := r12ticks(ticks)
	return n2 - n1, r.Text()
}

// Attack (the freeze, a process escaping the tree), under bubblewrap: a
// child that calls setsid() and forks again (a daemon): its parent is
// gone and its session is its own, but the sandbox's PID namespace keeps
// it below the kernel, so the freeze finds it.
func TestRedTeam12_DaemonUnderBubblewrapIsFrozen(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "bubblewrap")
	w := rtSession(t, nil, nil, nil, nil)
	if n, text := r12runsBetweenCells(t, w, true, true); n > 1 {
		t.Logf("ESCAPED: a daemon of the cell wrote %d lines in 1.5 s while no cell ran", n)
		t.Fatalf("%s", text)
	}
}

// Attack (the freeze), under Landlock: a child that only calls setsid()
// stays the kernel's child (the tree finds it); a child that only forks
// twice keeps the kernel's session (the session finds it).
func TestRedTeam12_SetsidOrDoubleForkAloneIsFrozenUnderLandlock(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "landlock")
	for _, c := range []struct {
		name          string
		setsid, fork2 bool
	}{{"setsid", true, false}, {"double-fork", false, true}} {
		t.Run(c.name, func(t *testing.T) {
			w := rtSession(t, nil, nil, nil, nil)
			if n, text := r12runsBetweenCells(t, w, c.setsid, c.fork2); n > 1 {
				t.Logf("ESCAPED: a %s child of the cell wrote %d lines in 1.5 s while no cell ran", c.name, n)
				t.Fatalf("%s", text)
			}
		})
	}
}

// Attack (the freeze, threads): a cell leaves a thread that makes a new
// process every 20 ms (subprocess of a short sleep), so processes appear
// while the freeze walks /proc. A thread is stopped with its process, and
// the children it made are the kernel's; nothing writes between cells.
func TestRedTeam12_ThreadSpawningWhileFreezeWalksIsFrozen(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	ticks := filepath.Join(w.dir, "ticks")
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import threading, subprocess, time
def spawn():
    end = time.time() + 8
    while time.time() < end:
        subprocess.Popen(['sh', '-c', 'echo t >> %s; sleep 0.2'])
        time.sleep(0.02)
threading.Thread(target=spawn, daemon=True).start()
time.sleep(0.2)
'started'`, ticks)})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(300 * time.Millisecond)
	n1 := r12ticks(ticks)
	time.Sleep(1500 * time.Millisecond)
	if n := r12ticks(ticks) - n1; n > 1 {
		t.Logf("ESCAPED: processes of a thread the cell left wrote %d lines in 1.5 s while no cell ran", n)
		t.Fatalf("%s", r.Text())
	}
}

// Attack (the question, the letters this stop escapes, end to end): a
// cell that names its command with U+3164 (a letter to Python) beside a
// harmless one is asked about with the letter escaped, whichever of the
// listed blanks it uses.
func TestRedTeam12_CellQuestionEscapesListedBlanks(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	w := rtSession(t, nil, nil, withAuto(autoOf(gate.Read, gate.Write)), func(_ context.Context, q gate.Question) gate.Answer {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, q.What)
		return gate.Deny
	})
	for _, ch := range []string{"\u3164", "\uffa0", "cmd\u034f", "cmd\u17b4", "cmd\ufe0f", "cmd\U000e0100"} {
		code := "import os\ncmd = 'echo safe'\n" + ch + " = 'touch pwned'\nos.system(" + ch + ")\n"
		cell(t, w.s, map[string]any{"code": code})
		mu.Lock()
		last := asked[len(asked)-1]
		mu.Unlock()
		if strings.Contains(last, ch) {
			t.Errorf("the question shows %+q raw: %q", ch, last)
		}
	}
}

// Attack (the freeze, a process escaping the tree and the session), under
// Landlock (no PID namespace): a child that calls setsid() and forks
// again leaves the kernel's session and loses its parent. Held: the
// Landlock re-run that starts the kernel's Python stays its parent and
// adopts orphans (a subreaper), so the daemon is still below the kernel's
// process and is frozen.
func TestRedTeam12_DaemonIsFrozenUnderLandlock(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "landlock")
	w := rtSession(t, nil, nil, nil, nil)
	if n, text := r12runsBetweenCells(t, w, true, true); n > 1 {
		t.Logf("ESCAPED: under Landlock a setsid()+double-fork daemon of the cell wrote %d lines in 1.5 s while no cell ran", n)
		t.Fatalf("%s", text)
	}
}

// Attack (the freeze, a program planted between cells), under Landlock:
// protected out of the auto set and a relative PATH entry (bin), the
// daemon makes bin/git after its cell ended and the live watch of
// protected entries stopped (it runs only during a cell now), so the next
// cell's watch would take bin/git as it finds it. Held: the daemon is
// frozen before it gets there.
func TestRedTeam12_DaemonPlantsNothingBetweenCellsUnderLandlock(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "landlock")
	w := rtSession(t, map[string]string{"a.txt": "x\n"}, map[string]string{"PATH": "bin:" + os.Getenv("PATH")},
		withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net)), nil)
	r := cell(t, w.s, map[string]any{"code": `import os, time
pid = os.fork()
if pid == 0:
    try:
        os.setsid()
        if os.fork():
            os._exit(0)
        fd = os.open('/dev/null', os.O_RDWR)
        for i in (0, 1, 2):
            os.dup2(fd, i)
        time.sleep(1.5)
        os.makedirs('bin', exist_ok=True)
        with open('bin/git', 'w') as f:
            f.write('#!/bin/sh\necho PLANTED\n')
        os.chmod('bin/git', 0o755)
    finally:
        os._exit(0)
os.waitpid(pid, 0)
'started'`})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(2500 * time.Millisecond)
	r2 := cell(t, w.s, map[string]any{"code": "1"})
	if rtExists(filepath.Join(w.dir, "bin", "git")) {
		t.Logf("ESCAPED: a daemon of an ended cell made bin/git (a relative PATH directory, named like a command; protected not in the auto set) between cells, and the next cell left it:\n%s\n%s", r.Text(), r2.Text())
		t.Fatal("planted between cells")
	}
}

// Attack (killKernel), under Landlock: a restart and the session's end
// kill the kernel with its tree and session; a daemon that went on
// writing would outlive the kill. Held: it is in the tree (the re-run
// adopted it).
func TestRedTeam12_DaemonDiesWithKernelUnderLandlock(t *testing.T) {
	t.Setenv("EUKHE_CONFINEMENT", "landlock")
	w := rtSession(t, nil, nil, nil, nil)
	ticks := filepath.Join(w.dir, "ticks")
	r := cell(t, w.s, map[string]any{"code": r12daemonCode(ticks, time.Now().Add(6*time.Second).Unix(), true, true)})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	cell(t, w.s, map[string]any{"code": "1", "restart": true})
	w.s.Close()
	time.Sleep(300 * time.Millisecond)
	n1 := r12ticks(ticks)
	if n1 == 0 {
		t.Fatal("the daemon wrote nothing (the probe did not run)")
	}
	time.Sleep(1500 * time.Millisecond)
	if n := r12ticks(ticks) - n1; n > 1 {
		t.Logf("ESCAPED: under Landlock a setsid()+double-fork daemon wrote %d lines in 1.5 s after a restart and the session's end killed its kernel", n)
		t.Fatal("outlived the kill")
	}
}

// Attack (the freeze, a process started while it walks): a chain of
// short-lived processes, each of which writes a line, starts the next and
// exits. Under bubblewrap the PID namespace keeps each below the kernel;
// the freeze lists /proc, then stops what it listed, so a link that
// exits in between could leave its child unlisted and the freeze could
// end while it runs. Held here: the chain is stopped.
func TestRedTeam12_ForkExitChainIsFrozen(t *testing.T) {
	w := rtSession(t, nil, nil, nil, nil)
	ticks := filepath.Join(w.dir, "ticks")
	chain := filepath.Join(w.dir, "chain.sh")
	// each link: a shell builtin test, an echo, the next link in the
	// background; it ends at 20000 links, or when the workspace is gone
	script := fmt.Sprintf("[ \"$1\" -lt 20000 ] && [ -e %s ] || exit 0\necho t >> %s\nsh %s $(($1+1)) </dev/null >/dev/null 2>&1 &\n", chain, ticks, chain)
	if err := os.WriteFile(chain, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	r := cell(t, w.s, map[string]any{"code": fmt.Sprintf(`import subprocess, time
subprocess.Popen(['sh', %s, '0'], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.3)
'started'`, pyQuote(chain))})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(300 * time.Millisecond)
	n1 := r12ticks(ticks)
	if n1 == 0 {
		t.Fatalf("the chain wrote nothing (the probe did not run):\n%s", r.Text())
	}
	time.Sleep(1500 * time.Millisecond)
	n := r12ticks(ticks) - n1
	cell(t, w.s, map[string]any{"code": "1", "restart": true})
	t.Logf("the chain wrote %d lines before the freeze, %d after", n1, n)
	if n > 1 {
		t.Logf("ESCAPED: a fork-and-exit chain the cell started wrote %d lines in 1.5 s while no cell ran (the freeze ended while a link it had not listed ran)", n)
		t.Fatalf("%s", r.Text())
	}
}

// Attack (the freeze, a step outside the kernel's tree): a thread of the
// cell calls the kernel function bash() as the cell ends; the step runs
// in eukhe, not in the kernel, so the freeze does not stop it, and its
// program makes bin/git (a relative PATH directory, protected not in the
// auto set) after the cell ended. Held: the step keeps the bash tool's
// laws (its own sandbox and watch rename what it made), whenever it ends.
func TestRedTeam12_KernelFunctionStepOutlivingItsCellPlantsNothing(t *testing.T) {
	w := rtSession(t, map[string]string{"a.txt": "x\n", "plant.py": `import os, time
time.sleep(1.5)
os.makedirs('bin', exist_ok=True)
with open('bin/git', 'w') as f:
    f.write('#!/bin/sh\necho PLANTED\n')
os.chmod('bin/git', 0o755)
print('made')
`}, map[string]string{"PATH": "bin:" + os.Getenv("PATH")}, withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net)), nil)
	r := cell(t, w.s, map[string]any{"code": `import threading, time
out = []
def late():
    try:
        out.append(str(bash('python3 plant.py')))
    except Exception as e:
        out.append('refused ' + type(e).__name__ + ' ' + str(getattr(e, 'kind', '')))
threading.Thread(target=late, daemon=True).start()
time.sleep(0.3)
'started'`})
	if r.Failed() {
		t.Fatalf("%v\n%s", r.Outcome, r.Text())
	}
	time.Sleep(3 * time.Second)
	planted := rtExists(filepath.Join(w.dir, "bin", "git"))
	r2 := cell(t, w.s, map[string]any{"code": "print(out)"})
	if planted || rtExists(filepath.Join(w.dir, "bin", "git")) {
		t.Logf("ESCAPED: a kernel function's step that outlived its cell made bin/git between cells and it stands:\n%s\n%s", r.Text(), r2.Text())
		t.Fatal("planted between cells")
	}
	t.Logf("held:\n%s\n%s", r.Text(), r2.Text())
}

// r12uring is Python that queues io_uring operations from the cell: a
// ring (SQPOLL when asked: its kernel thread is one the freeze's SIGSTOP
// does not stop), a timeout and, linked after it, path operations.
const r12uring = `import ctypes, mmap, os, struct, sys
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def setup(sqpoll):
    p = ctypes.create_string_buffer(120)
    if sqpoll:
        struct.pack_into('I', p, 8, 2)        # IORING_SETUP_SQPOLL
        struct.pack_into('I', p, 16, 4000)    # sq_thread_idle ms
    fd = libc.syscall(425, 8, p)
    if fd < 0:
        raise OSError(ctypes.get_errno(), 'io_uring_setup')
    sq_entries, = struct.unpack_from('I', p, 0)
    so = struct.unpack_from('IIIIIII', p, 40)   # head tail mask entries flags dropped array
    ring = mmap.mmap(fd, so[6] + sq_entries * 4, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=0)
    sqes = mmap.mmap(fd, sq_entries * 64, mmap.MAP_SHARED, mmap.PROT_READ | mmap.PROT_WRITE, offset=0x10000000)
    return fd, ring, sqes, so, sq_entries
KEEP = []
def chain(ops, sqpoll=True):
    fd, ring, sqes, so, n = setup(sqpoll)
    KEEP.append((fd, ring, sqes))
    tail, = struct.unpack_from('I', ring, so[1])
    for i, (opcode, flags, dfd, off, addr, ln, opf) in enumerate(ops):
        idx = (tail + i) & (n - 1)
        sqes[idx*64:(idx+1)*64] = b'\0' * 64
        struct.pack_into('<BBHiQQII', sqes, idx*64, opcode, flags, 0, dfd, off, addr, ln & 0xffffffff, opf)
        struct.pack_into('Q', sqes, idx*64 + 32, i + 1)
        struct.pack_into('I', ring, so[6] + idx * 4, idx)
    struct.pack_into('I', ring, so[1], tail + len(ops))
    r = libc.syscall(426, fd, len(ops), 0, 2 if sqpoll else 0, None, 0)  # IORING_ENTER_SQ_WAKEUP
    return r
def cstr(s):
    b = ctypes.create_string_buffer(s.encode())
    KEEP.append(b)
    return ctypes.addressof(b)
def later_rename(secs, old, new, mkdir=None, sqpoll=True):
    ts = ctypes.create_string_buffer(struct.pack('qq', int(secs), int((secs % 1) * 1e9)))
    KEEP.append(ts)
    LINK = 4
    ops = [(11, LINK, -1, 0, ctypes.addressof(ts), 1, 32)]   # TIMEOUT, ETIME_SUCCESS
    if mkdir:
        ops.append((37, LINK, -100, 0, cstr(mkdir), 0o755, 0))   # MKDIRAT
    ops.append((35, 0, -100, cstr(new), cstr(old), -100, 0))      # RENAMEAT: off=newpath, addr=oldpath, len=newdirfd
    return chain(ops, sqpoll)
`

// Attack (the freeze, work the kernel does for a stopped process): the
// cell queues on an io_uring a 1.5 s timeout linked to mkdir bin and a
// rename of a file it made to bin/git, then ends; the operations are the
// kernel's (an SQPOLL thread, io-wq workers), which SIGSTOP does not
// stop. With protected out of the auto set and bin a relative PATH entry,
// bin/git would appear between cells, while the live watch does not run.
// Held: the sandbox refuses io_uring_setup (eukhe's seccomp filter:
// EACCES); and outside any sandbox the linked operations go on through
// the stopped task's own work, so they wait for the thaw (with or without
// SQPOLL: tried by hand on this kernel).
func TestRedTeam12_IOUringChainPlantsNothingBetweenCells(t *testing.T) {
	for _, sqpoll := range []bool{true} {
		t.Run(fmt.Sprintf("sqpoll=%v", sqpoll), func(t *testing.T) {
			w := rtSession(t, map[string]string{"a.txt": "x\n"}, map[string]string{"PATH": "bin:" + os.Getenv("PATH")},
				withAuto(autoOf(gate.Read, gate.Write, gate.Exec, gate.Net)), nil)
			r := cell(t, w.s, map[string]any{"code": r12uring + fmt.Sprintf(`
import os
with open('payload', 'w') as f:
    f.write('#!/bin/sh\\necho PLANTED\\n')
os.chmod('payload', 0o755)
print('queued', later_rename(1.5, 'payload', 'bin/git', mkdir='bin', sqpoll=%s))`, pyBool(sqpoll))})
			if strings.Contains(r.Text(), "PermissionError: [Errno 13] io_uring_setup") {
				t.Logf("held: the sandbox refuses io_uring")
				return
			}
			if !strings.Contains(r.Text(), "queued 3") {
				t.Fatalf("the ring was not set up:\n%s", r.Text())
			}
			time.Sleep(2500 * time.Millisecond)
			if rtExists(filepath.Join(w.dir, "bin", "git")) {
				t.Logf("ESCAPED: an io_uring chain the cell queued made bin/git between cells (the kernel was frozen)")
				t.Fatalf("%s", r.Text())
			}
			t.Logf("held:\n%s", r.Text())
		})
	}
}

// Attack (settings file, its directory swapped), from a cell under the
// default settings: the file is secret and hidden, but its directory is
// only protected (in the default auto set). The cell renames
// ~/.config/eukhe away and renames a workspace directory holding its own
// settings.json (confinement off) into its place; the watch reads it and
// the next cell's kernel is unconfined and reads ~/.ssh/id_rsa.
// Class: writing eukhe's settings by another route.
// Held now: the kernel's sandbox pins the directories above the settings file (confine.Places.Pinned).
func TestRedTeam12_CellSwapsSettingsDirectory(t *testing.T) {
	s, home, _, paths, watch := r12watched(t)
	py := watch.Current().IPythonPython
	evil := `{"shell.confinement": "off", "ipython.python": ` + pyQuote(py) + `}`
	r := cell(t, s, map[string]any{"code": fmt.Sprintf(`import os
D = %s
os.makedirs('cfg', exist_ok=True)
open('cfg/settings.json', 'w').write(%s)
try:
    os.rename(D, D + '.old')
    os.rename(os.path.abspath('cfg'), D)
    print('swapped')
except Exception as e:
    print('refused', type(e).__name__, e)
`, pyQuote(paths.UserDir), pyQuote(evil))})
	time.Sleep(2 * time.Second) // the settings watch
	r2 := cell(t, s, map[string]any{"code": r12readKey(home)})
	if strings.Contains(r2.Text(), secretMark) || watch.Current().Confinement == "off" {
		t.Logf("ESCAPED: a cell swapped ~/.config/eukhe for its own directory; confinement now %q", watch.Current().Confinement)
		t.Fatalf("cell 1:\n%s\ncell 2:\n%s", r.Text(), r2.Text())
	}
	t.Logf("held:\n%s\n%s", r.Text(), r2.Text())
}

// Attack (the question, blanks outside gate.blank's list), end to end:
// Python takes U+16FE4 (KHITAN SMALL SCRIPT FILLER, a nonspacing mark
// drawn as nothing) in a name, so `cmd` and `cmd`+U+16FE4 are two
// variables the question shows alike: the user reads os.system(cmd) with
// cmd = 'echo safe' and approves `touch pwned`. Class: a forged question.
// Held now: the Khitan filler is escaped (gate.blank).
func TestRedTeam12_CellQuestionShowsKhitanFillerRaw(t *testing.T) {
	var mu sync.Mutex
	var asked []string
	w := rtSession(t, nil, nil, withAuto(autoOf(gate.Read, gate.Write)), func(_ context.Context, q gate.Question) gate.Answer {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, q.What)
		return gate.Approve
	})
	ch := "\U00016fe4"
	code := "import os\ncmd = 'echo safe'\ncmd" + ch + " = 'touch pwned'\nos.system(cmd" + ch + ")\n"
	cell(t, w.s, map[string]any{"code": code})
	mu.Lock()
	defer mu.Unlock()
	if len(asked) == 0 {
		t.Fatal("no question")
	}
	if strings.Contains(asked[len(asked)-1], ch) {
		ran := rtExists(filepath.Join(w.dir, "pwned"))
		t.Logf("ESCAPED: the question shows U+16FE4 raw (it prints as nothing); approved, `touch pwned` ran: %v; the user saw %q", ran, asked[len(asked)-1])
		t.Fatal("U+16FE4 not escaped")
	}
}
