package gate

import (
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"
)

// The law a_protected_links_target_is_protected (the thirty-first red
// team's): a link that lies in a protected place (a repository's
// .git/hooks, or a hook in it) makes what it reaches a protected entry by
// its own path, made before the policy or after it (then given at the
// next SetMoreRules, as GitWatch's refresh does, or learned when a path
// resolves through the link) — but never a workspace root whole: a
// target that is a root gives its hook names (when the hooks directory
// is the link: a hook linked to a directory runs nothing), one that holds
// a root the entries beside the workspace, and a plain workspace file
// stays Inside.
func TestLaw_a_protected_links_target_is_protected(t *testing.T) {
	needSymlinks(t)
	rapid.Check(t, func(t *rapid.T) {
		base, err := os.MkdirTemp("", "eukhe-law-links")
		if err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(base)
		if base, err = filepath.EvalSymlinks(base); err != nil {
			t.Fatal(err)
		}
		home, root := filepath.Join(base, "home"), filepath.Join(base, "w")
		for _, d := range []string{filepath.Join(home, ".ssh"), filepath.Join(root, ".git"), filepath.Join(root, "src"),
			filepath.Join(root, "githooks"), filepath.Join(base, "out", "sub")} {
			mustL(t, os.MkdirAll(d, 0o755))
		}
		mustL(t, os.WriteFile(filepath.Join(root, "src", "x.go"), []byte("package x\n"), 0o644))
		mustL(t, os.WriteFile(filepath.Join(base, "out", "hook.sh"), []byte("#!/bin/sh\n"), 0o755))
		targets := []string{filepath.Join(root, "githooks"), filepath.Join(base, "out"), filepath.Join(base, "out", "sub"), root, base}
		target := rapid.SampledFrom(targets).Draw(t, "target")
		file := rapid.Bool().Draw(t, "one hook linked, not the directory")
		link := filepath.Join(root, ".git", "hooks")
		if file {
			mustL(t, os.MkdirAll(link, 0o755))
			link = filepath.Join(link, "pre-commit")
		}
		after := rapid.IntRange(0, 2).Draw(t, "made before the policy, after it and given again, after it and resolved through")
		mk := func() { mustL(t, os.Symlink(target, link)) }
		if after == 0 {
			mk()
		}
		p := Places{Roots: []string{root}, Home: home, UserDir: filepath.Join(home, ".config", "eukhe")}.Policy(OS)
		switch after {
		case 1:
			mk()
			p.SetMoreRules(nil)
		case 2:
			mk()
			p.Class(p.Resolve(root, link+"/x"))
		}
		class := func(path string) Class { return p.Class(p.Resolve(root, path)) }
		if c := class(filepath.Join(root, "src", "x.go")); c != ClassInside {
			t.Fatalf("a workspace file is %v with the link to %s", c, target)
		}
		var want []string
		switch {
		case target == root && !file:
			want = []string{filepath.Join(root, "pre-commit")}
		case target == root:
			// one hook linked to a directory: git runs no directory
		case target == base && !file:
			want = []string{filepath.Join(base, "out", "hook.sh"), filepath.Join(base, "pre-commit")}
		case target == base:
			want = []string{filepath.Join(base, "out", "hook.sh")}
		default:
			want = []string{filepath.Join(target, "pre-commit"), target}
		}
		for _, w := range want {
			if c := class(w); c != ClassProtected && c != ClassSecret {
				t.Fatalf("%s (reached by the link to %s) is %v", w, target, c)
			}
		}
	})
}

func mustL(t *rapid.T, err error) {
	if err != nil {
		t.Fatal(err)
	}
}
