package shell

import "github.com/eukhe/eukhe/gate/confine"

// seatbeltArgv is the argv of a program run under Seatbelt: sandbox-exec,
// the plan's profile and its parameters (confine.SeatbeltProfile.Args, which
// ends with "--"), then the program and its arguments. Pure, so Linux's
// tests check what macOS runs.
func seatbeltArgv(s confine.Sandbox, path string, argv []string) []string {
	out := append([]string{"sandbox-exec"}, s.Seatbelt().Args()...)
	out = append(out, path)
	return append(out, argv[1:]...)
}
