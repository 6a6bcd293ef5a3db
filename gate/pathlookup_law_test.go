package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// A lookup on PATH reads each entry for the name (the shell's own lookup,
// in eukhe's process, and type, command and hash, which print what it
// found): a step whose PATH holds an entry that is, or is in, a secret
// place is secret, whatever name it looks up, and a step whose PATH holds
// none is not made secret by its lookup.
func TestLaw_a_lookup_on_a_PATH_through_a_secret_place_is_secret(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	ssh := filepath.Join(home, ".ssh")
	must(t, os.MkdirAll(ssh, 0o700))
	must(t, os.MkdirAll(filepath.Join(root, "bin"), 0o755))
	must(t, os.Symlink(ssh, filepath.Join(root, "L")))
	p := r14policy(home, root)
	entries := map[string]bool{ // entry → in a secret place
		"/usr/bin": false, "/bin": false, filepath.Join(root, "bin"): false,
		ssh: true, filepath.Join(root, "L"): true, filepath.Join(ssh, "sub"): true,
	}
	var all []string
	for e := range entries {
		all = append(all, e)
	}
	rapid.Check(t, func(rt *rapid.T) {
		path := rapid.SliceOfN(rapid.SampledFrom(all), 1, 4).Draw(rt, "path")
		script := rapid.SampledFrom([]string{"ls", "type ls", "command -v git", "hash cat", "helper", "echo hi"}).Draw(rt, "script")
		secret := false
		for _, e := range path {
			secret = secret || entries[e]
		}
		sh := &Shell{Policy: p, Dir: root, Env: map[string]string{"HOME": home, "PATH": strings.Join(path, ":")}}
		sc, err := sh.Classify(script)
		if err != nil {
			rt.Fatal(err)
		}
		got := sc.Steps[0].Effects.Has(Secret)
		looks := !strings.HasPrefix(script, "echo")
		switch {
		case looks && secret && !got:
			rt.Fatalf("%q with PATH=%s looks in a secret place and is %v", script, strings.Join(path, ":"), sc.Steps[0].Effects)
		case !secret && got:
			rt.Fatalf("%q with PATH=%s is secret, though no entry is", script, strings.Join(path, ":"))
		}
	})
}
