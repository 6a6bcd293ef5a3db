package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// landOnly is a Store that reads the disk and lands every commit without
// writing: the edit tool's own work (parse, stage, Persist, record), with
// no file system cost, for BenchmarkEdit100FilesStaging. Its Begin is
// NoBatch: the disk's would write the journal and temp files.
type landOnly struct{ Store }

func (landOnly) Begin([]string) Batch { return NoBatch }

func (l landOnly) Commit(cs []Change) Committed {
	res := Committed{Outcomes: make([]Outcome, len(cs))}
	for i := range res.Outcomes {
		res.Outcomes[i].Fate = Landed
	}
	return res
}

// ssa100 writes the benchmark's 100 files into root and gives their names
// and the patch that changes line 10 of each.
func ssa100(b *testing.B, root string) (names []string, pristine map[string][]byte, patch string) {
	src := filepath.Join(goRoot(b), "src", "cmd", "compile", "internal", "ssa")
	es, err := os.ReadDir(src)
	if err != nil {
		b.Skip("Go's source tree is not here")
	}
	pristine = map[string][]byte{}
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
		os.WriteFile(filepath.Join(root, e.Name()), data, 0o644)
	}
	slices.Sort(names)
	var p strings.Builder
	for _, n := range names {
		fmt.Fprintf(&p, "[%s#%s]\n@@ 10\n+// changed\n", n, DigestOf(pristine[n]).Tag())
	}
	return names, pristine, p.String()
}

// BenchmarkEdit100FilesStaging is the edit tool's CPU work on the 100
// files of BenchmarkEdit100Files (parse, read, stage, Persist, record),
// over a store that lands without writing.
func BenchmarkEdit100FilesStaging(b *testing.B) {
	root := b.TempDir()
	names, _, patch := ssa100(b, root)
	for b.Loop() {
		b.StopTimer()
		tools := &Tools{Store: landOnly{NewDisk()}, Session: NewSession(), Root: root}
		for _, n := range names {
			tools.Read(context.Background(), ReadArgs{Path: n + ":1-20"})
		}
		b.StartTimer()
		if r := tools.Edit(context.Background(), EditArgs{Patch: patch}); r.Failed {
			b.Fatal(r.Text)
		}
	}
}

// BenchmarkEdit100Files is the whole edit tool on 100 real Go files (Go's
// own SSA package): parse the patch, check and stage every section, commit
// all or nothing with fsync, and record the new versions. bench/commit.sh
// runs the same edit beside git apply.
func BenchmarkEdit100Files(b *testing.B) {
	src := filepath.Join(goRoot(b), "src", "cmd", "compile", "internal", "ssa")
	es, err := os.ReadDir(src)
	if err != nil {
		b.Skip("Go's source tree is not here")
	}
	root, jdir := b.TempDir(), b.TempDir()
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
		disk := NewDisk()
		disk.Journal, disk.Root = jdir, root // as eukhe mcp commits
		tools := &Tools{Store: disk, Session: NewSession(), Root: root}
		for _, n := range names {
			tools.Read(context.Background(), ReadArgs{Path: n + ":1-20"})
		}
		b.StartTimer()
		if r := tools.Edit(context.Background(), EditArgs{Patch: patch.String()}); r.Failed {
			b.Fatal(r.Text)
		}
	}
}
