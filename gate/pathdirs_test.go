package gate

import (
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The PATH world: a root /w, directories outside it, links both ways,
// and commands planted anywhere.
var (
	pathWorldDirs = []string{"/w", "/w/bin", "/w/sub", "/w/sub/bin", "/usr", "/usr/bin", "/opt", "/opt/bin",
		"/home", "/home/u", "/tmp"}
	pathWorldLinks = map[string]string{
		"/opt/into-w":   "/w/bin",   // outside, leading into the workspace
		"/w/to-usr":     "/usr/bin", // in the workspace, leading out: the agent can repoint it
		"/opt/via":      "/w/to-usr",
		"/opt/loop":     "/opt/loop",
		"/home/u/bin":   "../../w/sub/bin",
		"/usr/bin/tool": "/w/bin/ls", // a program linked into the workspace (npm link, pip -e)
	}
	pathEntries = []string{"", ".", "bin", "sub", "./bin", "sub/bin", "../bin", "/w/bin", "/w/sub/bin", "/w/missing",
		"/w/bin/../sub/bin", "/usr/bin", "/opt/bin", "/opt/into-w", "/w/to-usr", "/opt/via", "/opt/loop",
		"/home/u/.local/bin", "/home/u/bin", "/usr/bin/", "/nowhere/bin"}
	pathCommands = []string{"ls", "sort", "git", "cat", "tool"}
	pathCwds     = []string{"/w", "/w/sub", "/w/bin", "/opt", "/usr/bin", "/home/u"}
)

func genPathWorld(t *rapid.T) fakeFS {
	f := fakeFS{}
	for _, d := range pathWorldDirs {
		f[d] = fakeNode{kind: KindDir}
	}
	for l, target := range pathWorldLinks {
		f[l] = fakeNode{kind: KindLink, target: target}
	}
	for _, d := range pathWorldDirs {
		for _, c := range pathCommands {
			if c != "tool" && rapid.IntRange(0, 2).Draw(t, "plant "+d+"/"+c) == 0 {
				f[d+"/"+c] = fakeNode{kind: KindFile}
			}
		}
	}
	return f
}

// underRoot is the law's own reading of "in the workspace": the path as
// written (made absolute against cwd) or its real path lies in /w.
func underRoot(p *Policy, cwd, path string) bool {
	abs := cleanAbs(cwd, path)
	return under(abs, "/w") || under(p.Resolve(cwd, path).Path, "/w")
}

// The law path_entry_judged: for any PATH and working directory, the
// program a command word finds is never found through a relative, empty
// or missing entry (those are dropped, from the lookup and from what a
// program gets as PATH), and one found through an entry in the workspace,
// or whose own path leads into it, makes its step exec. A step that is not
// exec runs a program whose real path is outside the workspace.
func TestLaw_path_entry_judged(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genPathWorld(t)
		p := NewPolicy(fsys, []string{"/w"}, nil, nil)
		n := rapid.IntRange(0, 6).Draw(t, "entries")
		entries := make([]string, n)
		for i := range entries {
			entries[i] = rapid.SampledFrom(pathEntries).Draw(t, "entry")
		}
		path := strings.Join(entries, ":")
		cwd := rapid.SampledFrom(pathCwds).Draw(t, "cwd")
		name := rapid.SampledFrom(pathCommands).Draw(t, "name")
		sh := &Shell{Policy: p, Dir: cwd, Env: map[string]string{"PATH": path, "HOME": "/home/u"}}
		sc, err := sh.Classify(name + " a.txt")
		if err != nil || len(sc.Steps) != 1 {
			t.Fatalf("classify: %v %v", sc, err)
		}
		st := sc.Steps[0]
		judged := p.JudgePath(path, nil)
		for _, e := range judged {
			relative := !strings.HasPrefix(e.Entry, "/")
			missing := !relative && fsys.Kind(p.Resolve("/", e.Entry).Path) != KindDir
			if e.Kept() && (relative || missing) {
				t.Fatalf("entry %q kept as %s", e.Entry, e.Kind)
			}
			if e.Kept() && underRoot(p, "/", e.Entry) && !e.SuppliesExec() {
				t.Fatalf("entry %q in the workspace judged %s", e.Entry, e.Kind)
			}
		}
		for _, k := range strings.Split(KeptPath(judged, true), ":") {
			if k != "" && !strings.HasPrefix(k, "/") {
				t.Fatalf("a relative entry %q reaches a program's PATH (%q)", k, path)
			}
		}
		for _, k := range strings.Split(KeptPath(judged, false), ":") {
			if k != "" && underRoot(p, "/", k) {
				t.Fatalf("an entry in the workspace %q reaches the PATH of a program that may not exec", k)
			}
		}
		f, ok := p.LookCommand(name, judged, "")
		if !ok {
			return
		}
		if !f.Entry.Kept() {
			t.Fatalf("%s found through dropped entry %q", name, f.Entry.Entry)
		}
		inWS := underRoot(p, "/", f.Entry.Entry) || underRoot(p, "/", f.Path)
		if inWS && !st.Effects.Has(Exec) {
			t.Fatalf("PATH=%q cwd %s: %s runs %s from the workspace, judged %s", path, cwd, name, f.Path, st.Effects)
		}
		if !st.Effects.Has(Exec) && under(p.Resolve("/", f.Path).Path, "/w") {
			t.Fatalf("a step that is not exec runs %s", f.Path)
		}
	})
}

