package gate

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The Windows world of the laws: a home and a project on drive C:, in
// the gate's form, on a volume that folds and opens names as Windows.
const (
	winHome = "C:/Users/u"
	winRoot = "C:/Users/u/proj"
)

func winWorld() (*Policy, foldFS) {
	f := foldFS{fakeFS: fakeFS{}, insensitive: true, windows: true}
	for _, d := range []string{"/C:", "/C:/Users", "/C:/Users/u", "/C:/Users/u/proj", "/C:/Users/u/proj/.git",
		"/C:/Users/u/proj/.vscode", "/C:/Users/u/proj/.eukhe", "/C:/Users/u/proj/sub", "/C:/Users/u/.ssh"} {
		f.fakeFS[d] = fakeNode{kind: KindDir}
	}
	f.fakeFS["/C:/Users/u/proj/.git/config"] = fakeNode{kind: KindFile}
	pl := Places{Home: winHome, Roots: []string{winRoot}, UserDir: winHome + "/AppData/Roaming/eukhe"}
	return pl.Policy(f), f
}

// genWinPart draws a spelling Windows opens as the part name: its case
// changed, trailing dots and spaces, a stream suffix, or the short name
// Windows may have made for it.
func genWinPart(t *rapid.T, name, short, label string) string {
	if short != "" && rapid.IntRange(0, 4).Draw(t, label+"-short") == 0 {
		return genCase(t, short, label+"-shortcase")
	}
	s := genCase(t, name, label+"-case")
	s += rapid.SampledFrom([]string{"", ".", " ", "..", ". ", " .", "... "}).Draw(t, label+"-trail")
	s += rapid.SampledFrom([]string{"", "::$INDEX_ALLOCATION", "::$DATA", ":x", ":x:$DATA"}).Draw(t, label+"-stream")
	return s
}

// The law every_windows_spelling_of_a_protected_name_is_protected
// (G1.2 on Windows, git's CVE-2014-9390 and CVE-2019-1352/1353): each
// spelling Windows opens as a protected file below a root (case, trailing
// dots and spaces, stream suffixes, short names, \\?\ and '/' or '\')
// classes Protected or Secret, never Inside.
func TestLaw_every_windows_spelling_of_a_protected_name_is_protected(t *testing.T) {
	p, _ := winWorld()
	targets := []struct{ dir, short, file string }{
		{".git", "GIT~1", "config"},
		{".vscode", "VSCODE~1", "tasks.json"},
		{".eukhe", "EUKHE~1", "settings.json"},
	}
	rapid.Check(t, func(t *rapid.T) {
		tg := rapid.SampledFrom(targets).Draw(t, "target")
		root := rapid.SampledFrom([]string{`C:\Users\u\proj`, `c:\users\U\PROJ`, `\\?\C:\Users\u\proj`,
			`C:/Users/u/proj`, `/C:/Users/u/proj`, `C:\Users\u\proj\sub\..`}).Draw(t, "root")
		sub := rapid.SampledFrom([]string{"", `sub\`, `new\deeper\`}).Draw(t, "sub")
		sep := rapid.SampledFrom([]string{`\`, "/"}).Draw(t, "sep")
		spelled := root + sep + sub + genWinPart(t, tg.dir, tg.short, "dir") + sep + genWinPart(t, tg.file, "", "file")
		dir := rapid.SampledFrom([]string{"/", `C:\`, `D:\elsewhere`}).Draw(t, "cwd")
		r := p.Resolve(dir, spelled)
		if c := p.Class(r); c != ClassProtected && c != ClassSecret {
			t.Fatalf("%q (resolved %q) is %v", spelled, r.Path, c)
		}
		if c := p.ClassWrite(r); c == ClassInside || c == ClassOutside {
			t.Fatalf("a write of %q is %v", spelled, c)
		}
	})
}

// The spellings a Windows file system cannot place are never Inside: a
// device is Protected, a drive-relative or rooted path Secret; and a
// secret store keeps its class in any spelling.
func TestWindowsSpellingsThePolicyCannotPlace(t *testing.T) {
	p, _ := winWorld()
	for spelled, want := range map[string]Class{
		`C:\Users\u\proj\NUL`:             ClassProtected,
		`C:\Users\u\proj\con.txt`:         ClassProtected,
		`C:proj\.git\config`:              ClassSecret,
		`\Users\u\proj\a.txt`:             ClassSecret,
		`\\.\C:\Users\u\proj\a.txt`:       ClassSecret,
		`C:\Users\u\.SSH.\id_ed25519`:     ClassSecret,
		`C:\Users\u\SSH~1\id_ed25519`:     ClassSecret,
		`C:\Users\u\.ssh::$DATA`:          ClassSecret,
		`C:\Users\u\proj\a.txt`:           ClassInside,
		`C:\Users\u\proj\src\main.go`:     ClassInside,
		`C:\Users\u\proj\.gitignore`:      ClassInside,
		`C:\Users\u\proj\.GIT.\HEAD`:      ClassProtected,
		`C:\Users\u\AppData\Roaming\gh`:   classFor("windows", ClassSecret),
		`D:\other\file.txt`:               ClassOutside,
		`\\srv\share\proj\.git\config`:    ClassProtected,
		`\\?\UNC\srv\share\x\.vscode\a.j`: ClassProtected,
	} {
		r := p.Resolve(`C:\Users\u\proj`, spelled)
		if c := p.Class(r); c != want {
			t.Errorf("%q (resolved %q, %q) is %v, want %v", spelled, r.Path, r.Problem, c, want)
		}
	}
	// a relative spelling against the working directory
	if c := p.Class(p.Resolve(`C:\Users\u\proj`, `.Git.\hooks\pre-commit`)); c != ClassProtected {
		t.Errorf(".Git.\\hooks\\pre-commit in the root is %v", c)
	}
}

// classFor is want on the OS goos and Outside elsewhere: an entry of
// goos's own lists is only in the policy there.
func classFor(goos string, want Class) Class {
	if placesOS == goos {
		return want
	}
	return ClassOutside
}

func TestGateFormWindows(t *testing.T) {
	for in, want := range map[string]string{"C:/a/b": "/C:/a/b", "C:/": "/C:", "//s/sh/x": "/UNC/s/sh/x", "a/b": "a/b"} {
		if got := gateFormWindows(in); got != want {
			t.Errorf("gateFormWindows(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{"/C:/a/b": "C:/a/b", "/C:": "C:/", "/UNC/s/sh/x": "//s/sh/x", "/a": "/a"} {
		if got := nativeFromGate(in); got != want {
			t.Errorf("nativeFromGate(%q) = %q, want %q", in, got, want)
		}
	}
	if !strings.HasPrefix(policyPath(fakeFS{}, `C:\x`), `C:\`) {
		t.Errorf("a path on a file system that is not Windows' changed")
	}
}
