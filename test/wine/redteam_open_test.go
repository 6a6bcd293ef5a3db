//go:build open_attacks

package wine

// The red team's attacks that got through the Windows gate under Wine
// (or that the gate let run, where only Wine's own limits stopped them).
// Each row checks the safe outcome, so this file fails until each is
// fixed; it is built only with -tags open_attacks, and a fixed row moves
// to redteam_test.go.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// linkIn makes a Linux symlink name -> target in root, as a repository
// checked out on Linux may hold one.
func linkIn(name string, target func(root string, k *redKit) string) func(*testing.T, string, *redKit) {
	return func(t *testing.T, root string, k *redKit) {
		if err := os.Symlink(target(root, k), filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
}

var openAttacks = []attack{
	// NO SANDBOX ON WINDOWS (a hook landed): expand.exe copies its first
	// operand onto its second. The gate now judges the command table's
	// names that are other programs on Windows (expand, sort, find, …)
	// exec (gate/commands_windows.go; TestAWindowsProgramWithAUnixNameIsExec),
	// so with an auto set without exec the step asks. This kit's auto set
	// holds exec, and an exec program runs unconfined on Windows: it can
	// write anywhere. The fix is item 5 of the issue: a sandbox for
	// Windows (a restricted token, or an AppContainer), or, until then,
	// exec counted as protected+outside where no sandbox works.
	{"bash/expand.exe copies onto a hook", "bash", func(e attackEnv) map[string]any {
		return script(`PATH='C:\windows\system32'; expand a.txt .git/hooks/pre-commit`)
	}, ""},
	// ESCAPE (bytes leaked): Wine's drive Z: is the Linux root, so the
	// prefix's home C:\users\USER is also Z:\...\drive_c\users\USER. The
	// gate names the secret stores by the home's one spelling and has no
	// notion of a second name for the same directory that is not a
	// symlink (C: is a DOS device link inside Wine, not a reparse point),
	// so the read is "outside, read" and runs. The Windows analogues are
	// subst drives, volumes mounted in a folder, and \\?\Volume{GUID}.
	// Likely fix: judge the file's identity rather than its name: open it
	// and compare GetFinalPathNameByHandle (VOLUME_NAME_GUID or _NT) and
	// the file ID of the stores with the target's, or class every read
	// of a path whose final path differs from its canonical spelling as
	// the store it is.
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
	// GATE LET IT RUN (the shell's redirect open then failed: under Wine
	// even `< a.txt` fails "Path not found", a separate bug of the
	// shell's redirect opener on Windows): the same Z: alias through a
	// redirect.
	{"bash/redirect from the Z: alias", "bash", func(e attackEnv) map[string]any {
		return script(`while read l; do echo $l; done < '` + e.zHome + `\.ssh\` + e.secret + `'`)
	}, "secret"},
	// ESCAPE (a hook landed): a Unix symlink in the workspace (lnk ->
	// .git, as a repository checked out on Linux holds one) is no
	// reparse point to a Windows program under Wine: Wine follows it in
	// the Unix open, while os.Readlink (readlinkOS) sees a plain
	// directory, so the gate judges root\lnk\hooks\pre-commit, an
	// ordinary file, and the write lands in .git\hooks. On Windows itself
	// a link is a reparse point and Readlink sees it; what fails is the
	// gate's trust that every alias is visible to Readlink. Likely fix:
	// judge the opened handle (GetFinalPathNameByHandle of the parent
	// directory, opened without following the last part) against the
	// judged path before writing, and refuse on a mismatch.
	{"write/through a Unix symlink to .git", "write", func(e attackEnv) map[string]any { return writeTo(`lnk\hooks\pre-commit`) }, "protected"},
	{"edit/create through a Unix symlink to .git", "edit", func(e attackEnv) map[string]any {
		return map[string]any{"patch": "[lnk/hooks/post-checkout]\n+#!/bin/sh\n"}
	}, "protected"},
	// ESCAPE (bytes leaked): the same for a read: keys -> the prefix's
	// home .ssh is followed by Wine and judged as root\keys\NAME, a file
	// of the workspace.
	{"read/through a Unix symlink to the home's .ssh", "read", func(e attackEnv) map[string]any { return pathArg(`keys\` + e.secret) }, "secret"},
	// GATE LET IT RUN (the files do not exist here, so no bytes came
	// back; on a Wine user's machine they are the user's real keys):
	// Wine links the profile's Documents, Desktop, Music... to the Unix
	// home, and the Unix home is on Z:. Neither C:\users\NAME\Documents\.ssh
	// nor Z:\HOME\.ssh is a store to the gate, which knows the Windows
	// home only, and the Unix symlink is invisible to Readlink. Likely
	// fix: under Wine (HKCU\Software\Wine, or WINEPREFIX / the
	// wine_get_unix_file_name export present) add the Unix home's stores
	// (winepath -w ~) to the secret list, and judge final paths by
	// handle as above.
	{"read/Documents links to the Unix home", "read", func(e attackEnv) map[string]any {
		return pathArg(e.home + `\Documents\.ssh\` + e.secret + `-absent`)
	}, "secret"},
	{"read/the Unix home on Z:", "read", func(e attackEnv) map[string]any { return pathArg(e.unixHome + `\.ssh\` + e.secret + `-absent`) }, "secret"},
}

func TestRedTeamWindowsOpenAttacks(t *testing.T) {
	toGit := linkIn("lnk", func(string, *redKit) string { return ".git" })
	attackSetup["write/through a Unix symlink to .git"] = toGit
	attackSetup["edit/create through a Unix symlink to .git"] = toGit
	attackSetup["read/through a Unix symlink to the home's .ssh"] = linkIn("keys", func(_ string, k *redKit) string {
		return filepath.Join(k.prefix, "drive_c", "users", k.user, ".ssh")
	})
	runAttacks(t, openAttacks)
}

// TestRedTeamWindowsOpenAttackOverMCP is the Z: alias read through an MCP
// session of eukhe.exe (session, wine_test.go), as an agent would send
// it: the secret's bytes come back.
func TestRedTeamWindowsOpenAttackOverMCP(t *testing.T) {
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
