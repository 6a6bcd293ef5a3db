package docs

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The rule of recovery as a function (planRecovery): for any journal and
// any judgment of its paths, recovery acts on no path the judge refused
// (nor on any path of a change one of whose paths was refused, but to
// remove that change's own temp names that pass), and a
// forward journal is finished forward exactly when the judge refused none
// of its paths; else it is turned back, and the notice names every
// refused path.
func TestLaw_recovery_never_acts_where_the_judge_refuses(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		names := []string{"/r/a", "/r/b", "/r/d/c", "/r/.git/hooks/x", "/o/y"}
		rec := journalRec{Phase: rapid.SampledFrom([]string{phasePrepare, phaseForward, phaseBack}).Draw(rt, "phase")}
		n := rapid.IntRange(1, 5).Draw(rt, "files")
		for i := range n {
			p := rapid.SampledFrom(names).Draw(rt, "path")
			jf := journalFile{Name: fmt.Sprint("n", i), Path: p}
			switch rapid.IntRange(0, 3).Draw(rt, "kind") {
			case 1:
				jf.Dest = rapid.SampledFrom(names).Draw(rt, "dest")
				jf.DestAs = jf.Dest
			case 2:
				jf.Create = true
			}
			if rapid.Bool().Draw(rt, "temp") {
				target := jf.Path
				if jf.Dest != "" {
					target = jf.Dest
				}
				jf.Temp = filepath.Join(filepath.Dir(target), TempName(filepath.Base(target), 1, i))
			}
			rec.Files = append(rec.Files, jf)
		}
		refuse := map[string]bool{}
		for _, p := range names {
			refuse[p] = rapid.Bool().Draw(rt, "refuse "+p)
		}
		judge := func(p string) string {
			for q, r := range refuse {
				if r && (p == q || filepath.Dir(p) == filepath.Dir(q) && strings.Contains(filepath.Base(p), filepath.Base(q))) {
					return "refused"
				}
			}
			return ""
		}
		pl := planRecovery(rec, judge)
		anyRefused := false
		for _, jf := range rec.Files {
			acts := pl.acts(jf)
			for _, p := range []string{jf.Path, jf.Dest, jf.Temp, jf.BackT} {
				if p == "" || judge(p) == "" {
					continue
				}
				anyRefused = true
				for _, a := range acts {
					if a != jf.Temp && a != jf.BackT {
						rt.Fatalf("recovery acts on %v though %s was refused (only its own temp names that pass may be removed)", acts, p)
					}
				}
			}
			for _, a := range acts {
				if judge(a) != "" {
					rt.Fatalf("recovery acts on refused %s", a)
				}
			}
		}
		switch rec.Phase {
		case phaseForward:
			if pl.back != anyRefused {
				rt.Fatalf("forward journal, refused %v: back %v", anyRefused, pl.back)
			}
			if anyRefused != (len(pl.causes) > 0) {
				rt.Fatalf("causes %v, refused %v", pl.causes, anyRefused)
			}
		case phaseBack:
			if !pl.back || len(pl.causes) > 0 {
				rt.Fatalf("a back journal is taken back and turned nothing: %+v", pl)
			}
		}
	})
}

