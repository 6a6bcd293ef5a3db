package gate

import "strings"

// WineUnixHome is the Unix user's home as a Windows program under Wine
// opens it, from the value of WINEHOMEDIR that Wine sets in each
// process ("\??\Z:\home\me": an NT path), or ok false when the value
// names no drive the gate can place (Wine's \??\unix\… when no drive
// maps the Unix root). Wine links the profile's Documents, Desktop and
// the rest there, so its stores (~/.ssh, ~/.aws, …) are the user's as
// much as the prefix's home's are: hosthomes_windows.go makes it one of
// the other homes (Places.OtherHomes) whose stores are secret.
func WineUnixHome(winehomedir string) (string, bool) {
	p := strings.ReplaceAll(winehomedir, "/", `\`)
	if rest, ok := strings.CutPrefix(p, `\??\`); ok {
		p = rest
	}
	c, problem := WindowsCanonical(p)
	if problem != "" || !driveLetter(c) || len(c) <= 3 {
		return "", false
	}
	return strings.ReplaceAll(c, "/", `\`), true
}
