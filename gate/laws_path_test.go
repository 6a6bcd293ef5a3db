package gate

import (
	"context"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// G1: the path policy. Every input is free: any symlinks (loops too), any
// paths, any auto set, any answers.

// A path through a link under /proc keeps that link (proc.go): the policy
// does not trust it, and judges it Secret whole.
func TestLaw_path_real_has_no_link(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		r := Resolve(fsys, lawRoot, genPath(t, "path"))
		if r.Looped {
			return
		}
		parts := splitPath(r.Path)
		for i := 1; i <= len(parts); i++ {
			if p := joinPath(parts[:i]); fsys.Kind(p) == KindLink {
				if under(p, "/proc") {
					if c := lawPlaces().Policy(fsys).Class(r); c != ClassSecret {
						t.Fatalf("real path %s keeps the /proc link %s, yet is %s", r.Path, p, c)
					}
					return
				}
				t.Fatalf("real path %s has the link %s", r.Path, p)
			}
		}
	})
}

func TestLaw_path_secret_wins(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		pol := lawPlaces().Policy(fsys)
		r := Resolve(fsys, lawRoot, genPath(t, "path"))
		r.Looped = rapid.Bool().Draw(t, "looped")
		for _, s := range pol.secrets {
			if under(r.Path, s) && pol.Class(r) != ClassSecret {
				t.Fatalf("%s is under the secret %s but is %s", r.Path, s, pol.Class(r))
			}
		}
	})
}

func TestLaw_path_inside_is_safe(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		pol := lawPlaces().Policy(fsys)
		r := Resolve(fsys, lawRoot, genPath(t, "path"))
		r.Looped = r.Looped || rapid.Bool().Draw(t, "looped")
		if pol.Class(r) != ClassInside {
			return
		}
		if r.Looped {
			t.Fatalf("looped %s is inside", r.Path)
		}
		if pol.HoldsSecret(r) {
			t.Fatalf("inside %s is or holds a secret", r.Path)
		}
		if pol.protects(r.Path) {
			t.Fatalf("inside %s is protected", r.Path)
		}
		for _, e := range pol.entries {
			if e != r.Path && under(e, r.Path) {
				t.Fatalf("inside %s is an ancestor of %s", r.Path, e)
			}
		}
		held := false
		for _, root := range pol.roots {
			held = held || under(r.Path, root)
		}
		if !held {
			t.Fatalf("inside %s is under no root", r.Path)
		}
	})
}

func TestLaw_path_ancestor_guarded(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		pol := lawPlaces().Policy(fsys)
		e := rapid.SampledFrom(pol.entries).Draw(t, "entry")
		parts := splitPath(e)
		k := rapid.IntRange(0, len(parts)-1).Draw(t, "depth")
		anc := RealPath{Path: joinPath(parts[:k]), Looped: rapid.Bool().Draw(t, "looped")}
		if c := pol.Class(anc); c != ClassProtected && c != ClassSecret {
			t.Fatalf("%s is an ancestor of %s but is %s", anc.Path, e, c)
		}
	})
}

// answering is a route of one session whose client gives a: what
// route.Chain of one route.Headless with that Client does (gate cannot
// import gate/route). A cell's call asks no one.
type answering Answer

func (a answering) Ask(ctx context.Context, _ Question) Answer {
	if IsInCell(ctx) {
		return Unanswered
	}
	return Answer(a)
}

func (answering) Hint() string    { return "" }
func (answering) Unheard() string { return "" }

func docsGate(t *rapid.T, fsys FS) (*DocumentsGate, AutoSet) {
	auto := genAuto(t)
	return &DocumentsGate{Policy: lawPlaces().Policy(fsys), Dir: lawRoot,
		Auto: func() AutoSet { return auto }}, auto
}

func TestLaw_gate_write_auto_never_secret(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		g, _ := docsGate(t, fsys)
		v := g.Judge(genPath(t, "path"), true)
		if !v.Asks && (v.Class == ClassSecret || v.Effects.Has(Secret)) {
			t.Fatalf("a write to the secret %s runs without a yes", v.Real.Path)
		}
		// With no client, it does not run either.
		if v.Class == ClassSecret && g.Allow(context.Background(), v) == nil {
			t.Fatalf("a write to the secret %s ran with no client", v.Real.Path)
		}
	})
}

