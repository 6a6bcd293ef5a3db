//go:build linux

package gate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A copy reads its sources and writes its destination (roles.go): in
// the command's facts every source operand of cp is read (but cp -l and
// -s, which link to them), none is written, the destination (the last
// operand, or -t's value as a word of its own) is never read, and no
// other word has a role; mv's sources are written as links. Classified
// in a world, a copy from anywhere (outside the roots, the home, a
// protected file) into a plain workspace directory or the root is
// neither outside nor protected, and a copy of a secret is secret.
func TestLaw_a_copy_reads_its_sources_and_writes_its_destination(t *testing.T) {
	words := []string{"a.txt", "src", "../x", "/etc/hosts", "~/f", ".git/config", "d/", "-", "x=y"}
	rapid.Check(t, func(rt *rapid.T) {
		cmd := rapid.SampledFrom([]string{"cp", "mv"}).Draw(rt, "cmd")
		sources := rapid.SliceOfN(rapid.SampledFrom(words), 1, 3).Draw(rt, "sources")
		dest := rapid.SampledFrom([]string{".", "sub/", "OUT", "./c.txt"}).Draw(rt, "dest")
		byT := rapid.Bool().Draw(rt, "byT")
		flags := rapid.SliceOfN(rapid.SampledFrom([]string{"-r", "-f", "-a", "-v", "-l", "-s", "--parents", "-T"}), 0, 2).Draw(rt, "flags")
		args := append([]string(nil), flags...)
		if byT {
			args = append(append(args, "-t", dest), sources...)
		} else {
			args = append(append(args, sources...), dest)
		}
		f := commandFacts(cmd, args)
		linking := cmd == "cp" && (slices.Contains(flags, "-l") || slices.Contains(flags, "-s"))
		a := cpOpts.read(args)
		destAt := a.operandAt[len(a.operandAt)-1]
		if byT {
			destAt = slices.Index(args, "-t") + 1
		}
		for i := range args {
			role := f.roles[i]
			isSource := slices.Contains(a.operandAt, i) && i != destAt
			switch {
			case i == destAt && role == roleRead:
				t.Fatalf("%s %q: the destination %q is read only", cmd, args, args[i])
			case isSource && cmd == "cp" && !linking && role != roleRead:
				t.Fatalf("cp %q: the source %q is %v, not read", args, args[i], role)
			case isSource && cmd == "cp" && linking && role == roleRead:
				t.Fatalf("cp %q links to %q, which is read only", args, args[i])
			case isSource && cmd == "mv" && role != roleLink:
				t.Fatalf("mv %q: the source %q is %v, not a link written", args, args[i], role)
			case !isSource && i != destAt && role != roleAsCommand:
				t.Fatalf("%s %q: the option word %q has role %v", cmd, args, args[i], role)
			}
		}
	})

	base, home, root := redHome(t)
	must(t, os.MkdirAll(filepath.Join(root, ".git"), 0o755))
	must(t, os.WriteFile(filepath.Join(root, ".git", "config"), []byte("x"), 0o644))
	must(t, os.MkdirAll(filepath.Join(root, "sub"), 0o755))
	must(t, os.MkdirAll(filepath.Join(base, "tpl", "lib"), 0o755))
	must(t, os.WriteFile(filepath.Join(base, "tpl", "lib", "a.go"), []byte("x"), 0o644))
	must(t, os.MkdirAll(filepath.Join(home, "Downloads"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, "Downloads", "d.csv"), []byte("x"), 0o644))
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id"), []byte("k"), 0o600))
	p := r14policy(home, root)
	plain := []string{"~/Downloads/d.csv", "/etc/hosts", "../../tpl", "../../tpl/lib/a.go", ".git/config", "sub"}
	secret := []string{"~/.ssh/id", "~/.ssh"}
	rapid.Check(t, func(rt *rapid.T) {
		sources := rapid.SliceOfN(rapid.SampledFrom(append(plain, secret...)), 1, 3).Draw(rt, "sources")
		dest := rapid.SampledFrom([]string{".", "./", "sub", "sub/"}).Draw(rt, "dest")
		flags := rapid.SampledFrom([]string{"", "-r ", "-a ", "-rf ", "-rv "}).Draw(rt, "flags")
		script := "cp " + flags + strings.Join(sources, " ") + " " + dest
		if rapid.Bool().Draw(rt, "-t") {
			script = "cp " + flags + "-t " + dest + " " + strings.Join(sources, " ")
		}
		e := r13classify(t, p, root, home, script)
		if e.Has(Outside) || e.Has(Protected) {
			t.Fatalf("%q is %v: it writes only plain workspace entries", script, e)
		}
		reads := slices.ContainsFunc(sources, func(s string) bool { return slices.Contains(secret, s) })
		if reads != e.Has(Secret) {
			t.Fatalf("%q is %v: it reads a secret: %v", script, e, reads)
		}
	})
}
