package nvim_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Issue 15, item 10: Neovim 0.7 on LuaJIT 2.1.0-beta3 refused an edit now
// and then ("vim/shared.lua:65: opt[…]: expected table, got userdata"),
// one run of 1,000 back-to-back edits in three, from a miscompiled trace
// (jitfix.lua). The edit benchmark's scenario, with the plugin, is the
// regression test: 1,000 edits of 10 open documents, no debounce, not one
// refused, every buffer checked after each. Not timed; -short skips it
// (it runs for minutes).
func TestAThousandBackToBackEditsAreNeverRefused(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 edits through Neovim take minutes")
	}
	nvim := nvimBin(t)
	ws := t.TempDir()
	for i := range 10 {
		var b []byte
		for l := 1; l <= 100; l++ {
			b = fmt.Appendf(b, "f%d line %d\n", i, l)
		}
		if err := os.WriteFile(filepath.Join(ws, fmt.Sprintf("f%d.txt", i)), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plugin, _ := filepath.Abs(".")
	script, _ := filepath.Abs(filepath.Join("..", "..", "bench", "nvim", "edit10.lua"))
	out := filepath.Join(t.TempDir(), "out.json")
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, nvim, "--headless", "--clean", "-n", "-i", "NONE", "-c", "luafile "+script)
	cmd.Dir = ws
	cmd.Env = append(os.Environ(), "EUKHE_BIN="+binary, "EUKHE_ROOT="+ws, "EUKHE_OUT="+out,
		"BENCH_EDITS=1000", "BENCH_WARMUP=0", "BENCH_DEBOUNCE=0", "BENCH_PLUGIN="+plugin, "BENCH_CALL_TIMEOUT_MS=120000",
		"XDG_STATE_HOME="+t.TempDir(), "XDG_CONFIG_HOME="+t.TempDir(), "XDG_DATA_HOME="+t.TempDir())
	log, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("nvim: %v\n%s", err, log)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("no results: %v\n%s", err, log)
	}
	var r struct {
		Error string
		Times []float64
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if r.Error != "" || len(r.Times) != 1000 {
		t.Fatalf("after %d edits: %s", len(r.Times), r.Error)
	}
}