// A PATH directory missing when the session looked, and there at a later
// step, supplies exec: a step made it after the session began.
func TestPathEntryThatAppearsSuppliesExec(t *testing.T) {
	if !filepath.IsAbs("/w") {
		t.Skip("the file system and PATH here are Unix paths (absolute from /, split at ':'), which Windows reads otherwise")
	}
	fsys := fakeFS{"/home": {kind: KindDir}, "/home/u": {kind: KindDir}, "/usr": {kind: KindDir},
		"/usr/bin": {kind: KindDir}, "/usr/bin/ls": {kind: KindFile}, "/w": {kind: KindDir}}
	p := NewPolicy(fsys, []string{"/w"}, nil, nil)
	var seen PathSeen
	path := "/home/u/.local/bin:/w/bin:/usr/bin"
	sh := &Shell{Policy: p, Dir: "/w", Env: map[string]string{"PATH": path}, PathSeen: &seen}
	step := func() Step {
		sc, err := sh.Classify("ls")
		if err != nil {
			t.Fatal(err)
		}
		return sc.Steps[0]
	}
	if st := step(); st.Effects.Has(Exec) {
		t.Fatalf("ls from /usr/bin judged %s", st.Effects)
	}
	if got := KeptPath(seen.Judge(p, path), true); got != "/usr/bin" {
		t.Fatalf("kept %q, want the existing entry only", got)
	}
	// a step makes both, and plants ls in each
	for _, d := range []string{"/home/u/.local", "/home/u/.local/bin", "/w/bin"} {
		fsys[d] = fakeNode{kind: KindDir}
	}
	fsys["/home/u/.local/bin/ls"] = fakeNode{kind: KindFile}
	fsys["/w/bin/ls"] = fakeNode{kind: KindFile}
	st := step()
	if !st.Effects.Has(Exec) || !strings.Contains(st.Parts[len(st.Parts)-1].Why+st.Parts[0].Why, "made during the session") {
		t.Fatalf("ls from a PATH directory made during the session judged %s %v", st.Effects, st.Parts)
	}
	delete(fsys, "/home/u/.local/bin/ls")
	if st := step(); !st.Effects.Has(Exec) {
		t.Fatalf("ls from a PATH directory in the workspace judged %s", st.Effects)
	}
	// a session that never saw it missing takes it as it is
	if e := p.JudgePath("/home/u/.local/bin", nil); e[0].Kind != PathOutside {
		t.Fatalf("got %s", e[0].Kind)
	}
	// a builtin is never looked up
	fsys["/home/u/.local/bin/echo"] = fakeNode{kind: KindFile}
	sc, _ := sh.Classify("echo hi")
	if sc.Steps[0].Effects.Has(Exec) {
		t.Fatalf("echo (a builtin) judged %s", sc.Steps[0].Effects)
	}
}
