package nvim_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The plugin as a newcomer meets it: a plain packpath install, the
// lspconfig habit for cmd, eukhe where go install put it, a first
// :checkhealth, a quiet :LspLog.

func (w *world) runCase(name string, env ...string) map[string]any {
	w.t.Helper()
	w.env = append(append([]string{}, w.env...), append(env, "EUKHE_CASE="+name)...)
	return w.run("newcomer.lua")
}

func TestSetupAcceptsLspconfigsCmd(t *testing.T) {
	w := newWorld(t)
	res := w.runCase("cmd_lsp")
	cmd := fmt.Sprint(res["cmd"])
	if strings.Count(cmd, "lsp") != 1 || !strings.Contains(cmd, "lsp --root "+w.root) {
		t.Errorf("cmd {BIN, 'lsp'} started %v", cmd)
	}
	if !flag(res, "refused") || !strings.Contains(str(res, "msg"), "arguments after 'lsp' (--stdio)") {
		t.Errorf("cmd {BIN, 'lsp', '--stdio'}: refused %v, %q", res["refused"], str(res, "msg"))
	}
}

// goEnv is an environment where eukhe is not on PATH and ~ has no go/bin,
// but go is on PATH.
func goEnv(t *testing.T) []string {
	goBin, err := exec.LookPath("go")
	if err != nil {
		testkit.Missing(t, "go is not on PATH")
	}
	// A home of its own, outside t.TempDir: go may leave a telemetry
	// process writing under it after Neovim ends, so its removal is best
	// effort.
	home, err := os.MkdirTemp("", "eukhe-home")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	// go keeps its telemetry under XDG_CONFIG_HOME: that home too, not the
	// world's t.TempDir config, whose removal the late writer would race.
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, ".config"), "PATH=" + filepath.Dir(goBin) + ":/usr/bin:/bin", "GOFLAGS=", "GOENV=off"}
}

func placeBinary(t *testing.T, dir string) string {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "eukhe")
	if err := os.Symlink(binary, p); err != nil {
		t.Fatal(err)
	}
	return p
}

