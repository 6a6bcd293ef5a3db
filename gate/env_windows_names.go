package gate

import "strings"

// windowsEnviron makes a Windows environment read as eukhe reads one.
// Names: Windows compares them without case and os.Environ keeps the
// spelling they were set with ("Path", "SystemRoot"), while eukhe looks
// up PATH, HOME, XDG_*: every name is upper-cased (a child's environment
// with "PATH" for "Path" is the same environment there). HOME: Windows
// names the home USERPROFILE, and every place eukhe derives from the
// home (the secret stores, the settings and state directories) reads
// HOME, as the shell's interpreter does (it sets HOME from the same place
// when unset); a HOME set by the user (Git for Windows' bash sets one) is
// kept.
func windowsEnviron(env map[string]string) {
	for k, v := range env {
		if u := strings.ToUpper(k); u != k {
			delete(env, k)
			if _, ok := env[u]; !ok {
				env[u] = v
			}
		}
	}
	if env["HOME"] != "" {
		return
	}
	if p := env["USERPROFILE"]; p != "" {
		env["HOME"] = p
		return
	}
	if d, p := env["HOMEDRIVE"], env["HOMEPATH"]; d != "" && p != "" {
		env["HOME"] = d + p
	}
}
