package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// The twelfth red team's attacks on the gate's side of this stop's
// changes: eukhe's user settings file and the coding agents' and
// browsers' credential stores made secret (Places.Secrets, HomeSecrets),
// and the blank letters escaped in a question (Visible, VisibleText).
// Each test asserts the safe outcome; these held. The ones that got
// through are in redteam12_open12_test.go (build tag open_attacks).

// r12world is a home with eukhe's user settings file and a workspace.
func r12world(t *testing.T) (base, home, root string, pl Places) {
	t.Helper()
	base, home, root = redHome(t)
	user := filepath.Join(home, ".config", "eukhe")
	must(t, os.MkdirAll(user, 0o755))
	must(t, os.WriteFile(filepath.Join(user, "settings.json"), []byte(`{"shell.autoEffects": ["read"]}`), 0o644))
	return base, home, root, Places{Roots: []string{root}, Home: home, UserDir: user}
}

// r12secret fails unless a read and a write of path (resolved in root)
// are Secret under p.
func r12secret(t *testing.T, p *Policy, root, path, what string) {
	t.Helper()
	r := Resolve(OS, root, path)
	if v := p.JudgeReal(r, ReadAccess, DefaultAuto()); !v.Effects.Has(Secret) || !v.Asks {
		t.Errorf("%s: read %s (real %s): class %v, effects %v, asks %v; want secret, asked", what, path, r.Path, v.Class, v.Effects, v.Asks)
	}
	if v := p.JudgeReal(r, WriteAccess, DefaultAuto()); !v.Effects.Has(Secret) || !v.Asks {
		t.Errorf("%s: write %s (real %s): class %v, effects %v, asks %v; want secret, asked", what, path, r.Path, v.Class, v.Effects, v.Asks)
	}
}

// Attack (settings file, other spellings): the user settings file named
// with ./, //, a detour through .. and through a sibling, a trailing
// slash and a trailing dot on its directory, relative from the workspace.
// Resolve cleans each to the one real path, which is secret.
func TestRedTeam12_settings_file_under_other_spellings_is_secret(t *testing.T) {
	_, home, root, pl := r12world(t)
	p := pl.Policy(OS)
	cfg := filepath.Join(home, ".config")
	rel, _ := filepath.Rel(root, filepath.Join(cfg, "eukhe", "settings.json"))
	for _, s := range []string{
		filepath.Join(cfg, "eukhe", "settings.json"),
		cfg + "/./eukhe/settings.json",
		cfg + "//eukhe//settings.json",
		cfg + "/eukhe/../eukhe/settings.json",
		cfg + "/gh/../eukhe/./settings.json",
		cfg + "/eukhe/./settings.json",
		root + "/../.config/eukhe/settings.json",
		rel,
	} {
		r12secret(t, p, root, s, "spelling")
	}
}

// Attack (settings file, another name): a symlink in the workspace to the
// settings file, one to its directory, and one to the home; the policy
// judges where each leads.
func TestRedTeam12_settings_file_through_workspace_symlinks_is_secret(t *testing.T) {
	needSymlinks(t)
	_, home, root, pl := r12world(t)
	user := filepath.Join(home, ".config", "eukhe")
	must(t, os.Symlink(filepath.Join(user, "settings.json"), filepath.Join(root, "s.json")))
	must(t, os.Symlink(user, filepath.Join(root, "cfg")))
	must(t, os.Symlink(home, filepath.Join(root, "h")))
	p := pl.Policy(OS)
	for _, s := range []string{"s.json", "cfg/settings.json", "h/.config/eukhe/settings.json", "cfg/../eukhe/settings.json"} {
		r12secret(t, p, root, s, "symlink")
	}
}

// Attack (settings file, hard link): the settings file with a second name
// in the workspace and one outside it, made before and
// after the policy (a dotfiles manager's link; a link a step made).
func TestRedTeam12_settings_file_hard_linked_is_secret(t *testing.T) {
	needHardLinkSearch(t)
	base, home, root, pl := r12world(t)
	file := filepath.Join(home, ".config", "eukhe", "settings.json")
	before := filepath.Join(root, "dotfiles", "eukhe.json")
	must(t, os.MkdirAll(filepath.Dir(before), 0o755))
	must(t, os.Link(file, before))
	p := pl.Policy(OS)
	r12secret(t, p, root, before, "hard link made before")
	after := filepath.Join(base, "tmp", "eukhe.json")
	must(t, os.MkdirAll(filepath.Dir(after), 0o755))
	must(t, os.Link(file, after))
	r12secret(t, p, root, after, "hard link made after")
}

