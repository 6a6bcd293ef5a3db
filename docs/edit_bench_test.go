package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// BenchmarkEdit100Files is the whole edit tool on 100 real Go files (Go's
// own SSA package): parse the patch, check and stage every section, commit
// all or nothing with fsync, and record the new versions. bench/commit.sh
// runs the same edit beside git apply.
func BenchmarkEdit100Files(b *testing.B) {
	src := filepath.Join(runtime.GOROOT(), "src", "cmd", "compile", "internal", "ssa")
	es, err := os.ReadDir(src)
	if err != nil {
		b.Skip("Go's source tree is not here")
	}
	root := b.TempDir()
	var names []string
	pristine := map[string][]byte{}
	for _, e := range es {
		if len(names) == 100 || !strings.HasSuffix(e.Name(), ".go") {
			continue
		}
		data, _ := os.ReadFile(filepath.Join(src, e.Name()))
		if strings.Count(string(data), "\n") < 20 {
			continue
		}
		names = append(names, e.Name())
		pristine[e.Name()] = data
	}
	slices.Sort(names)
	var patch strings.Builder
	for _, n := range names {
		fmt.Fprintf(&patch, "[%s#%s]\n@@ 10\n+// changed\n", n, DigestOf(pristine[n]).Tag())
	}
	for b.Loop() {
		b.StopTimer()
		for _, n := range names {
			os.WriteFile(filepath.Join(root, n), pristine[n], 0o644)
		}
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		for _, n := range names {
			tools.Read(ReadArgs{Path: n + ":1-20"})
		}
		b.StartTimer()
		if r := tools.Edit(EditArgs{Patch: patch.String()}); r.Failed {
			b.Fatal(r.Text)
		}
	}
}
