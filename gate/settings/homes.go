package settings

import (
	"os"
	"os/user"
	"path/filepath"
	"strings"
)

// UserHomes are the home directories a script can name with ~user: the
// current user's from the user database (it may differ from $HOME), and
// each in /etc/passwd of a user who can log in (a shell that is not
// nologin, false or sync). mvdan's interpreter expands ~user through the
// same database, so their credential stores are secrets too.
func UserHomes() []string {
	var homes []string
	if u, err := user.Current(); err == nil && filepath.IsAbs(u.HomeDir) {
		homes = append(homes, u.HomeDir)
	}
	data, err := os.ReadFile("/etc/passwd")
	if err != nil {
		return homes
	}
	return append(homes, passwdHomes(string(data))...)
}

// passwdHomes are the homes of the users of a passwd file who can log in.
func passwdHomes(passwd string) []string {
	var homes []string
	for _, line := range strings.Split(passwd, "\n") {
		f := strings.Split(line, ":")
		if len(f) < 7 || !filepath.IsAbs(f[5]) || filepath.Clean(f[5]) == "/" {
			continue
		}
		switch filepath.Base(f[6]) {
		case "nologin", "false", "sync", "shutdown", "halt":
			continue
		}
		homes = append(homes, filepath.Clean(f[5]))
	}
	return homes
}
