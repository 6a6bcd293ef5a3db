package gate

import "testing"

// The Windows red team's (under Wine): an administrative share reaches a
// whole disk (\\localhost\C$\Users\u\.ssh is C:\Users\u\.ssh), and NTFS
// compares names through its upcase table, where "ı" is "I".
func TestRedTeamWin_an_administrative_share_cannot_be_placed(t *testing.T) {
	for _, p := range []string{`\\localhost\C$\users\u\.ssh\id_rsa`, `\\?\UNC\127.0.0.1\c$\users\u\.ssh\id_rsa`, `//host/ADMIN$/x`} {
		if _, problem := WindowsCanonical(p); problem != ProblemAdminShare {
			t.Errorf("%s: problem %q, want %q", p, problem, ProblemAdminShare)
		}
	}
	if c, problem := WindowsCanonical(`\\server\projects\a`); problem != "" || c != "//server/projects/a" {
		t.Errorf("a plain share: %q %q", c, problem)
	}
}

func TestRedTeamWin_names_fold_through_the_upcase_table(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{".g\u0131t", ".git", true},  // dotless i upper-cases to I
		{".G\u0130T", ".git", false}, // capital I with dot stays itself on NTFS
		{".\u017fsh", ".ssh", true},  // long s
		{".GIT", ".git", true},
	} {
		if got := foldName(c.a) == foldName(c.b); got != c.same {
			t.Errorf("%q and %q fold the same: %v, want %v", c.a, c.b, got, c.same)
		}
	}
}
