package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
	"pgregory.net/rapid"
)

// Property tests of the rules of issue 12 that are laws: they hold for
// every input, not only the attacks of the table.

// procParts are the parts /proc paths are drawn from.
var procParts = []string{"self", "thread-self", "1", "2", fmt.Sprint(os.Getpid()), "cwd", "root",
	"fd", "0", "1", "2", "3", "environ", "task", "..", ".", "", "x", "cpuinfo", "proc", "home",
	"exe", "mem", "maps"}

// A path through a process's link (self, thread-self, a pid's cwd or
// root, /dev/fd) is Secret,
// whatever follows it, unless it is exactly a standard stream's alias; it
// never resolves outside /proc, so no "/.." can walk it back to a file
// the gate would judge as eukhe's.
func TestProperty_proc_link_is_secret(t *testing.T) {
	if !filepath.IsAbs("/proc") {
		t.Skip("/proc and /dev/fd are Linux's: Windows has neither")
	}
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		head := rapid.SampledFrom([]string{"/proc/self", "/proc/thread-self", "/proc/1/cwd",
			"/proc/" + fmt.Sprint(os.Getpid()) + "/root", "/proc/self/cwd", "/dev/fd", "/dev/stdin",
			"/dev/stdout"}).Draw(t, "head")
		rest := rapid.SliceOfN(rapid.SampledFrom(procParts), 0, 6).Draw(t, "rest")
		p := head + "/" + strings.Join(rest, "/")
		rp := w.policy.Resolve(w.root, p)
		if _, stream := StreamFD(rp.Path); stream {
			return
		}
		if !strings.HasPrefix(rp.Path, "/proc/") {
			t.Fatalf("%s resolved out of /proc, to %s", p, rp.Path)
		}
		if c := w.policy.Class(rp); c != ClassSecret || !w.policy.HoldsSecret(rp) {
			t.Fatalf("%s (real %s) is %s", p, rp.Path, c)
		}
	})
}

// Any path under /proc is Secret for every tool, but the harmless files
// and the stream aliases; and then for the shell too.
func TestProperty_proc_is_secret_for_every_tool(t *testing.T) {
	w := newWorld(t)
	g := &DocumentsGate{Policy: w.policy, Dir: w.root, Auto: func() AutoSet { return AutoOf(allEffects) }}
	rapid.Check(t, func(t *rapid.T) {
		rest := rapid.SliceOfN(rapid.SampledFrom(procParts), 1, 5).Draw(t, "rest")
		p := "/proc/" + strings.Join(rest, "/")
		rp := w.policy.Resolve("/", p)
		if procExempt(rp.Path) || !strings.HasPrefix(rp.Path, "/proc/") {
			return
		}
		for _, a := range []Access{ReadAccess, SearchAccess, WriteAccess} {
			if v := g.JudgeAccess(p, a); !v.Effects.Has(Secret) || !v.Asks {
				t.Fatalf("%s %s: %s", a, p, v.Effects)
			}
		}
		sc, err := w.shell(w.root).Classify("cat " + Visible(p))
		if err != nil {
			t.Fatal(err)
		}
		if !sc.Steps[0].Effects.Has(Secret) {
			t.Fatalf("cat %s: %s", p, sc.Steps[0].Effects)
		}
	})
}

// A value attached to a short option, after any group of flags, is judged
// as the same value given as a word of its own.
func TestProperty_attached_value_is_the_value(t *testing.T) {
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		flags := rapid.StringMatching(`[bdfgiMhnRrVcsuz]{0,4}`).Draw(t, "flags")
		opt := rapid.SampledFrom([]string{"o", "T"}).Draw(t, "opt")
		val := rapid.SampledFrom([]string{"/var/tmp/x", ".git/hooks/h", w.home + "/.ssh/k",
			"../proj_extra/y", "out.txt", w.bin + "/ls"}).Draw(t, "value")
		attached, err := w.shell(w.root).Classify("sort -" + flags + opt + val + " a.txt")
		if err != nil {
			t.Fatal(err)
		}
		apart, err := w.shell(w.root).Classify("sort -" + opt + " " + val + " a.txt")
		if err != nil {
			t.Fatal(err)
		}
		if a, b := attached.Steps[0].Effects, apart.Steps[0].Effects; !b.SubsetOf(a) {
			t.Fatalf("sort -%s%s%s is %s; with the value apart it is %s", flags, opt, val, a, b)
		}
	})
}

