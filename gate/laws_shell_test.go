package gate

import (
	"runtime"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// G2 and S7.8: a step's effects and the auto set. The gate over a script
// (gate_prefix, gate_needs_yes, gate_deny_stops, gate_finish_runs_all,
// auto_runs_within, held_needs_a_yes) is tested on the shell's runner
// running real steps: agent/shell/laws_test.go.

func genPart(t *rapid.T) Part {
	return Part{Own: genEffects(t, "own"), NamesSecret: rapid.Bool().Draw(t, "secret")}
}

func genParts(t *rapid.T) []Part { return rapid.SliceOfN(rapid.Custom(genPart), 0, 6).Draw(t, "parts") }

func TestLaw_step_holds_every_part(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		parts := genParts(t)
		step := JoinParts(parts)
		for _, p := range parts {
			if !p.Effects().SubsetOf(step) {
				t.Fatalf("step %s lacks part %s", step, p.Effects())
			}
		}
	})
	// And so does every step the classifier makes.
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		sc, err := w.shell(w.root).Classify(genScript(t))
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sc.Steps {
			if st.Effects != JoinParts(st.Parts) {
				t.Fatalf("step %q: effects %s, parts join to %s", st.Text, st.Effects, JoinParts(st.Parts))
			}
		}
	})
}

func TestLaw_secret_needs_a_secret_path(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the law's steps name Unix paths and the world's links (keys to ~/.ssh), and tell a secret path by its Unix spelling; a Windows home is C:\\ spelled and quoted")
	}
	rapid.Check(t, func(t *rapid.T) {
		parts := genParts(t)
		named := false
		for _, p := range parts {
			named = named || p.NamesSecret
		}
		if JoinParts(parts).Has(Secret) && !named {
			t.Fatalf("secret with no part naming a secret path: %+v", parts)
		}
	})
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		script := genScript(t)
		sc, err := w.shell(w.root).Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sc.Steps {
			if st.Effects.Has(Secret) && !namesASecret(st.Text, w) {
				t.Fatalf("step %q of %q has secret but names no secret path", st.Text, script)
			}
		}
	})
}

func TestLaw_secret_path_gives_secret(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the law's steps name Unix paths and the world's links (keys to ~/.ssh), and tell a secret path by its Unix spelling; a Windows home is C:\\ spelled and quoted")
	}
	rapid.Check(t, func(t *rapid.T) {
		parts := genParts(t)
		for _, p := range parts {
			if p.NamesSecret && !JoinParts(parts).Has(Secret) {
				t.Fatalf("a part names a secret, the step has no secret: %+v", parts)
			}
		}
	})
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		script := genScript(t)
		sc, err := w.shell(w.root).Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		for _, st := range sc.Steps {
			if namesASecret(st.Text, w) && !st.Effects.Has(Secret) {
				t.Fatalf("step %q of %q names a secret path but has no secret", st.Text, script)
			}
		}
	})
}

func TestLaw_auto_needs_every_effect(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects")
		for _, e := range effs.List() {
			if (!auto.Effects().Has(e) || e == Secret) && auto.Holds(effs) {
				t.Fatalf("%s runs unasked under %s though %s is not in it", effs, auto, e)
			}
		}
	})
}

func TestLaw_auto_never_sensitive(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, effs := genAuto(t), genEffects(t, "effects").With(Secret)
		if auto.Holds(effs) || !auto.Asks(effs) {
			t.Fatalf("%s runs unasked under %s", effs, auto)
		}
		// No name list makes an auto set that holds secret.
		names := rapid.SliceOf(rapid.SampledFrom(append(effectNames[:], "all", ""))).Draw(t, "names")
		if a, err := ParseAutoSet(names); err == nil && a.Effects().Has(Secret) {
			t.Fatalf("%v made an auto set with secret", names)
		}
	})
}

func TestLaw_composed_needs_every_part(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		auto, parts := genAuto(t), genParts(t)
		if !auto.Holds(JoinParts(parts)) {
			return
		}
		for _, p := range parts {
			if !auto.Holds(p.Effects()) {
				t.Fatalf("step runs unasked under %s with part %s outside it", auto, p.Effects())
			}
		}
	})
}

// Scripts for the classifier laws: table commands and commands not in it,
// secret and plain paths, redirections, joined every way the grammar
// allows.
var (
	scriptCommands = []string{"cat", "ls", "echo", "rm -f", "git log", "sed -n p", "grep -r x",
		"touch", "cp", "curl -o out", "bash -c true", "sort", "head", "python3", "find", "wc", "tee",
		"git -C src ls-files", "rg x", "du", "mv"}
	plainPaths  = []string{"a.txt", "src", "src/main.go", "/tmp/x", "../proj_extra/y", "-n", "'a b'", "notes"}
	secretPaths = []string{"~/.ssh/id_ed25519", "~/.netrc", "keys/id_ed25519", "~", "$HOME/.aws/config", "keys"}
	joiners     = []string{"; ", " && ", " || ", " | ", "\n"}
)

func genScript(t *rapid.T) string {
	n := rapid.IntRange(1, 4).Draw(t, "steps")
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(rapid.SampledFrom(joiners).Draw(t, "join"))
		}
		b.WriteString(rapid.SampledFrom(scriptCommands).Draw(t, "command"))
		words := rapid.IntRange(0, 3).Draw(t, "words")
		for j := 0; j < words; j++ {
			pool := plainPaths
			if rapid.IntRange(0, 3).Draw(t, "secret?") == 0 {
				pool = secretPaths
			}
			b.WriteString(" " + rapid.SampledFrom(pool).Draw(t, "word"))
		}
		switch rapid.IntRange(0, 5).Draw(t, "redirect") {
		case 0:
			b.WriteString(" > " + rapid.SampledFrom(append(plainPaths[:5:5], secretPaths...)).Draw(t, "to"))
		case 1:
			b.WriteString(" < " + rapid.SampledFrom(append(plainPaths[:5:5], secretPaths...)).Draw(t, "from"))
		}
	}
	return b.String()
}

// namesASecret reports whether a shown step names one of the secret words,
// as written or expanded.
func namesASecret(text string, w *world) bool {
	for _, f := range strings.Fields(text) {
		switch {
		case f == w.home, f == "keys",
			strings.HasPrefix(f, w.home+"/.ssh"), strings.HasPrefix(f, w.home+"/.netrc"),
			strings.HasPrefix(f, w.home+"/.aws"), strings.HasPrefix(f, "keys/"):
			return true
		}
	}
	return false
}