// Attack (settings file, the home under another spelling): HOME itself a
// symlink (the user's home reached through /home -> /data/home), the
// file named by its real path and by the link's.
func TestRedTeam12_settings_file_when_home_is_a_symlink_is_secret(t *testing.T) {
	needSymlinks(t)
	base, home, root, _ := r12world(t)
	link := filepath.Join(base, "homelink")
	must(t, os.Symlink(home, link))
	pl := Places{Roots: []string{root}, Home: link, UserDir: filepath.Join(link, ".config", "eukhe")}
	p := pl.Policy(OS)
	r12secret(t, p, root, filepath.Join(home, ".config", "eukhe", "settings.json"), "real path, HOME a link")
	r12secret(t, p, root, filepath.Join(link, ".config", "eukhe", "settings.json"), "link path, HOME a link")
	r12secret(t, p, root, filepath.Join(home, ".codex", "auth.json"), "an agent's store, HOME a link")
}

// Attack (settings file not there yet): the user has no settings file
// (the default: nothing written), so the secret entry names nothing; a
// write that creates it is still secret, and so is a read.
func TestRedTeam12_settings_file_not_yet_made_is_secret(t *testing.T) {
	_, home, root := redHome(t)
	user := filepath.Join(home, ".config", "eukhe")
	p := Places{Roots: []string{root}, Home: home, UserDir: user}.Policy(OS)
	r12secret(t, p, root, filepath.Join(user, "settings.json"), "no file yet")
}

// Attack (the agents' stores): each new store of this stop, its file and
// a file below it, by its path and by a workspace symlink; and a hard
// link of Claude Code's token in the workspace.
func TestRedTeam12_agent_and_browser_stores_are_secret(t *testing.T) {
	needHardLinkSearch(t)
	needSymlinks(t)
	_, home, root := redHome(t)
	files := []string{
		".claude/.credentials.json", ".codex/auth.json", ".gemini/oauth_creds.json",
		".config/github-copilot/apps.json", ".config/github-copilot/hosts.json",
		".mozilla/firefox/x.default-release/logins.json", ".mozilla/firefox/x.default-release/key4.db",
		".config/google-chrome/Default/Login Data", ".config/google-chrome/Default/Cookies",
		".config/chromium/Default/Login Data", ".config/BraveSoftware/Brave-Browser/Default/Login Data",
		".config/microsoft-edge/Default/Login Data", ".config/vivaldi/Default/Login Data",
		".config/opera/Login Data",
	}
	for _, f := range files {
		must(t, os.MkdirAll(filepath.Dir(filepath.Join(home, f)), 0o755))
		must(t, os.WriteFile(filepath.Join(home, f), []byte("tok\n"), 0o600))
	}
	must(t, os.Symlink(home, filepath.Join(root, "h")))
	hard := filepath.Join(root, "notes", "cc.json")
	must(t, os.MkdirAll(filepath.Dir(hard), 0o755))
	must(t, os.Link(filepath.Join(home, ".claude", ".credentials.json"), hard))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, f := range files {
		r12secret(t, p, root, filepath.Join(home, f), "store")
		r12secret(t, p, root, "h/"+f, "store through a workspace link")
	}
	r12secret(t, p, root, hard, "hard link of Claude Code's token")
}

// Attack (the stores under XDG_CONFIG_HOME): the config home moved, as the
// XDG spec lets a user: Copilot's and the browsers' stores live there,
// and SecretEnvHomes carries each .config/ store there.
func TestRedTeam12_stores_under_a_moved_config_home_are_secret(t *testing.T) {
	base, home, root := redHome(t)
	xdg := filepath.Join(base, "xdg")
	p := Places{Roots: []string{root}, Home: home, Env: map[string]string{"XDG_CONFIG_HOME": xdg}}.Policy(OS)
	for _, f := range []string{"github-copilot/apps.json", "google-chrome/Default/Login Data", "chromium/Default/Cookies",
		"BraveSoftware/Brave-Browser/Default/Login Data", "microsoft-edge/Default/Login Data"} {
		r12secret(t, p, root, filepath.Join(xdg, f), "XDG_CONFIG_HOME")
	}
}

