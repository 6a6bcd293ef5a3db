package gate

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The command of a step, decided from its words alone (commandOf): a
// command an assignment precedes, or a program named by path, is exec
// (either may run anything); a declaration but a bare export changes the
// shell for the steps after it; only a name without a slash is looked up
// on PATH, and a program named by path is judged as a word.
func TestLaw_command_after_an_assignment_or_by_path_is_exec(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		names := []string{"ls", "cat", "git", "sed", "env", "cd", "rm", "./x", "/bin/sh", "a/b", "unknown-tool"}
		argv := rapid.SliceOfN(rapid.SampledFrom(append(names, "-n", "file", "/etc/passwd")), 0, 4).Draw(rt, "argv")
		decl := rapid.SampledFrom([]string{"", "", "", "export", "declare", "local", "readonly"}).Draw(rt, "decl")
		assigns := rapid.Bool().Draw(rt, "assigns")
		c := commandOf(decl, assigns, argv)
		byPath := decl == "" && len(argv) > 0 && strings.ContainsRune(argv[0], '/')
		switch {
		case decl != "":
			if c.name != decl || c.lookUp || c.pathNamed {
				rt.Fatalf("declaration %q: %+v", decl, c)
			}
			if !(decl == "export" && !assigns) && !(c.fc.state && c.fc.own.Has(Exec)) {
				rt.Fatalf("declaration %q assigning %v neither changes the shell nor is exec: %+v", decl, assigns, c)
			}
		case len(argv) == 0:
			if assigns != (c.name == "assignment") || assigns && !c.fc.state {
				rt.Fatalf("bare assignment %v: %+v", assigns, c)
			}
		case byPath:
			if !c.fc.own.Has(Exec) || !c.pathNamed || c.lookUp {
				rt.Fatalf("program by path %q: %+v", argv[0], c)
			}
		default:
			if !c.lookUp || c.pathNamed || c.name != argv[0] {
				rt.Fatalf("command %q is not looked up: %+v", argv[0], c)
			}
			if assigns && !c.fc.own.Has(Exec) {
				rt.Fatalf("an assignment before %q is not exec: %+v", argv[0], c)
			}
		}
	})
}
