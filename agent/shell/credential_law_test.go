package shell

import (
	"encoding/base64"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// drawFrom draws n to m characters of the given alphabet.
func drawFrom(t *rapid.T, alphabet string, n, m int, label string) string {
	return rapid.StringOfN(rapid.SampledFrom([]rune(alphabet)), n, m, -1).Draw(t, label)
}

const (
	lowerDigits = "abcdefghijklmnopqrstuvwxyz0123456789"
	alnumChars  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64url      = alnumChars + "-_"
)

// credentialShape draws a value in the form a real service issues.
func credentialShape(t *rapid.T) string {
	switch rapid.IntRange(0, 13).Draw(t, "kind") {
	case 0: // Stripe
		return rapid.SampledFrom([]string{"sk_live_", "sk_test_", "rk_live_", "whsec_"}).Draw(t, "p") +
			drawFrom(t, alnumChars, 24, 99, "k")
	case 1: // Slack webhook
		return "https://hooks.slack.com/services/T" + drawFrom(t, alnumChars, 8, 10, "t") + "/B" +
			drawFrom(t, alnumChars, 8, 10, "b") + "/" + drawFrom(t, alnumChars, 24, 24, "s")
	case 2: // JWT
		head := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"` +
			rapid.SampledFrom([]string{"HS256", "RS256", "ES256"}).Draw(t, "alg") + `","typ":"JWT"}`))
		return head + "." + drawFrom(t, b64url, 10, 200, "claims") + "." + drawFrom(t, b64url, 10, 90, "sig")
	case 3: // GitLab
		return rapid.SampledFrom([]string{"glpat-", "gldt-", "glrt-", "glptt-"}).Draw(t, "p") +
			drawFrom(t, b64url, 20, 20, "k")
	case 4: // GitHub fine-grained and classic
		return rapid.SampledFrom([]string{"github_pat_", "ghp_", "gho_", "ghs_"}).Draw(t, "p") +
			drawFrom(t, alnumChars+"_", 36, 82, "k")
	case 5: // npm
		return "npm_" + drawFrom(t, alnumChars, 36, 36, "k")
	case 6: // PyPI
		return "pypi-AgEIcHlwaS5vcmc" + drawFrom(t, b64url, 50, 150, "k")
	case 7: // Docker auth JSON
		return `{"auths":{"registry.example.com":{"auth":"` +
			base64.StdEncoding.EncodeToString([]byte("u:"+drawFrom(t, alnumChars, 8, 20, "pw"))) + `"}}}`
	case 8: // Slack tokens
		return rapid.SampledFrom([]string{"xoxb-", "xoxp-", "xapp-"}).Draw(t, "p") +
			drawFrom(t, lowerDigits+"-", 20, 60, "k")
	case 9: // AWS key id
		return rapid.SampledFrom([]string{"AKIA", "ASIA"}).Draw(t, "p") + drawFrom(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 16, "k")
	case 10: // Anthropic / OpenAI
		return rapid.SampledFrom([]string{"sk-ant-api03-", "sk-proj-", "sk-"}).Draw(t, "p") + drawFrom(t, b64url, 20, 90, "k")
	case 11: // a URL with a password
		return rapid.SampledFrom([]string{"postgres", "mysql", "redis", "https", "amqp"}).Draw(t, "s") + "://" +
			drawFrom(t, lowerDigits, 1, 10, "u") + ":" + drawFrom(t, alnumChars, 1, 20, "pw") + "@" +
			drawFrom(t, lowerDigits, 1, 10, "h") + "/db"
	case 12: // Discord / Teams webhooks
		return rapid.SampledFrom([]string{"https://discord.com/api/webhooks/", "https://acme.webhook.office.com/webhookb2/"}).Draw(t, "p") +
			drawFrom(t, alnumChars, 20, 60, "k")
	default: // Hugging Face
		return "hf_" + drawFrom(t, alnumChars, 34, 34, "k")
	}
}

// TestLaw_credential_shapes_removed: a value in a well-known token's form
// is a credential whatever its variable is called, with or without
// surrounding blanks, and never reaches a script.
func TestLaw_credential_shapes_removed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		v := credentialShape(t)
		if rapid.Bool().Draw(t, "blank") {
			v = " " + v + "\n"
		}
		if !CredentialValue(v) {
			t.Fatalf("CredentialValue(%q) = false", v)
		}
		name := drawFrom(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ", 1, 12, "name")
		for _, kv := range scriptEnv([]string{name + "=" + v, "PLAIN=1"}, nil) {
			if strings.HasPrefix(kv, name+"=") {
				t.Fatalf("%s reached the script", kv)
			}
		}
	})
}

// The names of the credentials the red team found that the list missed.
func TestCredentialNamesOfCI(t *testing.T) {
	for name, want := range map[string]bool{
		"DOCKER_AUTH_CONFIG": true, "CI_JOB_JWT": true, "CI_JOB_JWT_V2": true, "SLACK_WEBHOOK_URL": true,
		"STRIPE_SK": true, "DISCORD_WEBHOOK": true, "ACTIONS_ID_TOKEN_REQUEST_TOKEN": true,
		"DISK": false, "TASK": false, "DESK_SIZE": false, "LANG": false, "GOFLAGS": false,
	} {
		if Credential(name) != want {
			t.Errorf("Credential(%q) = %v", name, !want)
		}
	}
}

// TestLaw_plain_values_kept: what programs need to run is no credential:
// paths, search paths, locales, numbers, words, ordinary URLs.
func TestLaw_plain_values_kept(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var v string
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0:
			v = "/" + drawFrom(t, lowerDigits+"/._-", 0, 40, "path")
		case 1:
			v = "/usr/local/bin:/usr/bin:/bin:" + drawFrom(t, lowerDigits+"/:", 0, 40, "more")
		case 2:
			v = rapid.SampledFrom([]string{"en_US.UTF-8", "C.UTF-8", "xterm-256color", "1", "true", "auto"}).Draw(t, "word")
		case 3:
			v = drawFrom(t, "0123456789", 1, 12, "n")
		case 4:
			v = "https://" + drawFrom(t, lowerDigits, 1, 12, "host") + ".example.org/" + drawFrom(t, lowerDigits+"/", 0, 30, "p")
		default:
			v = drawFrom(t, lowerDigits+" -", 0, 20, "words")
		}
		if CredentialValue(v) {
			t.Fatalf("CredentialValue(%q) = true", v)
		}
	})
}