func TestLaw_gate_secret_read_needs_yes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		g, _ := docsGate(t, fsys)
		a := genAnswer(t, "answer")
		g.Chain = answering(a)
		access := rapid.SampledFrom([]Access{ReadAccess, SearchAccess}).Draw(t, "access")
		v := g.JudgeAccess(genPath(t, "path"), access)
		if !v.Effects.Has(Secret) {
			return
		}
		if !v.Asks {
			t.Fatalf("a %s of secret %s does not ask", access, v.Real.Path)
		}
		if ran := g.Allow(context.Background(), v) == nil; ran != (a == Approve) {
			t.Fatalf("a %s of secret %s ran=%v on %s", access, v.Real.Path, ran, a)
		}
	})
}

func TestLaw_gate_yes_runs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		g, _ := docsGate(t, fsys)
		g.Chain = answering(Approve)
		access := rapid.SampledFrom([]Access{ReadAccess, SearchAccess, WriteAccess}).Draw(t, "access")
		v := g.JudgeAccess(genPath(t, "path"), access)
		if err := g.Allow(context.Background(), v); err != nil {
			t.Fatalf("approved %s did not run: %v", v.Real.Path, err)
		}
	})
}

func TestLaw_gate_inside_write_runs(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		g, auto := docsGate(t, fsys)
		v := g.Judge(genPath(t, "path"), true)
		if v.Class == ClassInside && auto.Effects().Has(Write) {
			if v.Asks || g.Allow(context.Background(), v) != nil {
				t.Fatalf("inside write %s under auto set %s asks", v.Real.Path, auto)
			}
		}
	})
}

// secrets_need_yes: no sequence of agent writes without a yes changes a
// secret, even when links are made and moved between the gate's judgement
// and the writer's lock (G1.6, G1.7). The writer does what docs does: judge
// once, allow, then under its lock re-resolve with SameReal and write the
// real path only when it did not change.
func TestLaw_secrets_need_yes(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		g, _ := docsGate(t, fsys)
		g.Chain = answering(rapid.SampledFrom([]Answer{Unanswered, Deny, GatewayRefused}).Draw(t, "no"))
		pol := g.Policy
		isSecret := func(p string) bool { return pol.Class(RealPath{Path: p}) == ClassSecret }
		before := map[string]fakeNode{}
		for p, n := range fsys {
			if isSecret(p) {
				before[p] = n
			}
		}
		steps := rapid.IntRange(1, 8).Draw(t, "steps")
		for i := 0; i < steps; i++ {
			path := genPath(t, "path")
			v := g.Judge(path, true)
			if g.Allow(context.Background(), v) != nil {
				continue
			}
			// Someone moves a link between the gate and the lock.
			if rapid.Bool().Draw(t, "swap") {
				at := genPath(t, "swap-at")
				if !strings.HasPrefix(at, "/") {
					at = lawRoot + "/" + at
				}
				at = cleanAbs("/", at)
				if at != "/" && fsys.Kind(parentOf(at)) == KindDir {
					fsys[at] = fakeNode{kind: KindLink, target: genPath(t, "swap-to")}
				}
			}
			if !g.SameReal(path, v.Real.Path) {
				continue
			}
			// The kernel writes through whatever links the path has now.
			dest := Resolve(fsys, "/", v.Real.Path)
			if dest.Looped || fsys.Kind(parentOf(dest.Path)) != KindDir {
				continue
			}
			fsys[dest.Path] = fakeNode{kind: KindFile, target: "written"}
		}
		for p, n := range fsys {
			if isSecret(p) && n.target == "written" {
				t.Fatalf("a write without a yes changed the secret %s (was %v)", p, before[p])
			}
		}
	})
}

