package agent

import (
	"runtime/debug"
	"strings"
)

// Version is eukhe's version as every peer sees it: MCP's serverInfo and
// clientInfo, the LSP handshake's serverInfo and `eukhe version`. It comes
// from the build info: the module version ("v1.2.3" from go install
// …@v1.2.3, a pseudo-version from a build in a clone, "devel" from go run)
// and, when the build recorded one, the VCS revision.
// A release build (make dist) stamps it with `git describe`.
var Version = stampedOr(stamp, versionOf)

// stamp is set by the release build: -ldflags "-X
// github.com/eukhe/eukhe/agent.stamp=v0.1.0".
var stamp string

// stampedOr is the stamp when the build has one, else the version the
// build info gives.
func stampedOr(stamp string, of func(*debug.BuildInfo, bool) string) string {
	if stamp != "" {
		return stamp
	}
	return of(debug.ReadBuildInfo())
}

// versionOf is the version string of a build's info; pure, for the tests.
func versionOf(info *debug.BuildInfo, ok bool) string {
	if !ok || info == nil {
		return "devel"
	}
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if rev != "" && !strings.Contains(v, rev) {
		v += " (" + rev
		if modified == "true" {
			v += ", modified"
		}
		v += ")"
	}
	return v
}
