package shell

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"

	"github.com/eukhe/eukhe/gate"
)

// hostileRepo is a repository whose config names a program for each
// thing git can run while it reads: fsmonitor, a pager, a textconv and an
// external diff driver, a signature program (with a signed commit and
// log.showSignature), hooks; and a bare repository in a subdirectory with
// its own fsmonitor. Each program leaves a marker file when it runs.
func hostileRepo(t *testing.T, w *world) (markers string, gitEnv []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		testkit.Missing(t, "git is not on PATH: install git to run this test")
	}
	base := filepath.Dir(w.root)
	markers = filepath.Join(base, "markers")
	if err := os.MkdirAll(markers, 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(base, "helper.sh")
	script := "#!/bin/sh\nkind=$1; shift\ntouch " + markers + "/$kind\n" +
		"case $kind in textconv) cat \"$@\";; esac\nexit 0\n"
	testkit.WriteProgram(t, prog, []byte(script))
	// git runs gpg.program as a program, not through a shell.
	gpg := filepath.Join(base, "gpg.sh")
	testkit.WriteProgram(t, gpg, []byte("#!/bin/sh\ntouch "+markers+"/gpg\nexit 1\n"))
	gitEnv = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+base, "GIT_AUTHOR_NAME=A",
		"GIT_AUTHOR_EMAIL=a@example.com", "GIT_COMMITTER_NAME=A", "GIT_COMMITTER_EMAIL=a@example.com")
	git := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, gitEnv
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	git(w.root, "init", "-q")
	w.write("a.txt", "one\n")
	w.write(".gitattributes", "*.txt diff=hostile\n")
	git(w.root, "add", ".")
	git(w.root, "commit", "-q", "-m", "first")
	// The config is set after the commits git needs to make here.
	w.write("a.txt", "two\n")
	git(w.root, "add", "a.txt")
	tree := git(w.root, "write-tree")
	parent := git(w.root, "rev-parse", "HEAD")
	signed := "tree " + tree + "\nparent " + parent + "\nauthor A <a@example.com> 1700000000 +0000\n" +
		"committer A <a@example.com> 1700000000 +0000\ngpgsig -----BEGIN PGP SIGNATURE-----\n \n iQEzBAABCAAdFiEE\n" +
		" -----END PGP SIGNATURE-----\n\nsigned second\n"
	obj := filepath.Join(base, "commit.txt")
	if err := os.WriteFile(obj, []byte(signed), 0o644); err != nil {
		t.Fatal(err)
	}
	sha := git(w.root, "hash-object", "-t", "commit", "-w", obj)
	git(w.root, "update-ref", "HEAD", sha)
	w.write("a.txt", "three\n")
	git(w.root, "add", "a.txt")
	for _, kv := range [][2]string{
		{"core.fsmonitor", prog + " fsmonitor"},
		{"core.pager", prog + " pager"},
		{"pager.log", prog + " pager"},
		{"diff.hostile.textconv", prog + " textconv"},
		{"diff.hostile.command", prog + " diffdriver"},
		{"diff.external", prog + " external"},
		{"gpg.program", gpg},
		{"log.showSignature", "true"},
		{"core.hooksPath", filepath.Join(base, "hooks")},
	} {
		git(w.root, "config", kv[0], kv[1])
	}
	bare := filepath.Join(w.root, "sub", "bare.git")
	git(w.root, "init", "-q", "--bare", bare)
	git(bare, "config", "core.fsmonitor", prog+" bare-fsmonitor")
	return markers, gitEnv
}

func markerNames(t *testing.T, dir string) []string {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	return names
}

// The read git steps run, hardened: none of the repository's programs
// does, and the bare repository in a subdirectory is not used.
func TestGitReadStepsRunNoRepositoryProgram(t *testing.T) {
	w := newWorld(t, gate.DefaultAuto())
	markers, gitEnv := hostileRepo(t, w)
	// The fixture is hostile: plain git runs its programs.
	for _, args := range [][]string{{"log", "-p"}, {"show"}, {"diff", "--cached"}} {
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = w.root, gitEnv
		_ = cmd.Run()
	}
	if got := markerNames(t, markers); len(got) < 3 {
		t.Fatalf("plain git ran only %v; the fixture should make it run its programs", got)
	}
	if err := os.RemoveAll(markers); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(markers, 0o755); err != nil {
		t.Fatal(err)
	}

	w.runner.Env = append(w.runner.Env, "GIT_CONFIG_NOSYSTEM=1")
	r := w.run("git log -p; git show; git diff --cached; git -C sub/bare.git log")
	if got := markerNames(t, markers); len(got) != 0 {
		t.Fatalf("the hardened steps ran %v:\n%s", got, r.Text)
	}
	for _, want := range []string{"signed second", "-one", "+two", "-two", "+three", "bare"} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("want %q in:\n%s", want, r.Text)
		}
	}
	if len(r.Steps) != 4 || r.Steps[0].Status != 0 || r.Steps[1].Status != 0 || r.Steps[2].Status != 0 || r.Steps[3].Status == 0 {
		t.Fatalf("statuses %+v:\n%s", r.Steps, r.Text)
	}
}

func TestGitHardenedArgvAndEnv(t *testing.T) {
	argv, env := gitRead([]string{"git", "-C", "x", "log", "-p"}, []string{"GIT_CONFIG_COUNT=1",
		"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_VALUE_0=me", "PATH=/bin"})
	if strings.Join(argv, " ") != "git --no-pager -C x log --no-ext-diff --no-textconv -p" {
		t.Fatalf("argv %q", argv)
	}
	joined := strings.Join(env, "\n")
	for _, want := range []string{"GIT_CONFIG_KEY_0=user.name", "GIT_CONFIG_KEY_1=core.fsmonitor", "GIT_CONFIG_VALUE_1=false",
		"=safe.bareRepository", "GIT_OPTIONAL_LOCKS=0", "GIT_NO_LAZY_FETCH=1", "PATH=/bin"} {
		if !strings.Contains(joined, want) {
			t.Fatalf("want %q in:\n%s", want, joined)
		}
	}
	if strings.Contains(joined, "GIT_CONFIG_COUNT=1\n") {
		t.Fatal("the old count stayed")
	}
	// An exec step runs as written.
	if argv, env := gitRead([]string{"git", "status"}, []string{"A=1"}); len(argv) != 2 || len(env) != 1 {
		t.Fatalf("git status became %q %q", argv, env)
	}
}
