package docs

import (
	"os/exec"
	"strings"
	"testing"
)

// goRoot is the Go toolchain's root as `go env GOROOT` gives it: the
// benchmarks read its sources as a real tree.
func goRoot(tb testing.TB) string {
	tb.Helper()
	out, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		tb.Fatalf("go env GOROOT: %v", err)
	}
	return strings.TrimSpace(string(out))
}
