package gate

import "strings"

// HoldsCredential reports whether a git config's text holds a credential
// (red team): a URL with a password (url = https://user:TOKEN@host/…,
// insteadOf and pushurl too), or an http extraheader (what CI checkouts
// leave: AUTHORIZATION: basic …). Such a root's .git/config is a secret
// entry (Places.CredentialFiles): `cat .git/config` showed the token
// unasked, since .git is only protected.
func HoldsCredential(text string) bool {
	low := strings.ToLower(text)
	if strings.Contains(low, "extraheader") {
		return true
	}
	for rest := low; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		rest = rest[i+3:]
		auth := rest
		if j := strings.IndexAny(auth, "/ \t\r\n\"'"); j >= 0 {
			auth = auth[:j]
		}
		if at := strings.LastIndex(auth, "@"); at >= 0 && strings.Contains(auth[:at], ":") {
			return true
		}
	}
}

// cwdReach is how much of its working directory the command argv reads
// (Policy.HoldsSecretIn): ls without -R its entries, git's work-tree
// readers all but .git, any other all of it.
func cwdReach(name string, argv []string) CwdReach {
	switch name {
	case "ls":
		a := lsOpts.read(argv[1:])
		if !a.hasShort("R") && !a.hasLong(lsOpts, "recursive") {
			return CwdEntries
		}
	case "git":
		return CwdWorkTree
	}
	return CwdAll
}