// A file: URL names its path in any spelling curl accepts: the scheme in
// any letter case, with or without localhost, any byte percent-encoded.
func TestProperty_file_url_is_a_path(t *testing.T) {
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		var scheme strings.Builder
		for _, c := range "file" {
			if rapid.Bool().Draw(t, "upper") {
				c -= 'a' - 'A'
			}
			scheme.WriteRune(c)
		}
		host := rapid.SampledFrom([]string{"//", "//localhost", "", "//LOCALHOST"}).Draw(t, "host")
		secret := rapid.SampledFrom([]string{w.home + "/.ssh/id_ed25519", w.home + "/.netrc",
			w.userDir + "/auth.json"}).Draw(t, "secret")
		var path strings.Builder
		for i := 0; i < len(secret); i++ {
			if secret[i] != '/' && rapid.IntRange(0, 4).Draw(t, "encode") == 0 {
				fmt.Fprintf(&path, "%%%02x", secret[i])
			} else {
				path.WriteByte(secret[i])
			}
		}
		url := scheme.String() + ":" + host + path.String()
		sc, err := w.shell(w.root).Classify("curl " + Visible(url))
		if err != nil {
			t.Fatal(err)
		}
		if !sc.Steps[0].Effects.Has(Secret) {
			t.Fatalf("curl %s: %s", url, sc.Steps[0].Effects)
		}
	})
}

// A link to a secret at any depth of a tree makes every command that
// follows links under it secret; a command that does not follow them
// stays a plain read.
func TestProperty_walk_finds_a_link_at_any_depth(t *testing.T) {
	w := newWorld(t)
	if _, err := os.Lstat(filepath.Join(w.root, "keys")); err != nil {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	n := 0
	rapid.Check(t, func(t *rapid.T) {
		n++
		tree := filepath.Join(w.root, fmt.Sprintf("t%d", n))
		depth := rapid.IntRange(0, 5).Draw(t, "depth")
		dir := tree
		for i := 0; i < depth; i++ {
			dir = filepath.Join(dir, rapid.SampledFrom([]string{"a", "b", ".hidden", "node_modules"}).Draw(t, "dir"))
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		target := rapid.SampledFrom([]string{w.home + "/.ssh", w.home + "/.netrc", w.home,
			w.home + "/.ssh/id_ed25519"}).Draw(t, "target")
		if err := os.Symlink(target, filepath.Join(dir, "k")); err != nil {
			t.Fatal(err)
		}
		defer os.RemoveAll(tree)
		rel := filepath.Base(tree)
		follows := rapid.SampledFrom([]string{"grep -R x ", "rg -L x ", "find -L ", "ls -LR ",
			"du -L ", "cp -rL out ", "diff -r src "}).Draw(t, "follows")
		plain := rapid.SampledFrom([]string{"grep -r x ", "rg x ", "find ", "ls -R ", "du ",
			"cp -r out "}).Draw(t, "plain")
		sc, err := w.shell(w.root).Classify(follows + rel)
		if err != nil {
			t.Fatal(err)
		}
		if !sc.Steps[0].Effects.Has(Secret) {
			t.Fatalf("%s%s with a link to %s at depth %d: %s", follows, rel, target, depth, sc.Steps[0].Effects)
		}
		sc, err = w.shell(w.root).Classify(plain + rel)
		if err != nil {
			t.Fatal(err)
		}
		if sc.Steps[0].Effects.Has(Secret) {
			t.Fatalf("%s%s does not follow links, yet is %s", plain, rel, sc.Steps[0].Effects)
		}
	})
}

// What the user is shown is what runs: bash (mvdan's parser and
// expansion, as the interpreter uses them) reads each shown word back as
// the word the gate judged, runtime-only parameters included.
func TestProperty_shown_word_reads_back(t *testing.T) {
	w := newWorld(t)
	rapid.Check(t, func(t *rapid.T) {
		pieces := rapid.SliceOfN(rapid.SampledFrom([]string{"a", "b c", "'", `"`, "$", "x_", "1",
			"\\", "*", "?", "~", "-", "é", "\t", "\u202e", "{a,b}", ";"}), 0, 4).Draw(t, "pieces")
		var word strings.Builder
		for _, p := range pieces {
			word.WriteString(p)
			if rapid.Bool().Draw(t, "param") {
				word.WriteString(runtimeMarker(rapid.SampledFrom([]string{"?", "!", "-", "RANDOM", "SRANDOM"}).Draw(t, "name")))
			}
		}
		if word.Len() == 0 {
			return
		}
		shown := Visible(word.String())
		f, err := syntax.NewParser().Parse(strings.NewReader("echo "+shown), "")
		if err != nil {
			t.Fatalf("the shown word %q does not parse: %v", shown, err)
		}
		r := (&Shell{Policy: w.policy, Dir: w.root, Env: map[string]string{}}).newRun()
		call := f.Stmts[0].Cmd.(*syntax.CallExpr)
		fields, ok := r.fields(call.Args[1:]...)
		if !ok || len(fields) != 1 || fields[0] != word.String() {
			t.Fatalf("%q is shown as %s, which reads back as %q", word.String(), shown, fields)
		}
	})
}
