package gate

import (
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// identityFS is the Windows world of the laws (winWorld's folding
// volume) with names that are no links Readlink sees, as a FinalNamer
// tells them: Wine's Z: drive holding drive C: (the prefix), a subst
// drive S: of the home, a Unix symlink lnk -> .git in the project that
// only Wine's open follows, and the profile's Documents linked to the
// Unix home (Z:/home/me).
type identityFS struct {
	foldFS
	aliases [][2]string // a spelling's prefix, and the final prefix it names
}

func (f identityFS) FinalName(p string) (string, bool) {
	final := p
	for _, a := range f.aliases {
		if rest, ok := cutFold(final, a[0]); ok {
			final = a[1] + rest
		}
	}
	for k := range f.fakeFS {
		if strings.EqualFold(k, final) {
			return k, true
		}
	}
	return "", false
}

// cutFold is p below prefix (case folded): the rest, with its leading '/'.
func cutFold(p, prefix string) (string, bool) {
	if len(p) < len(prefix) || !strings.EqualFold(p[:len(prefix)], prefix) || len(p) > len(prefix) && p[len(prefix)] != '/' {
		return "", false
	}
	return p[len(prefix):], true
}

const (
	wineUnixHome = "Z:/home/me"
	winePrefixC  = `Z:\home\me\.wine\drive_c`
)

func identityWorld() (*Policy, identityFS) {
	f := identityFS{foldFS: foldFS{fakeFS: fakeFS{}, insensitive: true, windows: true}}
	for _, d := range []string{"/C:", "/C:/Users", "/C:/Users/u", "/C:/Users/u/proj", "/C:/Users/u/proj/.git",
		"/C:/Users/u/proj/.git/hooks", "/C:/Users/u/proj/sub", "/C:/Users/u/.ssh", "/C:/Users/u/AppData",
		"/C:/Users/u/AppData/Roaming", "/C:/Users/u/AppData/Roaming/gh", "/Z:", "/Z:/home", "/Z:/home/me",
		"/Z:/home/me/.wine", "/Z:/home/me/.ssh"} {
		f.fakeFS[d] = fakeNode{kind: KindDir}
	}
	for _, file := range []string{"/C:/Users/u/.ssh/id_ed25519", "/C:/Users/u/AppData/Roaming/gh/hosts.yml",
		"/Z:/home/me/.ssh/id_rsa", "/C:/Users/u/proj/a.txt"} {
		f.fakeFS[file] = fakeNode{kind: KindFile}
	}
	f.aliases = [][2]string{
		{"/Z:/home/me/.wine/drive_c", "/C:"},
		{"/S:", "/C:/Users/u"},
		{"/Z:/srv/C", "/C:"},
		{"/C:/Users/u/proj/lnk", "/C:/Users/u/proj/.git"},
		{"/C:/Users/u/Documents", "/Z:/home/me"},
		{"/C:/Users/u/proj/keys", "/C:/Users/u/.ssh"},
	}
	pl := Places{Home: winHome, OtherHomes: []string{wineUnixHome}, Roots: []string{winRoot},
		UserDir: winHome + "/AppData/Roaming/eukhe"}
	// the Windows stores on any host (places_os.go appends them on
	// Windows only), in both homes
	secrets := pl.Secrets()
	for _, h := range []string{winHome, wineUnixHome} {
		for _, s := range homeSecretsFor("windows") {
			secrets = append(secrets, h+"/"+s)
		}
	}
	return NewPolicy(f, pl.Roots, secrets, pl.Rules()), f
}

// The law a_secret_or_protected_place_is_itself_by_any_name (the issue
// "judge a file's identity, not its name"; G1.2 on Windows): a file below
// a secret store or a protected place, named through any other name of a
// directory on the way that no Readlink shows (Wine's Z: spelling of
// C:, a subst drive, a Unix symlink only Wine follows, the profile's
// Documents linked to the Unix home), classes as that place.
func TestLaw_a_secret_or_protected_place_is_itself_by_any_name(t *testing.T) {
	p, _ := identityWorld()
	type target struct {
		spellings []string
		rest      []string
		want      Class
	}
	targets := []target{
		{[]string{`C:\Users\u\.ssh`, winePrefixC + `\Users\u\.ssh`, `z:\SRV\c\users\u\.SSH`, `S:\.ssh`, `C:\Users\u\proj\keys`}, []string{"id_ed25519", "new-key", `x\y`}, ClassSecret},
		{[]string{`C:\Users\u\AppData\Roaming\gh`, winePrefixC + `\users\U\appdata\roaming\GH`, `S:\AppData\Roaming\gh`}, []string{"hosts.yml", "new"}, ClassSecret},
		{[]string{`C:\Users\u\Documents\.ssh`, `Z:\home\me\.ssh`}, []string{"id_rsa", "absent"}, ClassSecret},
		{[]string{`C:\Users\u\proj\.git\hooks`, `C:\Users\u\proj\lnk\hooks`, winePrefixC + `\Users\u\proj\lnk\hooks`, `S:\proj\LNK\hooks`}, []string{"pre-commit", "post-checkout"}, ClassProtected},
	}
	rapid.Check(t, func(t *rapid.T) {
		tg := rapid.SampledFrom(targets).Draw(t, "target")
		spelled := rapid.SampledFrom(tg.spellings).Draw(t, "spelling") + `\` + rapid.SampledFrom(tg.rest).Draw(t, "rest")
		dir := rapid.SampledFrom([]string{"/", `C:\Users\u\proj`}).Draw(t, "cwd")
		r := p.Resolve(dir, spelled)
		if c := p.Class(r); c < tg.want {
			t.Fatalf("%s (real %q, spelled %q) is %s, want %s", spelled, r.Path, r.Spelled, c, tg.want)
		}
		if !p.HoldsSecret(r) && tg.want == ClassSecret {
			t.Fatalf("%s (real %q) holds no secret", spelled, r.Path)
		}
	})
}

// The law identity_never_lowers_a_place: the class of a path whose final
// path differs from its spelling is the final path's, raised to the
// spelling's when that is Protected or Secret (ClassOfIdentity), and no
// other.
func TestLaw_identity_never_lowers_a_place(t *testing.T) {
	classes := []Class{ClassInside, ClassOutside, ClassProtected, ClassSecret}
	rapid.Check(t, func(t *rapid.T) {
		s := rapid.SampledFrom(classes).Draw(t, "spelled")
		f := rapid.SampledFrom(classes).Draw(t, "final")
		c := ClassOfIdentity(s, f)
		if c < f || s >= ClassProtected && c < s || c != s && c != f {
			t.Fatalf("ClassOfIdentity(%s, %s) = %s", s, f, c)
		}
		if s < ClassProtected && c != f {
			t.Fatalf("ClassOfIdentity(%s, %s) = %s: Inside and Outside are the file's", s, f, c)
		}
	})
}

// A file of the workspace named through its final path is Inside, and a
// workspace name of a file outside it (a Unix symlink out) is not.
func TestIdentityInsideIsTheFiles(t *testing.T) {
	p, _ := identityWorld()
	for spelled, want := range map[string]Class{
		`C:\Users\u\proj\a.txt`:           ClassInside,
		`S:\proj\a.txt`:                   ClassInside,
		`C:\Users\u\proj\lnk\config`:      ClassProtected,
		`C:\Users\u\proj\keys\id_ed25519`: ClassSecret,
		`C:\Users\u\Documents\notes.txt`:  ClassOutside,
		`C:\Users\u\Documents\.bashrc`:    ClassProtected,
		// the prefix is below the Unix home's .wine, which the home's
		// dot rule covers: its Z: spelling stays Protected
		winePrefixC + `\Users\u\proj\new\x.txt`: ClassProtected,
		`Z:\srv\C\Users\u\proj\a.txt`:           ClassInside,
	} {
		r := p.Resolve(`C:\Users\u\proj`, spelled)
		if c := p.Class(r); c != want {
			t.Errorf("%s (real %q, spelled %q) is %s, want %s", spelled, r.Path, r.Spelled, c, want)
		}
	}
}

func TestWineUnixHome(t *testing.T) {
	for in, want := range map[string]string{
		`\??\Z:\home\me`: `Z:\home\me`,
		`\??\z:\root\`:   `Z:\root`,
		`Z:\home\me`:     `Z:\home\me`,
		`\??\unix\home`:  "",
		`\??\Z:\`:        "",
		"":               "",
	} {
		got, ok := WineUnixHome(in)
		if got != want || ok != (want != "") {
			t.Errorf("WineUnixHome(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