// The concrete attacks the issue names.
func TestPolicyHoldsAgainstKnownTricks(t *testing.T) {
	needSymlinks(t)
	w := newWorld(t)
	g := &DocumentsGate{Policy: w.policy, Dir: w.root}
	for path, want := range map[string]Class{
		w.root + "/a.txt":                   ClassInside,
		w.root + "_extra/x":                 ClassOutside, // a prefix of the root is not the root
		w.root + "/../proj_extra/x":         ClassOutside,
		"keys/id_ed25519":                   ClassSecret, // committed symlink to ~/.ssh
		"keys/new":                          ClassSecret,
		"loop1/x":                           ClassOutside, // a loop is never inside
		"dangling":                          ClassOutside, // creates a file outside
		".git/config":                       ClassProtected,
		"sub/.git/hooks/post-checkout":      ClassProtected,
		".eukhe/settings.json":              ClassProtected,
		".vscode/settings.json":             ClassProtected,
		w.userDir + "/settings.json":        ClassSecret, // it holds the execution gates
		w.userDir + "/skills/x.md":          ClassProtected,
		w.userDir + "/auth.json":            ClassSecret,
		w.bin + "/ls":                       ClassProtected,
		w.home:                              ClassSecret, // above the user settings file (a write replaces it)
		w.userDir:                           ClassSecret,
		w.root:                              ClassProtected, // ancestor of its .eukhe
		"/":                                 ClassSecret,
		w.home + "/.netrc":                  ClassSecret,
		w.home + "/notes/todo.md":           ClassOutside,
		"src/../../.ssh/id_ed25519":         ClassSecret,
		"/../../" + w.home + "/.ssh/x/../y": ClassSecret,
	} {
		if got := g.Judge(path, true).Class; got != want {
			t.Errorf("%s is %s, want %s", path, got, want)
		}
	}
}

// A directory swapped for a symlink between the gate and the write: the
// writer's re-resolution sees it and writes nothing (G1.7).
func TestSameRealCatchesASwappedDirectory(t *testing.T) {
	needSymlinks(t)
	w := newWorld(t)
	g := &DocumentsGate{Policy: w.policy, Dir: w.root}
	v := g.Judge("src/main.go", true)
	if v.Class != ClassInside || v.Asks {
		t.Fatalf("src/main.go: %+v", v)
	}
	if !g.SameReal("src/main.go", v.Real.Path) {
		t.Fatal("an unchanged path does not resolve the same")
	}
	mustRename(t, w.root+"/src", w.root+"/src.old")
	mustLink(t, w.home+"/.ssh", w.root+"/src")
	if g.SameReal("src/main.go", v.Real.Path) {
		t.Fatal("a directory swapped for a link to ~/.ssh resolves the same")
	}
	if g.SameReal("loop1/x", w.root+"/loop1/x") {
		t.Fatal("a looped path passes the writer's check")
	}
}

// A write whose links looped asks even when its real path is inside.
func TestALoopedWriteAsksEvenInside(t *testing.T) {
	fsys := fakeFS{"/home": {kind: KindDir}, lawHome: {kind: KindDir}, lawRoot: {kind: KindDir},
		lawRoot + "/l": {kind: KindLink, target: "l"}}
	pol := lawPlaces().Policy(fsys)
	r := Resolve(fsys, lawRoot, "l/x")
	if !r.Looped {
		t.Fatalf("l/x did not loop: %+v", r)
	}
	v := pol.JudgeReal(r, WriteAccess, AutoOf(Of(Read, Write)))
	if v.Class == ClassInside || !v.Asks || !v.Effects.Has(Outside) {
		t.Fatalf("looped write %+v", v)
	}
}

// A read's verdict, which does not ask the protected rules (a read of a
// protected file is a read), has the effects the whole class gives it:
// the same secret, the same question.
func TestLaw_a_reads_verdict_is_what_its_whole_class_says(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		fsys := genFS(t)
		g, auto := docsGate(t, fsys)
		for _, a := range []Access{ReadAccess, SearchAccess} {
			v := g.JudgeAccess(genPath(t, "path"), a)
			want := AccessEffects(a, g.Policy.ClassRead(v.Real), g.Policy.HoldsSecret(v.Real))
			if v.Effects != want || v.Asks != auto.Asks(want) {
				t.Fatalf("%v of %s: %s asks=%v, the whole class gives %s", a, v.Real.Path, v.Effects, v.Asks, want)
			}
		}
	})
}
