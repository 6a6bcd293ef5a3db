package gate

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"pgregory.net/rapid"
)

// foldFS is fakeFS on a volume that says whether it folds case, and
// whether it opens names as Windows does.
type foldFS struct {
	fakeFS
	insensitive bool
	windows     bool
}

func (f foldFS) CaseInsensitive(string) bool { return f.insensitive }
func (f foldFS) WindowsNames() bool          { return f.windows }

// genCase draws a case variant of s: each letter upper or lower.
func genCase(t *rapid.T, s, label string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsLetter(r) && rapid.Bool().Draw(t, label+string(rune('a'+i%26))) {
			if unicode.IsUpper(r) {
				r = unicode.ToLower(r)
			} else {
				r = unicode.ToUpper(r)
			}
		}
		b.WriteRune(r)
	}
	return b.String()
}

// lawFoldWorld is the laws' places on a volume that folds or not.
func lawFoldWorld(insensitive bool) (*Policy, foldFS) {
	f := foldFS{fakeFS: fakeFS{}, insensitive: insensitive}
	for _, d := range []string{"/home", lawHome, lawRoot, lawRoot + "/sub", lawHome + "/.ssh", lawUserDir} {
		f.fakeFS[d] = fakeNode{kind: KindDir}
	}
	pl := lawPlaces()
	// every OS's own stores, so each list is checked on any host
	extra := append(append(homeSecretsFor("darwin"), homeSecretsFor("windows")...), HomeSecrets...)
	var secrets []string
	for _, h := range extra {
		secrets = append(secrets, lawHome+"/"+h)
	}
	rules := pl.Rules()
	for _, h := range append(homeProtectedFor("darwin"), homeProtectedFor("windows")...) {
		rules = append(rules, Rule{Kind: TreeRule, Path: lawHome + "/" + h})
	}
	p := NewPolicy(f, pl.Roots, append(pl.Secrets(), secrets...), rules)
	return p, f
}

// The law protected_names_hold_in_every_case_where_the_volume_folds
// (G1.3 on a case-insensitive volume): where the volume folds case,
// every case variant of every NamedProtected name below a root is
// Protected (or Secret), and every case variant of a home secret store
// (each OS's list) is Secret, and of a startup place of the home
// Protected; where it does not, .GIT is just a name.
func TestLaw_protected_names_hold_in_every_case_where_the_volume_folds(t *testing.T) {
	if !filepath.IsAbs("/roam") {
		t.Skip("the laws' places are Unix paths")
	}
	folding, _ := lawFoldWorld(true)
	exact, _ := lawFoldWorld(false)
	secrets := append(append(homeSecretsFor("darwin"), homeSecretsFor("windows")...), HomeSecrets...)
	rapid.Check(t, func(t *rapid.T) {
		name := rapid.SampledFrom(NamedProtected).Draw(t, "name")
		if suffix, ok := strings.CutPrefix(name, "*"); ok {
			name = rapid.SampledFrom([]string{"x", "proj", "A"}).Draw(t, "stem") + suffix
		}
		variant := genCase(t, name, "case")
		dir := rapid.SampledFrom([]string{lawRoot, lawRoot + "/sub", lawRoot + "/new/deeper"}).Draw(t, "dir")
		tail := rapid.SampledFrom([]string{"", "/config", "/hooks/pre-commit"}).Draw(t, "tail")
		p := dir + "/" + variant + tail
		if c := folding.Class(folding.Resolve("/", p)); c != ClassProtected && c != ClassSecret {
			t.Fatalf("%s on a folding volume is %v", p, c)
		}
		if variant != name && !NameIn(NamedProtected, variant) {
			if c := exact.Class(exact.Resolve("/", p)); c != ClassInside {
				t.Fatalf("%s on a case-sensitive volume is %v, want inside (a name like any other)", p, c)
			}
		}
		s := rapid.SampledFrom(secrets).Draw(t, "secret")
		sv := genCase(t, s, "secret-case")
		below := rapid.SampledFrom([]string{"", "/id_ed25519", "/a/b"}).Draw(t, "below")
		if c := folding.Class(folding.Resolve("/", lawHome+"/"+sv+below)); c != ClassSecret {
			t.Fatalf("%s on a folding volume is %v, want secret", lawHome+"/"+sv+below, c)
		}
		pr := rapid.SampledFrom(append(append(homeProtectedFor("darwin"), homeProtectedFor("windows")...), HomeProtected...)).Draw(t, "protected")
		pv := lawHome + "/" + genCase(t, pr, "protected-case") + below
		if c := folding.Class(folding.Resolve("/", pv)); c != ClassProtected && c != ClassSecret {
			t.Fatalf("%s on a folding volume is %v, want protected", pv, c)
		}
	})
	if c := exact.Class(exact.Resolve("/", lawRoot+"/.GIT/config")); c != ClassInside {
		t.Fatalf(".GIT/config on a case-sensitive volume is %v", c)
	}
	// HFS+ ignores the joiners in a name: .g\u200cit is .git there
	if c := folding.Class(folding.Resolve("/", lawRoot+"/.g\u200cit/config")); c != ClassProtected {
		t.Fatalf(".g\\u200cit/config on a folding volume is %v", c)
	}
}

