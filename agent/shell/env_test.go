package shell

import (
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// No credential reaches a child: not from the server's environment, not
// from the session's values; the rest does.
func TestCredentialsNeverReachAChild(t *testing.T) {
	w := newWorld(t, gate.DefaultAuto())
	w.runner.Env = append(w.runner.Env, "FOO_TOKEN=tok-value", "AWS_SECRET_ACCESS_KEY=aws-value",
		"my_api_key=lower-value", "GIT_PASSWORD=pw-value", "PLAIN=plain-value")
	w.runner.Session = map[string]string{"EUKHE_CODING_AGENT_DIR": "/agent/dir", "SESSION_TOKEN": "sess-value"}
	r := w.run(`env; sh -c 'echo "[$FOO_TOKEN$AWS_SECRET_ACCESS_KEY]"'; echo "[$FOO_TOKEN]"`)
	if r.Ending != Finished {
		t.Fatalf("got %s:\n%s", r.Ending, r.Text)
	}
	for _, secret := range []string{"tok-value", "aws-value", "lower-value", "pw-value", "sess-value"} {
		if strings.Contains(r.Text, secret) {
			t.Fatalf("%s reached the script:\n%s", secret, r.Text)
		}
	}
	for _, want := range []string{"PLAIN=plain-value", "EUKHE_CODING_AGENT_DIR=/agent/dir", "\n[]\n"} {
		if !strings.Contains(r.Text, want) {
			t.Fatalf("want %q in:\n%s", want, r.Text)
		}
	}
}

func TestCredentialNames(t *testing.T) {
	for name, want := range map[string]bool{
		"ANTHROPIC_API_KEY": true, "openai_api_key": true, "GH_TOKEN": true, "AWS_SESSION_TOKEN": true,
		"AWS_SECRET_ACCESS_KEY": true, "GOOGLE_APPLICATION_CREDENTIALS": true, "PGPASSWORD": true,
		"SSH_PRIVATE_KEY": true, "MY_APIKEY": true, "GPG_PASSPHRASE": true, "DB_PASSWD": true,
		"PATH": false, "HOME": false, "AWS_PROFILE": false, "EUKHE_CODING_AGENT_DIR": false,
	} {
		if Credential(name) != want {
			t.Errorf("Credential(%q) = %v", name, !want)
		}
	}
}