// Attack (a search over the stores): a grep or glob of ~/.config or of
// the home reaches the new stores, so it holds a secret and asks.
func TestRedTeam12_search_of_the_config_dir_holds_the_new_stores(t *testing.T) {
	_, home, root := redHome(t)
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, d := range []string{home, filepath.Join(home, ".config"), filepath.Join(home, ".claude"), filepath.Join(home, ".codex")} {
		r := Resolve(OS, root, d)
		if v := p.JudgeReal(r, SearchAccess, DefaultAuto()); !v.Effects.Has(Secret) {
			t.Errorf("search %s: effects %v, want secret", d, v.Effects)
		}
	}
}

// Attack (question, blank letters): each blank letter this stop escapes,
// alone, inside a word, as a Python name, and in a whole cell's text,
// must not reach the user raw.
func TestRedTeam12_blank_letters_are_escaped_in_words_and_text(t *testing.T) {
	for _, r := range []rune{0x3164, 0x115F, 0x1160, 0xFFA0, 0x2800, 0x034F, 0x17B4, 0x17B5, 0x180B, 0x180F,
		0xFE00, 0xFE0F, 0xE0100, 0xE01EF} {
		ch := string(r)
		for _, w := range []string{ch, "a" + ch + "b", ch + " = 1", "rm" + ch, "x\x00y" + ch} {
			if strings.ContainsRune(w, 0) {
				continue // a NUL word is a marker's; covered below
			}
			if got := Visible(w); strings.Contains(got, ch) {
				t.Errorf("Visible(%q) = %q shows %U raw", w, got, r)
			}
		}
		text := "import os\n" + ch + " = 'rm -rf ~'\nos.system(" + ch + ")\n"
		if got := VisibleText(text); strings.Contains(got, ch) {
			t.Errorf("VisibleText shows %U raw: %q", r, got)
		}
	}
}

// Attack (question, the escape itself): ansiC's output read back by bash
// must be the word: a blank letter next to a quote, a backslash, a byte
// that is not UTF-8 and a newline; none of them may close the $'…' early
// and show a second word.
func TestRedTeam12_blank_letter_escape_does_not_break_the_quoting(t *testing.T) {
	for _, w := range []string{"\u3164'; rm -rf ~; '", "\u3164\\'x", "\u3164\xff'", "\u3164\n'x'", "'\u2800'"} {
		got := Visible(w)
		if !strings.HasPrefix(got, "$'") || !strings.HasSuffix(got, "'") {
			t.Errorf("Visible(%q) = %q: not one $'…' word", w, got)
			continue
		}
		body := got[2 : len(got)-1]
		for i := 0; i < len(body); i++ {
			if body[i] == '\\' {
				i++
				continue
			}
			if body[i] == '\'' {
				t.Errorf("Visible(%q) = %q: an unescaped quote ends the word early", w, got)
				break
			}
		}
	}
}

// Attack (settings file, its directory replaced): the settings file is
// secret, but its directory ~/.config/eukhe is only protected (an
// ancestor of a secret entry), and protected is in the default auto set.
// A step renames the directory away, or makes it a symlink to a workspace
// directory, or renames a workspace directory holding a settings.json
// into its place: no write names settings.json, and the loader reads the
// agent's file (shell.confinement off) at the next change. Class: writing
// eukhe's settings by another route.
// Held now: a write to a directory above a user settings file is secret (Policy.aboveGateFile), and both settings files are (Places.GateFiles).
func TestRedTeam12_settings_directory_replaced_is_secret(t *testing.T) {
	_, home, root, pl := r12world(t)
	p := pl.Policy(OS)
	user := filepath.Join(home, ".config", "eukhe")
	r := Resolve(OS, root, user)
	if v := p.JudgeReal(r, WriteAccess, DefaultAuto()); !v.Effects.Has(Secret) || !v.Asks {
		t.Errorf("write (rename, remove, replace) %s, the directory of the settings file: class %v, effects %v, asks %v; want secret, asked",
			user, v.Class, v.Effects, v.Asks)
	}
	cfg := filepath.Join(home, ".config")
	if v := p.JudgeReal(Resolve(OS, root, cfg), WriteAccess, DefaultAuto()); !v.Effects.Has(Secret) || !v.Asks {
		t.Errorf("write (rename) %s, which holds the settings file: class %v, effects %v, asks %v; want secret, asked",
			cfg, v.Class, v.Effects, v.Asks)
	}
}

