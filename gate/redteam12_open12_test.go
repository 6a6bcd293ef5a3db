//go:build open_attacks

package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// The twelfth red team's attacks on the gate that got through: each test
// asserts the safe outcome and fails today.

// Attack (settings file, its directory made a link after the policy): the
// directory was renamed away and a symlink to the workspace's cfg put in
// its place; the workspace's cfg/settings.json is now the file the
// loader reads, yet a write to it by its workspace name is Inside.
func TestRedTeam12_settings_file_behind_a_swapped_directory_link_is_secret(t *testing.T) {
	_, home, root, pl := r12world(t)
	p := pl.Policy(OS)
	user := filepath.Join(home, ".config", "eukhe")
	must(t, os.Rename(user, user+".old"))
	must(t, os.MkdirAll(filepath.Join(root, "cfg"), 0o755))
	must(t, os.Symlink(filepath.Join(root, "cfg"), user))
	r12secret(t, p, root, filepath.Join(root, "cfg", "settings.json"), "the settings file behind a directory link made after the policy")
}

// Attack (agents' stores moved by their own variables): Codex reads
// $CODEX_HOME/auth.json, Claude Code $CLAUDE_CONFIG_DIR/.credentials.json;
// SecretEnv names neither, so with the variable set (as the agent's own
// environment has it) the token is read unasked. Class: the home under
// another spelling.
func TestRedTeam12_agent_stores_moved_by_their_variables_are_secret(t *testing.T) {
	base, home, root := redHome(t)
	codex, claude := filepath.Join(base, "codex"), filepath.Join(base, "claude")
	env := map[string]string{"CODEX_HOME": codex, "CLAUDE_CONFIG_DIR": claude}
	p := Places{Roots: []string{root}, Home: home, Env: env}.Policy(OS)
	r12secret(t, p, root, filepath.Join(codex, "auth.json"), "CODEX_HOME")
	r12secret(t, p, root, filepath.Join(claude, ".credentials.json"), "CLAUDE_CONFIG_DIR")
}

// Attack (browsers' profiles by another name): the same browsers' saved
// logins where their packaging keeps them — Firefox and Chromium as snaps
// and Flatpaks, Chrome's beta and unstable channels, Edge's beta and dev,
// Thunderbird's passwords, Ubuntu's old chromium-browser — are not under
// the listed entries. Class: a credential store under another name.
func TestRedTeam12_browser_profiles_under_other_names_are_secret(t *testing.T) {
	_, home, root := redHome(t)
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, f := range []string{
		"snap/firefox/common/.mozilla/firefox/x.default/logins.json",
		".var/app/org.mozilla.firefox/.mozilla/firefox/x.default/logins.json",
		"snap/chromium/common/chromium/Default/Login Data",
		".var/app/com.google.Chrome/config/google-chrome/Default/Login Data",
		".config/google-chrome-beta/Default/Login Data",
		".config/google-chrome-unstable/Default/Login Data",
		".config/microsoft-edge-beta/Default/Login Data",
		".config/microsoft-edge-dev/Default/Login Data",
		".thunderbird/x.default/logins.json",
		".config/chromium-browser/Default/Login Data",
	} {
		t.Run(strings.SplitN(f, "/Default", 2)[0], func(t *testing.T) {
			r12secret(t, p, root, filepath.Join(home, f), "browser profile")
		})
	}
}

// Attack (question, blank letters not in the list): characters that print
// as nothing though Go counts them printable, beyond gate.blank's list:
// U+16FE4 KHITAN SMALL SCRIPT FILLER (a nonspacing mark: Python takes it
// in a name, so cmd and cmd+U+16FE4 are two names shown alike), U+1D159
// MUSICAL SYMBOL NULL NOTEHEAD (a symbol drawn as nothing), U+13440
// EGYPTIAN HIEROGLYPH MIRROR HORIZONTALLY. Class: a forged question.
func TestRedTeam12_other_blank_characters_are_escaped(t *testing.T) {
	for _, r := range []rune{0x16FE4, 0x1D159, 0x13440} {
		if !unicode.IsPrint(r) {
			continue // this Go escapes it already
		}
		ch := string(r)
		if got := Visible("cmd" + ch); strings.Contains(got, ch) {
			t.Errorf("Visible shows %U raw: %q", r, got)
		}
		if got := VisibleText("cmd = 'ls'\ncmd" + ch + " = 'rm -rf ~'\nos.system(cmd" + ch + ")\n"); strings.Contains(got, ch) {
			t.Errorf("VisibleText shows %U raw: %q", r, got)
		}
	}
}

// Attack (the agents' stores this stop did not name): the same agents'
// and their kin's logins in the files their documentation names —
// Gemini CLI's API key file (~/.gemini/.env) and its MCP servers' OAuth
// tokens (~/.gemini/mcp-oauth-tokens.json), Qwen Code's OAuth tokens
// (~/.qwen/oauth_creds.json), opencode's provider keys
// (~/.local/share/opencode/auth.json), Claude Code's ~/.claude.json (its
// account, and an API key login's key) — are read unasked (a home
// dot-file is protected for a write only). Class: a credential store
// under another name.
func TestRedTeam12_other_agent_credential_files_are_secret(t *testing.T) {
	_, home, root := redHome(t)
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, f := range []string{".gemini/.env", ".gemini/mcp-oauth-tokens.json", ".qwen/oauth_creds.json",
		".local/share/opencode/auth.json", ".claude.json"} {
		t.Run(f, func(t *testing.T) { r12secret(t, p, root, filepath.Join(home, f), "agent credential file") })
	}
}
