package docs

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

func TestExpandTilde(t *testing.T) {
	users := func(name string) (string, bool) {
		if name == "admin" {
			return "/h/admin", true
		}
		return "", false
	}
	for _, c := range []struct{ in, want string }{
		{"~", "/h/u"},
		{"~/", "/h/u/"},
		{"~/.bashrc", "/h/u/.bashrc"},
		{"~/a/b:5-9", "/h/u/a/b:5-9"},
		{"~+", "/ws"},
		{"~+/a.txt", "/ws/a.txt"},
		{"~admin/.ssh/id_rsa", "/h/admin/.ssh/id_rsa"},
		{"~admin", "/h/admin"},
		{"~nosuchuser/x", "~nosuchuser/x"},
		{"~-/x", "~-/x"},
		{"a/~/b", "a/~/b"},
		{"./~", "./~"},
		{"", ""},
	} {
		if got := ExpandTilde(c.in, "/h/u", "/ws", users); got != c.want {
			t.Errorf("ExpandTilde(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	if got := ExpandTilde("~/x", "", "/ws", users); got != "~/x" {
		t.Errorf("no home: %q", got)
	}
}

// A path without a leading tilde is never changed; "~/" + rest is always
// under the home, so the gate judges the path the shell would open.
func TestExpandTildeProperty(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		rest := rapid.StringMatching(`[a-z./~-]{0,12}`).Draw(t, "rest")
		home := "/" + rapid.StringMatching(`[a-z]{1,6}`).Draw(t, "home")
		if !strings.HasPrefix(rest, "~") && ExpandTilde(rest, home, "/ws", nil) != rest {
			t.Fatalf("%q changed", rest)
		}
		if got := ExpandTilde("~/"+rest, home, "/ws", nil); got != home+"/"+rest {
			t.Fatalf("~/%s = %q", rest, got)
		}
	})
}
