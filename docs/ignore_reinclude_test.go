package docs

import "testing"

// A directory re-included by a negation ("!cache") below one whose
// contents "deep/**" ignores is walked, as git walks it, but each file in
// it is still ignored by "deep/**", which matches the file's own path
// (found by TestIgnoreMatchesGit: the walk listed
// build/deep/cache/.gitignore, git does not).
func TestIgnoreReincludedDirectoryKeepsItsFilesIgnored(t *testing.T) {
	var root *ignoreNode
	root = root.child([]byte("*.log\n"), nil)
	build := root.child([]byte("deep/**\n"), []string{"build"})
	deep := build.child([]byte("!cache\n"), []string{"build", "deep"})
	cache := deep.child([]byte("*.log\n"), []string{"build", "deep", "cache"})
	if deep.Ignored([]string{"build", "deep", "cache"}, true) {
		t.Fatal("build/deep/cache is re-included by !cache")
	}
	for _, f := range [][]string{{"build", "deep", "cache", ".gitignore"}, {"build", "deep", "cache", "x.txt"}} {
		if !cache.Ignored(f, false) {
			t.Errorf("%v is ignored by deep/** in git", f)
		}
	}
}
