package gate

import "testing"

// A final path as Windows gives it is put in the gate's form when it names
// a drive or a share, and refused when it names what the gate cannot place
// (a volume without a letter, Wine's Unix side): the path is then judged
// by its spelling.
func TestFinalPathsInTheGatesForm(t *testing.T) {
	for final, want := range map[string]string{
		`\\?\C:\Users\u\.ssh`:                                "/C:/Users/u/.ssh",
		`\\?\UNC\server\share\a`:                             "/UNC/server/share/a",
		`\\?\Volume{0aa1b2c3-0000-0000-0000-100000000000}\a`: "",
		`\\?\unix\home\u\.ssh`:                               "",
	} {
		got, ok := finalGateForm(final)
		if ok != (want != "") || got != want {
			t.Errorf("finalGateForm(%q) = %q, %v; want %q", final, got, ok, want)
		}
	}
}