// Whichever directories on the ways of a commit's files an attacker swaps
// for links (into .git/hooks, out of the root, to the home) after the
// commit was killed at whichever step, recovery changes nothing outside
// the root nor under .git, and leaves no journal.
func TestLaw_recovery_never_follows_links(t *testing.T) {
	if _, err := NewDisk().OpenTree(t.TempDir(), true); err != nil {
		t.Skipf("this kernel has no openat2: %v", err)
	}
	if l := filepath.Join(t.TempDir(), "link"); os.Symlink(".", l) != nil {
		t.Skip("this system makes no symlink (Windows without the privilege to)")
	} else if _, err := os.Lstat(l); err != nil {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	rapid.Check(t, func(rt *rapid.T) {
		base, err := os.MkdirTemp("", "recoverlaw")
		if err != nil {
			rt.Fatal(err)
		}
		defer os.RemoveAll(base)
		home := filepath.Join(base, "home")
		root := filepath.Join(home, "proj")
		jdir := filepath.Join(base, "journal")
		guarded := map[string]string{
			filepath.Join(home, ".bashrc"):                 "x\n",
			filepath.Join(root, ".git", "config"):          "x\n",
			filepath.Join(root, ".git", "hooks", "keep"):   "x\n",
			filepath.Join(base, "outside", "x.txt"):        "x\n",
			filepath.Join(base, "outside", "d1", "f0.txt"): "x\n",
		}
		for p, s := range guarded {
			mustWrite(rt, p, s)
		}
		dirs := []string{"d0", "d1", "d2"}
		var cs []Change
		for i, d := range dirs {
			name := filepath.Join(root, d, fmt.Sprintf("f%d.txt", i))
			mustWrite(rt, name, "x\n")
			cs = append(cs, Change{Path: name, Old: []byte("x\n"), New: []byte("#!/bin/sh\n")})
			mustWrite(rt, filepath.Join(root, d, "x.txt"), "x\n")
			// a bare move of a copy of a guarded file, and a created file
			cs = append(cs, Change{Path: filepath.Join(root, d, "x.txt"), Old: []byte("x\n"), MoveTo: filepath.Join(root, dirs[(i+1)%len(dirs)], fmt.Sprintf("m%d", i))})
			cs = append(cs, Change{Path: filepath.Join(root, d, fmt.Sprintf("new%d", i)), Create: true, New: []byte("x\n")})
		}
		steps := []string{"journal", "rename", "link", "unlink", "discard", "dirsync", "unjournal"}
		step := rapid.SampledFrom(steps).Draw(rt, "crash at")
		nth := rapid.IntRange(1, 3).Draw(rt, "nth")
		d := NewDisk()
		d.Journal, d.Root = jdir, root
		seen := 0
		d.Fault = func(s, _ string) error {
			if s == step {
				seen++
			}
			if seen >= nth {
				return fmt.Errorf("crash")
			}
			return nil
		}
		d.Commit(cs)
		d.Fault = nil
		targets := []string{filepath.Join(root, ".git", "hooks"), filepath.Join(base, "outside"), home, filepath.Join(root, ".git")}
		for _, dd := range dirs {
			if rapid.Bool().Draw(rt, "swap "+dd) {
				p := filepath.Join(root, dd)
				if err := os.Rename(p, p+".was"); err != nil {
					rt.Fatal(err)
				}
				if err := os.Symlink(rapid.SampledFrom(targets).Draw(rt, "to"), p); err != nil {
					rt.Fatal(err)
				}
			}
		}
		before := snapshotOf(base, root)
		rs := d.Recover()
		after := snapshotOf(base, root)
		for p, v := range after {
			if before[p] != v {
				rt.Fatalf("recovery changed %s: %+v", p, rs)
			}
		}
		for p := range before {
			if _, ok := after[p]; !ok {
				rt.Fatalf("recovery removed %s: %+v", p, rs)
			}
		}
		if js := journalsIn(jdir); len(js) > 0 {
			rt.Fatalf("journals left: %v", js)
		}
	})
}

// snapshotOf is every entry under base outside root or under a .git, with
// its type and bytes.
func snapshotOf(base, root string) map[string]string {
	out := map[string]string{}
	filepath.Walk(base, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return nil
		}
		if (p == root || strings.HasPrefix(p, root+"/")) && !strings.Contains(p, "/.git") {
			return nil
		}
		if strings.HasPrefix(p, filepath.Join(base, "journal")) {
			return nil
		}
		b, _ := os.ReadFile(p)
		out[p] = fi.Mode().String() + " " + string(b)
		return nil
	})
	return out
}
