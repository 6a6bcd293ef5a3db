package docs_test

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/eukhe/eukhe/docs"
)

// Performance targets of issue 2 (benchmarks, not timed tests); the
// numbers measured are in bench/README.md.

// BenchmarkReadTag4MiB: Store.Read of a 4 MiB file into the pooled buffer,
// its digest, and the buffer back to the pool. Target: <= 1 ms.
func BenchmarkReadTag4MiB(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.txt")
	line := []byte(strings.Repeat("the quick brown fox jumps over the lazy dog ", 2) + "\n")
	data := bytes.Repeat(line, docs.MaxSnapshotFileBytes/len(line)+1)[:docs.MaxSnapshotFileBytes]
	if err := os.WriteFile(path, data, 0o644); err != nil {
		b.Fatal(err)
	}
	d := docs.NewDisk()
	want := docs.DigestOf(data)
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		snap, err := d.Read(path)
		if err != nil {
			b.Fatal(err)
		}
		if docs.DigestOf(snap.Data) != want {
			b.Fatal("digest differs")
		}
		snap.Release()
	}
}

// benchTree fills dir with 100 source files: the first 100 of the Go
// tree's compiler SSA package when it is there, else generated ones of
// about the same size.
func benchTree(b testing.TB, dir string) []string {
	var srcs []string
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		ssa := filepath.Join(strings.TrimSpace(string(out)), "src", "cmd", "compile", "internal", "ssa")
		srcs, _ = filepath.Glob(filepath.Join(ssa, "*.go"))
		slices.Sort(srcs)
	}
	var paths []string
	for i := range 100 {
		var data []byte
		if i < len(srcs) {
			data, _ = os.ReadFile(srcs[i])
		}
		if len(data) == 0 {
			var sb strings.Builder
			for l := range 2500 {
				fmt.Fprintf(&sb, "\tx%d := f(%d, \"line %d of file %d\")\n", l, l*i, l, i)
			}
			data = []byte(sb.String())
		}
		p := filepath.Join(dir, fmt.Sprintf("f%03d.go", i))
		if err := os.WriteFile(p, data, 0o644); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
	}
	return paths
}

// BenchmarkCommit100Files: one all-or-nothing, fsync'd commit of a
// one-line change in each of 100 files through Disk.Commit (lock every
// directory, check every file's bytes, temp file + fsync + rename each,
// directory sync). Compare with `git apply` in bench/commit.sh.
func BenchmarkCommit100Files(b *testing.B) {
	dir := b.TempDir()
	paths := benchTree(b, dir)
	var a, z []docs.Change // a: old -> new; z: new -> old
	total := 0
	for _, p := range paths {
		old, _ := os.ReadFile(p)
		nl := bytes.IndexByte(old, '\n')
		changed := append([]byte("// changed by the benchmark\n"), old[nl+1:]...)
		changed = append(old[:nl+1:nl+1], changed...)
		a = append(a, docs.Change{Path: p, Old: old, New: changed})
		z = append(z, docs.Change{Path: p, Old: changed, New: old})
		total += len(old)
	}
	for _, journal := range []bool{true, false} {
		name := "journal"
		if !journal {
			name = "no-journal"
		}
		b.Run(name, func(b *testing.B) { commitLoop(b, journal, a, z, total) })
	}
}

// commitLoop commits a, then z, then a..., with the intent journal (as
// eukhe mcp commits) or without it (to see its cost).
func commitLoop(b *testing.B, journal bool, a, z []docs.Change, total int) {
	d := docs.NewDisk()
	if journal {
		d.Journal = b.TempDir()
	}
	b.SetBytes(int64(total))
	i := 0
	for b.Loop() {
		cs := a
		if i%2 == 1 {
			cs = z
		}
		i++
		res := d.Commit(cs)
		if res.Conflict != nil {
			b.Fatalf("conflict: %s", res.Conflict.Why)
		}
		for _, o := range res.Outcomes {
			if o.Fate != docs.Landed || o.Warning != "" {
				b.Fatalf("outcome %+v", o)
			}
		}
	}
	if i%2 == 1 { // the files hold a's new bytes: back to the old, for the next run
		if res := d.Commit(z); res.Conflict != nil {
			b.Fatalf("conflict putting the files back: %s", res.Conflict.Why)
		}
	}
}

// BenchmarkSeenMemory100k: the bytes a LineSet holds per seen line of a
// 100,000-line file, for a whole read, every other line, and random reads
// of 50-line windows. Target: <= 2 bytes per seen line.
func BenchmarkSeenMemory100k(b *testing.B) {
	const n = 100_000
	patterns := []struct {
		name string
		fill func(s *docs.LineSet)
	}{
		{"whole", func(s *docs.LineSet) { s.AddRange(1, n) }},
		{"every-other", func(s *docs.LineSet) {
			for ln := 1; ln <= n; ln += 2 {
				s.Add(ln)
			}
		}},
		{"windows-50/200", windows(200)},
		{"windows-50/1000", windows(1000)},
		{"windows-50/5000", windows(5000)},
	}
	for _, p := range patterns {
		b.Run(p.name, func(b *testing.B) {
			var s docs.LineSet
			for b.Loop() {
				s = docs.LineSet{}
				p.fill(&s)
			}
			held := s.Bytes() + int(unsafe.Sizeof(s))
			b.ReportMetric(float64(held)/float64(s.Len()), "B/seen-line")
			b.ReportMetric(float64(s.Len()), "seen-lines")
		})
	}
}

// windows reads k random 50-line windows of the file.
func windows(k int) func(s *docs.LineSet) {
	return func(s *docs.LineSet) {
		r := rand.New(rand.NewPCG(1, 2))
		for range k {
			a := 1 + r.IntN(100_000-49)
			s.AddRange(a, a+49)
		}
	}
}
