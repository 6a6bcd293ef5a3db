package gate

// The credential stores and startup places each OS keeps in the home
// beyond the dot-entries every OS shares (G1.4, G1.3). They are pure data
// selected by the OS name, so a test on any host checks each OS's list;
// the per-OS files (places_darwin.go, places_windows.go,
// places_other.go) name their OS once in placesOS, and init appends that
// OS's lists to HomeSecrets, HomeProtected and SecretEnvHomes. On Linux
// (and the other unixes) nothing is appended: their lists stay as they
// are.

// homeSecretsFor are the credential stores of an OS's programs below the
// home, beyond HomeSecrets (whose dot-entries, .ssh, .aws, .docker/config.json,
// apply on every OS).
func homeSecretsFor(goos string) []string {
	switch goos {
	case "darwin":
		return []string{
			// the login keychain and the system's cookie jar
			"Library/Keychains", "Library/Cookies",
			// CLIs that keep their logins in Application Support
			// (gh and gcloud use ~/.config there too: HomeSecrets)
			"Library/Application Support/gh", "Library/Application Support/GitHub CLI",
			"Library/Application Support/gcloud", "Library/Application Support/Bitwarden CLI",
			"Library/Application Support/rclone",
			// 1Password 8's data (its group container) and the app's own
			"Library/Group Containers/2BUA8C4S2C.com.1password", "Library/Containers/com.1password.1password",
			"Library/Application Support/1Password",
			// browser profiles: cookies, saved logins, session tokens
			"Library/Application Support/Google/Chrome", "Library/Application Support/Chromium",
			"Library/Application Support/Microsoft Edge", "Library/Application Support/BraveSoftware",
			"Library/Application Support/Firefox/Profiles", "Library/Safari",
			"Library/Containers/com.apple.Safari",
		}
	case "windows":
		// below %APPDATA% (AppData/Roaming) and %LOCALAPPDATA%
		// (AppData/Local); when the variables name another place, the same
		// stores are secret there too (secretEnvHomesFor)
		return []string{
			"AppData/Roaming/GitHub CLI", "AppData/Roaming/gh", "AppData/Roaming/gcloud",
			"AppData/Roaming/npm/etc/npmrc", "AppData/Roaming/Bitwarden CLI", "AppData/Roaming/rclone",
			"AppData/Roaming/gnupg", "AppData/Roaming/Docker/config.json", "AppData/Roaming/Subversion/auth",
			// Windows' own: DPAPI master keys and the credential manager's files
			"AppData/Roaming/Microsoft/Protect", "AppData/Roaming/Microsoft/Credentials",
			"AppData/Local/Microsoft/Credentials", "AppData/Local/1Password",
			// browser profiles: cookies, saved logins, session tokens
			"AppData/Local/Google/Chrome/User Data", "AppData/Local/Chromium/User Data",
			"AppData/Local/Microsoft/Edge/User Data", "AppData/Local/BraveSoftware/Brave-Browser/User Data",
			"AppData/Roaming/Mozilla/Firefox/Profiles",
		}
	}
	return nil
}

// homeProtectedFor are an OS's places below the home whose programs the
// user's tools run when they next start, beyond HomeProtected: the
// editors' user config, what a login starts, the shells' profiles.
func homeProtectedFor(goos string) []string {
	switch goos {
	case "darwin":
		return []string{
			"Library/Application Support/Code/User", "Library/Application Support/Code - Insiders/User",
			"Library/Application Support/VSCodium/User", "Library/Application Support/Cursor/User",
			"Library/Application Support/Windsurf/User", "Library/Application Support/Zed",
			// launchd starts each agent here at login
			"Library/LaunchAgents",
		}
	case "windows":
		return []string{
			"AppData/Roaming/Code/User", "AppData/Roaming/Code - Insiders/User", "AppData/Roaming/VSCodium/User",
			"AppData/Roaming/Cursor/User", "AppData/Roaming/Windsurf/User", "AppData/Roaming/Zed",
			"AppData/Local/Zed", "AppData/Local/nvim",
			// npm's global prefix: its programs are on PATH
			"AppData/Roaming/npm",
			// PowerShell's profiles run at every shell start (Documents may
			// be moved into OneDrive)
			"Documents/PowerShell", "Documents/WindowsPowerShell",
			"OneDrive/Documents/PowerShell", "OneDrive/Documents/WindowsPowerShell",
			// what the session starts at login
			"AppData/Roaming/Microsoft/Windows/Start Menu/Programs/Startup",
		}
	}
	return nil
}

// secretEnvHomesFor are an OS's variables that move part of the home, as
// SecretEnvHomes: each store of HomeSecrets under the part is secret
// under the value too (APPDATA=D:/roam makes D:/roam/gh secret), and each
// place of HomeProtected under it protected there (envHomeRules).
func secretEnvHomesFor(goos string) map[string]string {
	if goos == "windows" {
		return map[string]string{"APPDATA": "AppData/Roaming", "LOCALAPPDATA": "AppData/Local"}
	}
	return nil
}

func init() {
	HomeSecrets = append(HomeSecrets, homeSecretsFor(placesOS)...)
	HomeProtected = append(HomeProtected, homeProtectedFor(placesOS)...)
	for k, v := range secretEnvHomesFor(placesOS) {
		SecretEnvHomes[k] = v
		protectedEnvHomes[k] = v
	}
}

// protectedEnvHomes are the variables that move a part of the home whose
// HomeProtected places are protected under the value too (APPDATA's
// Code/User). Empty on Linux, where MovedHomes does that work.
var protectedEnvHomes = map[string]string{}
