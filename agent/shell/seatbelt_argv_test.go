package shell

import (
	"slices"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/confine"
)

// What macOS runs for a confined program: sandbox-exec, the profile with
// every path as a -D parameter (none in the text, however the names
// read), "--", then the program and its own arguments untouched.
func TestSeatbeltArgvRunsTheProgramAfterTheProfile(t *testing.T) {
	root := "/Users/u/proj \"x\"; (allow default)"
	s := confine.Plan(gate.Of(gate.Read, gate.Write), confine.Places{
		Roots:   []string{root},
		Secrets: []confine.Entry{{Path: "/Users/u/.ssh", Dir: true}},
		TempDir: "/private/var/folders/t/eukhe-session-1",
		KeepTmp: true,
	})
	argv := seatbeltArgv(s, "/usr/bin/git", []string{"git", "-C", root, "status"})
	if argv[0] != "sandbox-exec" || argv[1] != "-p" {
		t.Fatalf("argv starts %q", argv[:2])
	}
	profile := argv[2]
	for _, p := range []string{root, "/Users/u/.ssh"} {
		if strings.Contains(profile, p) {
			t.Errorf("the profile's text holds the path %q", p)
		}
	}
	if !strings.Contains(profile, "(deny default)") {
		t.Errorf("the profile does not deny by default:\n%s", profile)
	}
	dash := slices.Index(argv, "--")
	if dash < 0 {
		t.Fatalf("no -- before the program: %q", argv)
	}
	if got := argv[dash+1:]; !slices.Equal(got, []string{"/usr/bin/git", "-C", root, "status"}) {
		t.Errorf("after --: %q", got)
	}
	var params []string
	for i := 3; i < dash; i += 2 {
		if argv[i] != "-D" {
			t.Fatalf("argv[%d] = %q, want -D", i, argv[i])
		}
		params = append(params, argv[i+1])
	}
	for _, p := range []string{root, "/Users/u/.ssh"} {
		if !slices.ContainsFunc(params, func(kv string) bool { return strings.HasSuffix(kv, "="+p) }) {
			t.Errorf("no parameter gives %q: %q", p, params)
		}
	}
}
