package gate

import (
	"strings"
	"testing"
)

// The table of WindowsCanonical: each class of spelling git's
// CVE-2014-9390, CVE-2019-1352 and CVE-2019-1353 named, as the name
// Windows opens (G1.1: the policy judges the file, not the spelling).
func TestWindowsCanonical(t *testing.T) {
	for _, c := range []struct{ in, canon, problem string }{
		{`C:\w\.git\config`, "C:/w/.git/config", ""},
		{`c:/w/.git/config`, "C:/w/.git/config", ""},
		{`C:\w\.git.\config`, "C:/w/.git/config", ""},
		{`C:\w\.git \config`, "C:/w/.git/config", ""},
		{`C:\w\.git. . .\config`, "C:/w/.git/config", ""},
		{`C:\w\.git::$INDEX_ALLOCATION\config`, "C:/w/.git/config", ""},
		{`C:\w\.git. ::$INDEX_ALLOCATION\config`, "C:/w/.git/config", ""},
		{`C:\w\.git\config::$DATA`, "C:/w/.git/config", ""},
		{`C:\w\.git\config:evil`, "C:/w/.git/config", ""},
		{`C:\w\x:stream`, "C:/w/x", ""},
		{`C:\w\:stream`, "C:/w", ""},
		{`C:\w\GIT~1\config`, "C:/w/GIT~1/config", ""},
		{`\\?\C:\w\.git.\config`, "C:/w/.git/config", ""},
		{`\\?\UNC\srv\share\.git\config`, "//srv/share/.git/config", ""},
		{`\\srv\share\.git.\config`, "//srv/share/.git/config", ""},
		{`\\srv\share`, "//srv/share", ""},
		{`C:\`, "C:/", ""},
		{`C:\w\.\a\..\b`, "C:/w/a/../b", ""},
		{`a\b.\c`, "a/b/c", ""},
		{`.`, ".", ""},
		{`..\x`, "../x", ""},
		{`\\.\PhysicalDrive0`, "", ProblemNamespace},
		{`\\.\C:\w`, "", ProblemNamespace},
		{`\\?\GLOBALROOT\Device\HarddiskVolume1\x`, "", ProblemNamespace},
		{`\\?\Volume{0000}\x`, "", ProblemNamespace},
		{`\\srv`, "", ProblemUNC},
		{`C:foo`, "", ProblemDriveRelative},
		{`C:`, "", ProblemDriveRelative},
		{`\w\x`, "", ProblemRooted},
		{`C:\w\NUL`, "", ProblemDevice},
		{`C:\w\nul.txt`, "", ProblemDevice},
		{`C:\w\CON .log`, "", ProblemDevice},
		{`C:\w\COM1`, "", ProblemDevice},
		{`C:\w\lpt9.x`, "", ProblemDevice},
		{`C:\w\conin$`, "", ProblemDevice},
		{`C:\w\CONSOLE`, "C:/w/CONSOLE", ""},
		{`C:\w\COM10`, "C:/w/COM10", ""},
		{`C:\w\...\x`, "", ProblemDotsOnly},
		{`C:\w\. \x`, "", ProblemDotsOnly},
		{"C:\\w\\a\x00b", "", ProblemNUL},
	} {
		canon, problem := WindowsCanonical(c.in)
		if canon != c.canon || problem != c.problem {
			t.Errorf("WindowsCanonical(%q) = %q, %q; want %q, %q", c.in, canon, problem, c.canon, c.problem)
		}
	}
}

func TestIsShortName(t *testing.T) {
	for _, c := range []struct {
		in   string
		want bool
	}{
		{"GIT~1", true}, {"git~1", true}, {"VSCODE~1", true}, {"EUKHE~12", true}, {"ABCDEF~1.TXT", true},
		{"A~1.", true}, {"SETTIN~1.JSO", true},
		{".git", false}, {"GIT~", false}, {"~1", false}, {"ABCDEFG~1", false}, {"A.B~1", false},
		{"GIT~1.ABCD", false}, {"GIT~1.A.B", false}, {"GIT~X", false},
	} {
		if got := IsShortName(c.in); got != c.want {
			t.Errorf("IsShortName(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

// FuzzWindowsCanonical: WindowsCanonical never panics, and what it
// gives has no part Windows would open under another name: no trailing
// dot or space (but ".."), no ':' past the drive, no '\'.
func FuzzWindowsCanonical(f *testing.F) {
	for _, s := range []string{`C:\w\.git.\config`, `\\?\C:\.git::$INDEX_ALLOCATION`, `\\srv\share\x `,
		`C:foo`, `NUL.txt`, `GIT~1\config`, `..\.. .\x`, `\\?\UNC\a\b\c:d`, `//./x`, `C:\:s:t`} {
		f.Add(s)
	}
	pol, _ := winWorld()
	f.Fuzz(func(t *testing.T, in string) {
		// the seam never panics, and what it cannot place is never Inside
		r := pol.Resolve(`C:\Users\u\proj`, in)
		if r.Problem != "" && pol.Class(r) == ClassInside {
			t.Fatalf("%q could not be placed (%s) yet is inside", in, r.Problem)
		}
		if r.Problem == "" {
			for i, c := range splitPath(r.Path) {
				if strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") || i > 0 && strings.Contains(c, ":") || strings.Contains(c, `\`) {
					t.Fatalf("%q resolves to %q, whose part %q Windows opens as another name", in, r.Path, c)
				}
			}
		}
		canon, problem := WindowsCanonical(in)
		if problem != "" {
			if canon != "" {
				t.Fatalf("WindowsCanonical(%q) gave %q with problem %q", in, canon, problem)
			}
			return
		}
		if canon == "" {
			t.Fatalf("WindowsCanonical(%q) gave nothing and no problem", in)
		}
		if strings.Contains(canon, `\`) {
			t.Fatalf("WindowsCanonical(%q) = %q holds a backslash", in, canon)
		}
		rest := canon
		if driveLetter(rest) {
			rest = rest[2:]
		}
		if strings.Contains(rest, ":") {
			t.Fatalf("WindowsCanonical(%q) = %q holds ':' past the drive", in, canon)
		}
		for _, c := range strings.Split(strings.TrimPrefix(rest, "//"), "/") {
			if c == ".." || c == "." && canon == "." {
				continue
			}
			if strings.HasSuffix(c, ".") || strings.HasSuffix(c, " ") {
				t.Fatalf("WindowsCanonical(%q) = %q has the part %q", in, canon, c)
			}
			if c != "" && IsDeviceName(c) {
				t.Fatalf("WindowsCanonical(%q) = %q names a device in %q", in, canon, c)
			}
		}
		// canonical is a fixed point
		if again, p := WindowsCanonical(canon); p != "" || again != canon {
			t.Fatalf("WindowsCanonical(%q) = %q, but again %q, %q", in, canon, again, p)
		}
	})
}
