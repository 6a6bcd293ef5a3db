package docs

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// goSrc is Go's own source tree, present wherever Go is: the benchmark tree.
func goSrc(b *testing.B) string {
	dir := filepath.Join(goRoot(b), "src")
	if _, err := os.Stat(dir); err != nil {
		b.Skip("Go's source tree is not here")
	}
	return dir
}

func benchGrep(b *testing.B, a GrepArgs) {
	root := goSrc(b)
	for b.Loop() {
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		if res := tools.Grep(context.Background(), a); res.Failed {
			b.Fatal(res.Text)
		}
	}
}

func BenchmarkGrepLiteral(b *testing.B) {
	benchGrep(b, GrepArgs{Pattern: "ErrUnexpectedEOF", Literal: true})
}

func BenchmarkGrepRegexInnerLiteral(b *testing.B) {
	benchGrep(b, GrepArgs{Pattern: `\w+Error\(`})
}

func BenchmarkGrepIgnoreCase(b *testing.B) {
	benchGrep(b, GrepArgs{Pattern: "errunexpectedeof", IgnoreCase: true})
}

func BenchmarkGlobNewestFirst(b *testing.B) {
	root := goSrc(b)
	for b.Loop() {
		tools := &Tools{Store: NewDisk(), Session: NewSession(), Root: root}
		if res := tools.Glob(context.Background(), GlobArgs{Pattern: "**/*_test.go"}); res.Failed {
			b.Fatal(res.Text)
		}
	}
}