// copyPlugin copies the plugin's lua/eukhe, plugin and doc (without a
// tags file) to dir, as a plain install from a release would lay it out.
func copyPlugin(t *testing.T, dir string) {
	src, _ := filepath.Abs(".")
	for _, d := range []string{"lua/eukhe", "plugin", "doc"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
		files, _ := filepath.Glob(filepath.Join(src, d, "*"))
		for _, f := range files {
			if filepath.Base(f) == "tags" {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, d, filepath.Base(f)), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// The plugin's own bin/ (a release archive's eukhe unpacked there) comes
// before PATH and GOBIN, and :checkhealth eukhe says where it was found.
func TestBinaryLookupFindsThePluginsOwnBin(t *testing.T) {
	w := newWorld(t)
	w.plugin = filepath.Join(t.TempDir(), "eukhe")
	copyPlugin(t, w.plugin)
	want := placeBinary(t, filepath.Join(w.plugin, "bin"))
	gobin := filepath.Join(t.TempDir(), "gobin")
	placeBinary(t, gobin)
	res := w.runCase("gobin", append(goEnv(t), "GOBIN="+gobin)...)
	if got := str(res, "bin"); got != want {
		t.Errorf("found %q (%s), want the plugin's own %q", got, str(res, "msg"), want)
	}
	if where := str(res, "where"); where != "the plugin's own bin/" {
		t.Errorf("found it in %q, want the plugin's own bin/", where)
	}
}

func TestBinaryLookupHonoursGOBINAndGOPATH(t *testing.T) {
	t.Run("GOBIN", func(t *testing.T) {
		w := newWorld(t)
		gobin := filepath.Join(t.TempDir(), "gobin")
		want := placeBinary(t, gobin)
		res := w.runCase("gobin", append(goEnv(t), "GOBIN="+gobin, "GOPATH="+t.TempDir())...)
		if got := str(res, "bin"); got != want {
			t.Errorf("found %q (%s), want %q", got, str(res, "msg"), want)
		}
	})
	t.Run("GOPATH", func(t *testing.T) {
		w := newWorld(t)
		gopath := t.TempDir()
		want := placeBinary(t, filepath.Join(gopath, "bin"))
		res := w.runCase("gobin", append(goEnv(t), "GOBIN=", "GOPATH="+gopath)...)
		if got := str(res, "bin"); got != want {
			t.Errorf("found %q (%s), want %q", got, str(res, "msg"), want)
		}
	})
	t.Run("nowhere", func(t *testing.T) {
		w := newWorld(t)
		gopath := t.TempDir()
		res := w.runCase("gobin", append(goEnv(t), "GOBIN=", "GOPATH="+gopath)...)
		if msg := str(res, "msg"); str(res, "bin") != "" || !strings.Contains(msg, gopath+"/bin") || !strings.Contains(msg, "go install github.com/eukhe/eukhe/cmd/eukhe@latest") {
			t.Errorf("no binary anywhere: %q %q", str(res, "bin"), msg)
		}
	})
}

func TestHealthSaysNotPresentForMissingSettings(t *testing.T) {
	w := newWorld(t)
	user := filepath.Join(w.conf, "eukhe", "settings.json")
	res := w.runCase("health")
	for _, when := range []string{"before", "after"} {
		health := str(res, when)
		if !strings.Contains(health, user+": not present") {
			t.Errorf("%s a server runs, :checkhealth does not say %s is not present:\n%s", when, user, health)
		}
		if strings.Contains(health, user+": in force") {
			t.Errorf("%s a server runs, :checkhealth says the missing %s is in force:\n%s", when, user, health)
		}
	}
	if project := filepath.Join(w.root, ".eukhe", "settings.json"); !strings.Contains(str(res, "after"), project+": not present") {
		t.Errorf(":checkhealth does not say %s is not present:\n%s", project, str(res, "after"))
	}
}

func TestServerLogLinesAreLogMessagesNotErrors(t *testing.T) {
	w := newWorld(t)
	settings := filepath.Join(w.conf, "eukhe", "settings.json")
	os.MkdirAll(filepath.Dir(settings), 0o700)
	if err := os.WriteFile(settings, []byte(`{"review.style": "inline"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	res := w.runCase("logmessage")
	msgs, _ := res["messages"].([]any)
	found := false
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		typ, _ := mm["type"].(float64)
		text, _ := mm["message"].(string)
		if typ == 1 {
			t.Errorf("a log line came as an Error: %q", text)
		}
		if strings.Contains(text, "settings") && typ == 4 {
			found = true
		}
	}
	if !found {
		t.Errorf("no settings line of type Log: %v", msgs)
	}
}

// A plain packpath install, as README says: link the plugin as
// pack/eukhe/start/eukhe. setup() makes :help eukhe work.
func TestHelpWorksAfterAPlainPackpathInstall(t *testing.T) {
	w := newWorld(t)
	pack := t.TempDir()
	plugin := filepath.Join(pack, "pack", "eukhe", "start", "eukhe")
	copyPlugin(t, plugin)
	src, _ := filepath.Abs(".")
	env := []string{"EUKHE_BIN=" + binary, "EUKHE_ROOT=" + w.root, "EUKHE_PACK=" + plugin,
		"EUKHE_HARNESS=" + filepath.Join(src, "test", "harness.lua"), "XDG_CONFIG_HOME=" + w.conf}
	res := testkit.Scenario(t, w.nvim, w.root, []string{"--cmd", "set packpath^=" + pack}, filepath.Join(src, "test", "helptags.lua"), env)
	if flag(res, "before") {
		t.Fatal("the copied plugin already had a tags file")
	}
	if !flag(res, "ok") || !strings.HasSuffix(str(res, "buf"), "eukhe.txt") {
		t.Errorf(":help eukhe after setup: ok %v, %q, buffer %q", res["ok"], str(res, "err"), str(res, "buf"))
	}
	if _, err := os.Stat(filepath.Join(plugin, "doc", "tags")); err != nil {
		t.Errorf("setup wrote no tags file: %v", err)
	}
}
