package gate

import (
	"path"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A copy, move or link into a directory makes each source's base name in
// it; every such name is among the paths the step is judged to write
// (with -T too, which then only asks more: -T is not read here, since a
// value or POSIXLY_CORRECT can make it something else; the call drops
// only the names in a link that mv -T, ln -T or ln -n replaces, with -T
// and -n read exactly: facts.replaced), and mkdir -p's
// prefixes that a ".." cancels are too: a name no word shows whole is
// still judged.
func TestLaw_a_copy_into_a_directory_judges_each_name_it_makes(t *testing.T) {
	names := []string{"a.txt", "src", "eukhe", "eukhe-42", ".git", "hooks", "dir/sub", "x/"}
	rapid.Check(t, func(rt *rapid.T) {
		cmd := rapid.SampledFrom([]string{"cp", "mv", "ln"}).Draw(rt, "cmd")
		sources := rapid.SliceOfN(rapid.SampledFrom(names), 1, 3).Draw(rt, "sources")
		dest := rapid.SampledFrom([]string{"OUT", "OUT/", "/o/p", "run/"}).Draw(rt, "dest")
		form := rapid.SampledFrom([]string{"last", "-t", "--target-directory=", "-T"}).Draw(rt, "form")
		flags := rapid.SampledFrom([]string{"", "-r", "-s", "-f", "-a"}).Draw(rt, "flags")
		var args []string
		if flags != "" {
			args = append(args, flags)
		}
		switch form {
		case "-t":
			args = append(append(args, "-t", dest), sources...)
		case "--target-directory=":
			args = append(append(args, "--target-directory="+dest), sources...)
		case "-T":
			args = append(append(args, "-T"), sources[0], dest)
		default:
			args = append(append(args, sources...), dest)
		}
		c := commandOf("", false, append([]string{cmd}, args...))
		if form == "-T" {
			sources = sources[:1] // the form names one source
		}
		for _, src := range sources {
			want := strings.TrimRight(dest, "/") + "/" + path.Base(strings.TrimRight(src, "/"))
			in := slices.Contains(c.fc.derived, want)
			switch {
			case form == "last" && len(sources) == 1:
				// one source and a last operand: the name, or a name in
				// it, is known only to the file system; both are judged
				// (the word, and the derived name)
				if !in {
					rt.Fatalf("%s %q does not judge %s", cmd, args, want)
				}
			case !in:
				rt.Fatalf("%s %q makes %s, not judged: %q", cmd, args, want, c.fc.derived)
			}
		}
	})
	rapid.Check(t, func(rt *rapid.T) {
		parts := rapid.SliceOfN(rapid.SampledFrom([]string{"OUT", "a", "eukhe", "eukhe-7", "..", "."}), 1, 5).Draw(rt, "parts")
		word := strings.Join(parts, "/")
		c := commandOf("", false, []string{"mkdir", "-p", word})
		for i := 1; i < len(parts); i++ {
			last := parts[i-1]
			if last == ".." || last == "." || !slices.Contains(parts[i:], "..") {
				continue
			}
			if prefix := strings.Join(parts[:i], "/"); !slices.Contains(c.fc.derived, prefix) {
				rt.Fatalf("mkdir -p %s makes %s, which a later .. cancels, and does not judge it: %q", word, prefix, c.fc.derived)
			}
		}
	})
}