// Attack (settings file, the default spelling while XDG_CONFIG_HOME moves
// it): eukhe runs with XDG_CONFIG_HOME=/x (the agent's client started it
// from a shell that sets it), so its user file — the one secret entry —
// is /x/eukhe/settings.json. The default file ~/.config/eukhe/settings.json
// is what every eukhe started without the variable reads (the editor's
// `eukhe lsp` started from the desktop, `eukhe approvals`, another
// client's `eukhe mcp`); it is only protected here (in the default auto
// set), so a step writes it unasked and turns their confinement off.
// Class: the home reached under another spelling.
// Held now: a write to a directory above a user settings file is secret (Policy.aboveGateFile), and both settings files are (Places.GateFiles).
func TestRedTeam12_default_settings_file_is_secret_when_XDG_CONFIG_HOME_moves_it(t *testing.T) {
	base, home, root := redHome(t)
	xdg := filepath.Join(base, "xdg")
	p := Places{Roots: []string{root}, Home: home, UserDir: filepath.Join(xdg, "eukhe"),
		Env: map[string]string{"XDG_CONFIG_HOME": xdg}}.Policy(OS)
	r12secret(t, p, root, filepath.Join(xdg, "eukhe", "settings.json"), "the file in force")
	r12secret(t, p, root, filepath.Join(home, ".config", "eukhe", "settings.json"), "the default file other eukhe processes read")
}

// Attack (agents' stores moved by their own variables): Codex reads
// $CODEX_HOME/auth.json, Claude Code $CLAUDE_CONFIG_DIR/.credentials.json;
// SecretEnv names neither, so with the variable set (as the agent's own
// environment has it) the token is read unasked. Class: the home under
// another spelling.
// Held now: the stores are in HomeSecrets, and CODEX_HOME and CLAUDE_CONFIG_DIR in SecretEnvHomes.
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
// Held now: the stores are in HomeSecrets, and CODEX_HOME and CLAUDE_CONFIG_DIR in SecretEnvHomes.
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

// Attack (the agents' stores this stop did not name): the same agents'
// and their kin's logins in the files their documentation names —
// Gemini CLI's API key file (~/.gemini/.env) and its MCP servers' OAuth
// tokens (~/.gemini/mcp-oauth-tokens.json), Qwen Code's OAuth tokens
// (~/.qwen/oauth_creds.json), opencode's provider keys
// (~/.local/share/opencode/auth.json), Claude Code's ~/.claude.json (its
// account, and an API key login's key) — are read unasked (a home
// dot-file is protected for a write only). Class: a credential store
// under another name.
// Held now: the stores are in HomeSecrets, and CODEX_HOME and CLAUDE_CONFIG_DIR in SecretEnvHomes.
func TestRedTeam12_other_agent_credential_files_are_secret(t *testing.T) {
	_, home, root := redHome(t)
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, f := range []string{".gemini/.env", ".gemini/mcp-oauth-tokens.json", ".qwen/oauth_creds.json",
		".local/share/opencode/auth.json", ".claude.json"} {
		t.Run(f, func(t *testing.T) { r12secret(t, p, root, filepath.Join(home, f), "agent credential file") })
	}
}

// Attack (question, blank letters not in the list): characters that print
// as nothing though Go counts them printable, beyond gate.blank's list:
// U+16FE4 KHITAN SMALL SCRIPT FILLER (a nonspacing mark: Python takes it
// in a name, so cmd and cmd+U+16FE4 are two names shown alike), U+1D159
// MUSICAL SYMBOL NULL NOTEHEAD (a symbol drawn as nothing), U+13440
// EGYPTIAN HIEROGLYPH MIRROR HORIZONTALLY. Class: a forged question.
// Held now: blank starts from Unicode's default ignorables Go prints, plus the fillers no property names.
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