// The lists of each OS are chosen by its name alone, and Linux's stay
// as they were: nothing of macOS's or Windows' is appended there.
func TestPlacesForEachOS(t *testing.T) {
	has := func(list []string, s string) bool {
		for _, x := range list {
			if x == s {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		goos, entry string
		list        func(string) []string
	}{
		{"darwin", "Library/Keychains", homeSecretsFor},
		{"darwin", "Library/Cookies", homeSecretsFor},
		{"darwin", "Library/Application Support/Google/Chrome", homeSecretsFor},
		{"darwin", "Library/Application Support/Firefox/Profiles", homeSecretsFor},
		{"darwin", "Library/Safari", homeSecretsFor},
		{"darwin", "Library/Application Support/Bitwarden CLI", homeSecretsFor},
		{"darwin", "Library/Group Containers/2BUA8C4S2C.com.1password", homeSecretsFor},
		{"darwin", "Library/Application Support/Code/User", homeProtectedFor},
		{"darwin", "Library/Application Support/Cursor/User", homeProtectedFor},
		{"darwin", "Library/LaunchAgents", homeProtectedFor},
		{"windows", "AppData/Roaming/GitHub CLI", homeSecretsFor},
		{"windows", "AppData/Roaming/gh", homeSecretsFor},
		{"windows", "AppData/Roaming/gcloud", homeSecretsFor},
		{"windows", "AppData/Roaming/npm/etc/npmrc", homeSecretsFor},
		{"windows", "AppData/Local/Google/Chrome/User Data", homeSecretsFor},
		{"windows", "AppData/Local/Microsoft/Edge/User Data", homeSecretsFor},
		{"windows", "AppData/Roaming/Mozilla/Firefox/Profiles", homeSecretsFor},
		{"windows", "AppData/Roaming/Code/User", homeProtectedFor},
		{"windows", "Documents/PowerShell", homeProtectedFor},
		{"windows", "Documents/WindowsPowerShell", homeProtectedFor},
		{"windows", "AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup", homeProtectedFor},
	} {
		if !has(c.list(c.goos), c.entry) {
			t.Errorf("%s's list lacks %q", c.goos, c.entry)
		}
	}
	if homeSecretsFor("linux") != nil || homeProtectedFor("linux") != nil || secretEnvHomesFor("linux") != nil {
		t.Errorf("Linux has lists of its own beyond HomeSecrets and HomeProtected")
	}
	if m := secretEnvHomesFor("windows"); m["APPDATA"] != "AppData/Roaming" || m["LOCALAPPDATA"] != "AppData/Local" {
		t.Errorf("windows' moved homes: %v", m)
	}
	if placesOS == "linux" {
		for _, h := range append(append([]string(nil), HomeSecrets...), HomeProtected...) {
			if strings.HasPrefix(h, "Library/") || strings.HasPrefix(h, "AppData/") {
				t.Errorf("%q is in Linux's lists", h)
			}
		}
	}
}

// On a volume that folds, a Places whose APPDATA names another place
// keeps the stores of AppData/Roaming secret there (as XDG_CONFIG_HOME
// does .config's), and its HomeProtected places protected.
func TestAppDataMovesTheStores(t *testing.T) {
	if !filepath.IsAbs("/roam") {
		t.Skip("the laws' places are Unix paths")
	}
	saved, savedP := SecretEnvHomes["APPDATA"], protectedEnvHomes["APPDATA"]
	savedS, savedH := HomeSecrets, HomeProtected
	SecretEnvHomes["APPDATA"], protectedEnvHomes["APPDATA"] = "AppData/Roaming", "AppData/Roaming"
	HomeSecrets = append(append([]string(nil), HomeSecrets...), homeSecretsFor("windows")...)
	HomeProtected = append(append([]string(nil), HomeProtected...), homeProtectedFor("windows")...)
	defer func() {
		HomeSecrets, HomeProtected = savedS, savedH
		if saved == "" {
			delete(SecretEnvHomes, "APPDATA")
			delete(protectedEnvHomes, "APPDATA")
		} else {
			SecretEnvHomes["APPDATA"], protectedEnvHomes["APPDATA"] = saved, savedP
		}
	}()
	pl := lawPlaces()
	pl.Env = map[string]string{"APPDATA": "/roam"}
	p := pl.Policy(fakeFS{})
	for path, want := range map[string]Class{
		"/roam/gh/hosts.yml":                      ClassSecret,
		"/roam/GitHub CLI/hosts.yml":              ClassSecret,
		lawHome + "/AppData/Roaming/gh/hosts.yml": ClassSecret,
		"/roam/Code/User/settings.json":           ClassProtected,
		"/roam/other/x":                           ClassOutside,
	} {
		if c := p.Class(p.Resolve("/", path)); c != want {
			t.Errorf("%s is %v, want %v", path, c, want)
		}
	}
}

// The exact comparisons (the Linux hot path, written without making a
// string per rule) say what their plain spellings say: cut is the part
// below base+"/", endsWith a suffix "/"+end.
func TestExactCutAndEndsWithAreThePlainStringTests(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		part := rapid.SampledFrom([]string{"", "a", "b", "ab", ".git", "bin", "/"})
		join := func(label string) string {
			var b strings.Builder
			for i := range rapid.IntRange(0, 5).Draw(t, label+"n") {
				b.WriteString(part.Draw(t, label+string(rune('0'+i))))
			}
			return b.String()
		}
		p, base := join("p"), join("base")
		var n names
		gotRest, gotOK := n.cut(p, base)
		wantRest, wantOK := strings.CutPrefix(p, base+"/")
		if gotRest != wantRest || gotOK != wantOK {
			t.Fatalf("cut(%q, %q) = %q, %v; want %q, %v", p, base, gotRest, gotOK, wantRest, wantOK)
		}
		if got, want := n.endsWith(p, base), strings.HasSuffix(p, "/"+base); got != want {
			t.Fatalf("endsWith(%q, %q) = %v, want %v", p, base, got, want)
		}
	})
}
