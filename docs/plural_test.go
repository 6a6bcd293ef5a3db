package docs

import "testing"

func TestCountSaysOneAndMany(t *testing.T) {
	for _, c := range []struct {
		n          int
		noun, want string
	}{
		{0, "line", "0 lines"}, {1, "line", "1 line"}, {2, "line", "2 lines"},
		{1, "match", "1 match"}, {3, "match", "3 matches"},
		{1, "entry", "1 entry"}, {2, "entry", "2 entries"},
		{2, ".git directory", "2 .git directories"},
		{2, "file with matches", "2 files with matches"},
		{2, "day", "2 days"}, {2, "binary file", "2 binary files"},
	} {
		if got := Count(c.n, c.noun); got != c.want {
			t.Errorf("Count(%d, %q) = %q, want %q", c.n, c.noun, got, c.want)
		}
	}
}
