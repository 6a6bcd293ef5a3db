// Package testkit holds what the end-to-end tests of several packages
// share: the eukhe binary built from this repository, the Neovim to
// drive, a fresh workspace with its own HOME and XDG directories
// (workspace.go), and Missing, the one way a test ends for a tool the machine
// lacks (a skip, or a failure under EUKHE_REQUIRE_TOOLS=1 or CI). It
// keeps no rule of the product; only tests import it.
package testkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// RunWithEukhe builds the eukhe command (pkg: its package directory,
// relative to the test's) into a temp directory, sets *bin to it, runs the
// tests and exits with their status. EUKHE_TEST_BIN names a prebuilt
// binary to test instead.
func RunWithEukhe(m *testing.M, pkg string, bin *string) {
	if p := os.Getenv("EUKHE_TEST_BIN"); p != "" {
		*bin = p
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "eukhe-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	*bin = filepath.Join(dir, "eukhe")
	build := exec.Command("go", "build", "-o", *bin, pkg)
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building eukhe:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// RequireTools is the environment variable that turns every "tool
// missing, skipped" into a failure: .ci/run sets it (and CI=true does the
// same), so CI can never pass by skipping.
const RequireTools = "EUKHE_REQUIRE_TOOLS"

// Missing ends a test that needs a tool the machine does not have: a skip
// that says why and how to get it, or a failure when the tools are
// required (EUKHE_REQUIRE_TOOLS=1 or CI set).
func Missing(t testing.TB, why string) {
	t.Helper()
	if toolsRequired() {
		t.Fatalf("%s (%s or CI is set: a missing tool fails the test)", why, RequireTools)
	}
	t.Skip(why)
}

// MissingPart is Missing for one part of a test: the test goes on without
// it, saying so in its log, or fails (and goes on) when the tools are
// required.
func MissingPart(t testing.TB, why string) {
	t.Helper()
	if toolsRequired() {
		t.Errorf("%s (%s or CI is set: a missing tool fails the test)", why, RequireTools)
		return
	}
	t.Log("this part is left out: " + why)
}

// toolsRequired: EUKHE_REQUIRE_TOOLS is set (but to 0), or CI is.
func toolsRequired() bool {
	return os.Getenv(RequireTools) != "" && os.Getenv(RequireTools) != "0" || os.Getenv("CI") != ""
}

// Nvim is the Neovim to test with: EUKHE_NVIM, else nvim on PATH (Debian
// bookworm's 0.7.2, which .ci/run installs); without one the test is
// skipped with how to get it (test/nvim/fetch-0.10.sh makes a 0.10).
func Nvim(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("EUKHE_NVIM"); p != "" {
		return p
	}
	p, err := exec.LookPath("nvim")
	if err != nil {
		Missing(t, "nvim is not installed: the Neovim end-to-end tests need Neovim 0.7 or later (apt-get install neovim; .ci/run does)")
	}
	return p
}

// Scenario runs a Lua scenario in headless Neovim (--clean, no shada):
// args come before the script (e.g. --cmd "set rtp+=PLUGIN"), env is
// added to the environment, and the scenario writes what it saw as JSON to
// $EUKHE_OUT. A run that fails, writes nothing, or records an "error"
// fails the test with Neovim's output.
func Scenario(t testing.TB, nvim, dir string, args []string, script string, env []string) map[string]any {
	t.Helper()
	out := filepath.Join(t.TempDir(), "results.json")
	trace := filepath.Join(t.TempDir(), "trace.log")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Second)
	defer cancel()
	argv := append([]string{"--headless", "--clean", "-n", "-i", "NONE"}, args...)
	cmd := exec.CommandContext(ctx, nvim, append(argv, "-c", "luafile "+script)...)
	cmd.Dir = dir
	cmd.Env = append(append(os.Environ(), "EUKHE_OUT="+out,
		"XDG_STATE_HOME="+t.TempDir(), "XDG_CACHE_HOME="+t.TempDir(), "EUKHE_TRACE="+trace), env...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stderr, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("nvim %s: %v\n%s%s", filepath.Base(script), err, stderr.String(), tail(trace))
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("nvim %s wrote no results: %v\n%s", filepath.Base(script), err, stderr.String())
	}
	var res map[string]any
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatalf("results of %s: %v\n%s", filepath.Base(script), err, b)
	}
	if e, ok := res["error"]; ok {
		t.Fatalf("%s failed in Neovim: %v\nnotes: %v\n%s%s", filepath.Base(script), e, res["notes"], stderr.String(), tail(trace))
	}
	return res
}

// tail is the end of a scenario's LSP trace (EUKHE_TRACE, written when
// the harness runs eukhe lsp --trace), for the report of a failure.
func tail(trace string) string {
	b, err := os.ReadFile(trace)
	if err != nil {
		return ""
	}
	const most = 24 << 10
	if len(b) > most {
		b = b[len(b)-most:]
	}
	return "LSP trace (its end):\n" + string(b)
}

// Str is a string a scenario recorded, "" when it is not one.
func Str(res map[string]any, key string) string {
	s, _ := res[key].(string)
	return s
}

// WriteProgram writes an executable file (mode 0o755) for a test to run,
// with no fork of this process while it is open for writing: a child
// forked then holds the write descriptor until its own exec, and running
// the file meanwhile fails with "text file busy" (ETXTBSY; Go issue
// 22315). syscall.ForkLock is the lock os/exec takes around each fork.
func WriteProgram(t testing.TB, path string, data []byte) {
	t.Helper()
	syscall.ForkLock.Lock()
	err := os.WriteFile(path, data, 0o755)
	syscall.ForkLock.Unlock()
	if err != nil {
		t.Fatal(err)
	}
}

// IPython is the Python the ipython tool's tests run: EUKHE_PYTHON, else
// Debian's /usr/bin/python3 when it has IPython (.ci/run installs
// python3-ipython), else python3 on PATH when it has it; without one the
// test is skipped with how to get it (a failure in CI).
func IPython(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("EUKHE_PYTHON"); p != "" {
		return p
	}
	candidates := []string{"/usr/bin/python3"}
	if p, err := exec.LookPath("python3"); err == nil {
		candidates = append(candidates, p)
	}
	for _, p := range candidates {
		if exec.Command(p, "-c", "import IPython").Run() == nil {
			return p
		}
	}
	Missing(t, "no Python with IPython: apt-get install python3-ipython (or set EUKHE_PYTHON to a Python that has it)")
	return ""
}
