package shell

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/route"
)

// world is a workspace for one test: a root, a directory outside it, a
// secret store, and a runner over them.
type world struct {
	t       testing.TB
	root    string
	outside string
	secret  string
	asker   *scripted
	runner  *Runner
}

func newWorld(t testing.TB, auto gate.AutoSet) *world {
	t.Helper()
	base := t.TempDir()
	base, err := filepath.EvalSymlinks(base)
	if err != nil {
		t.Fatal(err)
	}
	w := &world{t: t, root: filepath.Join(base, "root"), outside: filepath.Join(base, "outside"),
		secret: filepath.Join(base, "home", ".ssh")}
	for _, d := range []string{w.root, w.outside, w.secret} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	policy := gate.NewPolicy(gate.OS, []string{w.root}, []string{w.secret},
		[]gate.Rule{{Kind: gate.TreeRule, Path: filepath.Join(w.root, ".git")},
			{Kind: gate.NamedRule, Name: ".git"}})
	w.asker = &scripted{}
	w.runner = &Runner{
		Root: w.root,
		Env:  []string{"PATH=" + os.Getenv("PATH"), "HOME=" + filepath.Join(base, "home"), "LANG=C"},
		Gate: Gate{Policy: policy, Auto: func() gate.AutoSet { return auto },
			Chain: route.Chain{{Name: "test", Asker: route.Headless{Client: w.asker.answer}}}},
		Budget:    time.Minute,
		KillGrace: 500 * time.Millisecond,
	}
	t.Cleanup(func() { _ = w.runner.Close() })
	return w
}

func (w *world) run(script string) Result {
	w.t.Helper()
	return w.runner.Run(context.Background(), Request{Script: script})
}

func (w *world) path(name string) string { return filepath.Join(w.root, name) }

func (w *world) write(name, content string) {
	w.t.Helper()
	p := w.path(name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) read(name string) string {
	w.t.Helper()
	b, err := os.ReadFile(w.path(name))
	if err != nil {
		w.t.Fatal(err)
	}
	return string(b)
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// scripted answers questions from a list, in order; past its end it
// approves. It records each question.
type scripted struct {
	mu        sync.Mutex
	answers   []gate.Answer
	given     []gate.Answer // every answer given, in order
	questions []gate.Question
}

func (s *scripted) answer(_ context.Context, q gate.Question) gate.Answer {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.questions = append(s.questions, q)
	a := gate.Approve
	if len(s.answers) > 0 {
		a, s.answers = s.answers[0], s.answers[1:]
	}
	s.given = append(s.given, a)
	return a
}

func (s *scripted) asked() []gate.Question {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]gate.Question(nil), s.questions...)
}

func readOnly() gate.AutoSet { return gate.AutoOf(gate.Of(gate.Read)) }
