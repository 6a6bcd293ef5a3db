package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkClassifyFollowingStep is the cost of the walk (walk.go): grep
// -R over a tree of 2,000 files in 100 directories, with no link in it.
func BenchmarkClassifyFollowingStep(b *testing.B) {
	w := newWorld(b)
	tree := filepath.Join(w.root, "big")
	for d := 0; d < 100; d++ {
		dir := filepath.Join(tree, fmt.Sprintf("d%d", d))
		mustMkdir(b, dir)
		for f := 0; f < 20; f++ {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%d", f)), nil, 0o644); err != nil {
				b.Fatal(err)
			}
		}
	}
	for _, script := range []string{"grep -r x big", "grep -R x big"} {
		b.Run(script, func(b *testing.B) {
			for i := 0; i < b.N; i++ {
				if _, err := w.shell(w.root).Classify(script); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkClassifyShortGroups is the cost of reading every tail of a
// short option group as a value: a step of long option words.
func BenchmarkClassifyShortGroups(b *testing.B) {
	w := newWorld(b)
	script := "sort -uo/tmp/x -bdfgiMhnRrVcsuzbdfgiMhnRrVcsuzbdfgiMhnRrVcsuz a.txt src/main.go"
	for i := 0; i < b.N; i++ {
		if _, err := w.shell(w.root).Classify(script); err != nil {
			b.Fatal(err)
		}
	}
}
