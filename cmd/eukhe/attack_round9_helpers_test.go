package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Helpers of the ninth red team's rows (attack_round9_test.go, and the
// open ones behind the open_attacks tag).

// r9worldAt is newEnvWorld with its base in a new directory under dir
// ("tmpfs": a tmpfs mounted for the row, where hundreds of thousands of
// files are made fast; /dev/shm will not do, the sandbox gives a process
// a /dev of its own).
func r9worldAt(t *testing.T, dir, auto string) *envWorld {
	t.Helper()
	var base string
	if dir == "tmpfs" {
		base = t.TempDir()
		if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=2g", "tmpfs", base).CombinedOutput(); err != nil {
			t.Logf("no tmpfs (%v: %s): the files are made on disk", err, out)
		} else {
			t.Cleanup(func() { exec.Command("umount", "-l", base).Run() })
		}
	} else {
		var err error
		base, err = os.MkdirTemp(dir, "r9")
		if err != nil {
			t.Fatalf("no directory under %s: %v", dir, err)
		}
		t.Cleanup(func() { os.RemoveAll(base) })
	}
	base, _ = filepath.EvalSymlinks(base)
	return newEnvWorldIn(t, base, auto)
}

// r9many makes n empty files in dir (the entries a bounded walk counts).
func r9many(t *testing.T, dir string, n int) {
	t.Helper()
	start := time.Now()
	code := "import os, sys\nd = sys.argv[1]\nos.makedirs(d, exist_ok=True)\nfor i in range(int(sys.argv[2])):\n  open(os.path.join(d, 'f%07d' % i), 'w').close()\n"
	if out, err := exec.Command("python3", "-c", code, dir, strconv.Itoa(n)).CombinedOutput(); err != nil {
		t.Fatalf("making %d files in %s: %v\n%s", n, dir, err, out)
	}
	t.Logf("made %d files in %s", n, time.Since(start).Round(time.Millisecond))
}

// r9tty runs argv as the user would in a terminal (a pseudo-terminal: a
// shell's startup files see a tty, its PROMPT_COMMAND runs before the
// prompt), in dir, types input, and gives what the terminal showed.
func r9tty(w *envWorld, dir, path, input string, argv ...string) string {
	code := `import os, pty, sys, select, time
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[2], sys.argv[2:])
os.write(fd, sys.argv[1].encode())
out = b""
end = time.time() + 15
while time.time() < end:
    r, _, _ = select.select([fd], [], [], 0.5)
    if r:
        try:
            b = os.read(fd, 4096)
        except OSError:
            break
        if not b:
            break
        out += b
os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
`
	cmd := exec.Command("python3", append([]string{"-c", code, input}, argv...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "HOME="+w.home, "PATH="+path, "TERM=xterm",
		"XDG_CONFIG_HOME="+filepath.Join(w.home, ".config"), "XDG_DATA_HOME="+filepath.Join(w.home, ".local", "share"))
	out, _ := cmd.CombinedOutput()
	return string(out)
}

// r9plantRow has a step with read, write and exec (in more's
// environment, under mech) plant ls at each of plants (workspace paths)
// by a program, and gives the reply.
func r9plantRow(t *testing.T, w *envWorld, mech string, plants []string, more ...string) string {
	t.Helper()
	code := "import os\n"
	for _, p := range plants {
		code += r6plant(p)
	}
	p := r3mcp(t, w, w.root, os.Getenv("PATH"), append(more, "EUKHE_CONFINEMENT="+mech)...)
	reply, _ := p.call("bash", map[string]any{"script": r3py(code)})
	return reply
}

// r9ran reports whether the user's shell output shows the planted ls ran.
func r9ran(out string) bool { return strings.Contains(out, "PLANTEDRAN") }

// r9log shows a row's reply with R9DEBUG set (to see why a row held).
func r9log(t *testing.T, reply string) {
	t.Helper()
	if os.Getenv("R9DEBUG") != "" {
		t.Logf("reply:\n%s", reply)
	}
}

// r9linkedAway is a configuration file reached through a place of the
// home's configuration that is elsewhere (a dot-directory that is a link,
// or XDG_CONFIG_HOME), with a second name made by the user.
func r9linkedAway(t *testing.T, how, where string, setup func(w *envWorld) (cfg string, env []string)) {
	set := r7auto
	if where == "workspace" {
		set = r9ws
	}
	w := newEnvWorld(t, set)
	cfg, env := setup(w)
	deep := filepath.Join(cfg, "nvim", "lua", "user", "r9.lua")
	writeFile(t, deep, "-- the user's own\n", 0o644)
	name := filepath.Join(w.base, "shared", "r9.lua")
	if where == "workspace" {
		name = filepath.Join(w.root, "sub", "r9.lua")
	}
	mustDo(t, os.MkdirAll(filepath.Dir(name), 0o755))
	mustDo(t, os.Link(deep, name))
	reply := r9writeVia(t, w, how, name, "PWNED9\n", env...)
	r9log(t, reply)
	if r7holds(deep, "PWNED9") {
		t.Errorf("%s (the home's configuration, elsewhere) was written unasked through its other name %s:\n%s", deep, name, reply)
	}
}

// r9configLinked makes ~/.config a link to a directory outside the home
// (the settings moved with it), and gives that directory.
func r9configLinked(t *testing.T) func(w *envWorld) (string, []string) {
	return func(w *envWorld) (string, []string) {
		data := filepath.Join(w.base, "data", "config")
		mustDo(t, os.MkdirAll(data, 0o755))
		mustDo(t, os.Rename(filepath.Join(w.home, ".config", "eukhe"), filepath.Join(data, "eukhe")))
		mustDo(t, os.RemoveAll(filepath.Join(w.home, ".config")))
		mustDo(t, os.Symlink(data, filepath.Join(w.home, ".config")))
		return data, nil
	}
}

// r9xdgMoved sets XDG_CONFIG_HOME to a directory outside the home (the
// settings copied there), and gives that directory.
func r9xdgMoved(t *testing.T) func(w *envWorld) (string, []string) {
	return func(w *envWorld) (string, []string) {
		xdg := filepath.Join(w.base, "xdg")
		settings, err := os.ReadFile(filepath.Join(w.home, ".config", "eukhe", "settings.json"))
		mustDo(t, err)
		writeFile(t, filepath.Join(xdg, "eukhe", "settings.json"), string(settings), 0o644)
		return xdg, []string{"XDG_CONFIG_HOME=" + xdg}
	}
}
