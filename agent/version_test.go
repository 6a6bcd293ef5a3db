package agent

import (
	"runtime/debug"
	"testing"
)

func TestVersionOfABuild(t *testing.T) {
	rev := []debug.BuildSetting{{Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "true"}}
	for _, c := range []struct {
		info *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{&debug.BuildInfo{Main: debug.Module{Version: "v1.2.3"}}, true, "v1.2.3"},
		{&debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: rev}, true, "devel (0123456789ab, modified)"},
		// a pseudo-version already names the revision
		{&debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201000000-0123456789ab+dirty"}, Settings: rev}, true, "v0.0.0-20261201000000-0123456789ab+dirty"},
	} {
		if got := versionOf(c.info, c.ok); got != c.want {
			t.Errorf("versionOf(%+v) = %q, want %q", c.info, got, c.want)
		}
	}
}

func TestAStampedVersionWins(t *testing.T) {
	if got := stampedOr("v0.1.0-3-gabcdef0", versionOf); got != "v0.1.0-3-gabcdef0" {
		t.Fatalf("stamped build says %q", got)
	}
	if got := stampedOr("", func(*debug.BuildInfo, bool) string { return "from the build" }); got != "from the build" {
		t.Fatalf("unstamped build says %q", got)
	}
}
