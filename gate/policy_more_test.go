package gate

import (
	"slices"
	"testing"
)

// Rules given during a session protect their paths and every ancestor,
// and reach the sandbox's list, without shrinking the policy's own.
func TestPolicyMoreRules(t *testing.T) {
	p := NewPolicy(OS, []string{"/w"}, nil, []Rule{{Kind: TreeRule, Path: "/w/.git"}})
	if p.Class(RealPath{Path: "/w/.githooks/pre-commit"}) != ClassInside {
		t.Fatal("the row proves nothing: .githooks is protected already")
	}
	p.SetMoreRules([]Rule{{Kind: TreeRule, Path: "/w/.githooks"}, {Kind: TreeRule, Path: "/w/shared.inc"}})
	for _, path := range []string{"/w/.githooks/pre-commit", "/w/.githooks", "/w/shared.inc", "/w/.git/config"} {
		if c := p.Class(RealPath{Path: path}); c != ClassProtected {
			t.Errorf("%s is %v, want protected", path, c)
		}
	}
	_, paths, _ := p.SandboxRules()
	if !slices.Contains(paths, "/w/.githooks") || !slices.Contains(paths, "/w/.git") {
		t.Errorf("the sandbox's paths: %q", paths)
	}
	p.SetMoreRules(nil)
	if c := p.Class(RealPath{Path: "/w/.git/config"}); c != ClassProtected {
		t.Errorf("the policy's own rule shrank: %v", c)
	}
}
