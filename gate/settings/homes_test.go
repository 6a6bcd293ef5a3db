package settings

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// The homes a script can name with ~user are the login users' homes; a
// user who cannot log in, or whose home is /, adds none.
func TestPasswdHomes(t *testing.T) {
	passwd := "root:x:0:0:root:/root:/bin/bash\n" +
		"daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n" +
		"sync:x:4:65534:sync:/bin:/bin/sync\n" +
		"alice:x:1000:1000::/home/alice/:/bin/zsh\n" +
		"nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n" +
		"odd:x:5:5::/:/bin/sh\n" +
		"rel:x:6:6::home/rel:/bin/sh\n" +
		"short:x\n"
	got := passwdHomes(passwd)
	if want := []string{"/root", "/home/alice"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("homes %v, want %v", got, want)
	}
}

// eukhe's state directory, where session logs and report_issue rows live,
// is a secret entry; so are the credential stores of other homes.
func TestStateDirAndOtherHomesAreSecret(t *testing.T) {
	home := t.TempDir()
	for env, want := range map[string]string{
		"":            filepath.Join(home, ".local", "state", "eukhe"),
		"/var/state":  "/var/state/eukhe",
		"rel/ignored": filepath.Join(home, ".local", "state", "eukhe"),
	} {
		p := Locate(map[string]string{"HOME": home, "XDG_STATE_HOME": env}, []string{filepath.Join(home, "proj")})
		if p.StateDir != want {
			t.Errorf("XDG_STATE_HOME=%q: state dir %s, want %s", env, p.StateDir, want)
		}
		pl := p.Places(map[string]string{"HOME": home})
		pol := pl.Policy(gate.OS)
		if c := pol.Class(pol.Resolve("/", want+"/sessions/s.jsonl")); c != gate.ClassSecret {
			t.Errorf("a session log under %s is %s", want, c)
		}
		for _, h := range pl.OtherHomes {
			if c := pol.Class(pol.Resolve("/", h+"/.ssh/id_rsa")); c != gate.ClassSecret {
				t.Errorf("%s/.ssh/id_rsa is %s", h, c)
			}
		}
	}
}
