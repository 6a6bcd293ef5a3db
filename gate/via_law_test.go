package gate

import (
	"testing"

	"pgregory.net/rapid"
)

// TestLaw_a_store_entry_is_secret_by_every_route: G1 judges a path by its
// real path, and a store's entry may be a link out of the store (GNU
// stow, home-manager: ~/.ssh/config -> ~/dotfiles/ssh_config). Made after
// the policy, so that the policy's scan of the store (linkedOutOf) never
// saw it, such an entry is still the store's by every route that names
// it: the store's own path, a link to the store, a link to the entry,
// and a path below it when it links to a directory — each is Secret and
// holds a secret. The same for a link in a protected place: written
// through .git/hooks linked out of .git, a hook is Protected.
func TestLaw_a_store_entry_is_secret_by_every_route(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		const (
			store = lawHome + "/.ssh"
			dot   = lawHome + "/dot"
		)
		f := fakeFS{}
		for _, d := range []string{"/home", lawHome, store, dot, dot + "/d", lawRoot, lawRoot + "/.git", lawRoot + "/d"} {
			f[d] = fakeNode{kind: KindDir}
		}
		for _, file := range []string{dot + "/f", dot + "/d/x", lawRoot + "/a", lawRoot + "/d/x"} {
			f[file] = fakeNode{kind: KindFile}
		}
		p := NewPolicy(f, []string{lawRoot}, []string{store}, []Rule{{Kind: NamedRule, Name: ".git"}})

		// after the policy: the store's entry, .git's hooks, and the
		// agent's link in the workspace
		dirTarget := rapid.Bool().Draw(rt, "entry links to a directory")
		target := rapid.SampledFrom([]string{dot + "/f", lawRoot + "/a", "../dot/f"}).Draw(rt, "file target")
		if dirTarget {
			target = rapid.SampledFrom([]string{dot + "/d", lawRoot + "/d", "../dot/d"}).Draw(rt, "dir target")
		}
		f[store+"/e"] = fakeNode{kind: KindLink, target: target}
		f[lawRoot+"/.git/hooks"] = fakeNode{kind: KindLink, target: rapid.SampledFrom([]string{dot + "/d", lawRoot + "/d"}).Draw(rt, "hooks target")}
		agentLink := rapid.SampledFrom([]string{store, store + "/e", "../.ssh", lawRoot + "/.git", ".git/hooks"}).Draw(rt, "agent's link")
		f[lawRoot+"/L"] = fakeNode{kind: KindLink, target: agentLink}

		var routes []string
		switch agentLink {
		case store, "../.ssh":
			routes = []string{lawRoot + "/L/e", "L/e", "L/../.ssh/e"}
		case store + "/e":
			routes = []string{lawRoot + "/L", "L"}
		default:
			routes = []string{"L/hooks/x", "L/x"}
			if agentLink == lawRoot+"/.git" {
				routes = []string{"L/hooks/x"}
			}
		}
		routes = append(routes, store+"/e", lawRoot+"/.git/hooks/x")
		below := dirTarget && rapid.Bool().Draw(rt, "a path below the entry")
		for _, route := range routes {
			if below && route != lawRoot+"/.git/hooks/x" && route != "L/hooks/x" && route != "L/x" {
				route += "/x"
			}
			r := Resolve(f, lawRoot, route)
			hooks := route == lawRoot+"/.git/hooks/x" || route == "L/hooks/x" || route == "L/x"
			if hooks {
				if c := p.ClassWrite(r); c < ClassProtected {
					rt.Fatalf("write %s (real %s, via %v): %v, want protected", route, r.Path, r.Via, c)
				}
				continue
			}
			if c := p.Class(r); c != ClassSecret {
				rt.Fatalf("%s (real %s, via %v): %v, want secret", route, r.Path, r.Via, c)
			}
			if !p.HoldsSecret(r) {
				rt.Fatalf("%s (real %s, via %v): holds no secret", route, r.Path, r.Via)
			}
		}
	})
}
