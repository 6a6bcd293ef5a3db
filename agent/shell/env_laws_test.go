package shell

import (
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"pgregory.net/rapid"
)

// The laws of the script's environment: a credential in a well-known
// token's shape, or under a name the rules catch, never reaches a script
// (credential_shapes_removed); a plain variable always does
// (plain_values_kept). Both run scriptEnv, which builds every script's
// environment, over generated values in the real forms of each token.

const (
	alnum  = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b64url = alnum + "-_"
	upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	digits = "0123456789"
	hexLow = "0123456789abcdef"
)

func genChars(t *rapid.T, set string, min, max int, label string) string {
	n := rapid.IntRange(min, max).Draw(t, label+"-len")
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteByte(set[rapid.IntRange(0, len(set)-1).Draw(t, label)])
	}
	return b.String()
}

// genToken draws a credential in the form one provider issues.
func genToken(t *rapid.T) string {
	pick := func(label string, opts ...string) string { return rapid.SampledFrom(opts).Draw(t, label) }
	switch rapid.IntRange(0, 20).Draw(t, "shape") {
	case 0: // Stripe secret and restricted keys
		return pick("stripe", "sk_live_", "sk_test_", "rk_live_", "rk_test_") + genChars(t, alnum, 24, 99, "stripe")
	case 1: // Slack bot and user tokens
		return pick("slack", "xoxb-", "xoxp-", "xoxe-", "xoxa-") + genChars(t, digits, 10, 13, "ws") + "-" +
			genChars(t, digits, 10, 13, "user") + "-" + genChars(t, alnum, 24, 32, "slack")
	case 2: // Slack app-level token
		return "xapp-1-A" + genChars(t, upper, 8, 11, "app") + "-" + genChars(t, digits, 12, 13, "n") + "-" + genChars(t, hexLow, 64, 64, "h")
	case 3: // Slack and Discord webhooks
		if rapid.Bool().Draw(t, "discord") {
			return "https://discord.com/api/webhooks/" + genChars(t, digits, 17, 19, "id") + "/" + genChars(t, b64url, 60, 68, "tok")
		}
		return "https://hooks.slack.com/services/T" + genChars(t, upper, 8, 10, "t") + "/B" + genChars(t, upper, 8, 10, "b") +
			"/" + genChars(t, alnum, 24, 24, "s")
	case 4: // a JWT, as CI systems hand out (CI_JOB_JWT, id tokens)
		head, _ := json.Marshal(map[string]string{"alg": pick("alg", "HS256", "RS256", "ES256", "none"), "typ": "JWT",
			"kid": genChars(t, alnum, 0, 12, "kid")})
		claims, _ := json.Marshal(map[string]any{"sub": genChars(t, alnum, 1, 20, "sub"),
			"iss": "https://" + genChars(t, "abcdefgh", 3, 10, "iss") + ".example", "exp": rapid.IntRange(1e9, 2e9).Draw(t, "exp")})
		sig := base64.RawURLEncoding.EncodeToString([]byte(genChars(t, alnum, 0, 64, "sig")))
		return base64.RawURLEncoding.EncodeToString(head) + "." + base64.RawURLEncoding.EncodeToString(claims) + "." + sig
	case 5: // GitLab personal, deploy, runner and other tokens
		return pick("gl", "glpat-", "gldt-", "glrt-", "glptt-", "glsoat-", "glcbt-", "glft-") + genChars(t, b64url, 20, 40, "gl")
	case 6: // GitHub classic
		return pick("gh", "ghp_", "gho_", "ghu_", "ghs_", "ghr_") + genChars(t, alnum, 36, 36, "gh")
	case 7: // GitHub fine-grained
		return "github_pat_" + genChars(t, alnum, 22, 22, "a") + "_" + genChars(t, alnum, 59, 59, "b")
	case 8: // npm
		return "npm_" + genChars(t, alnum, 36, 36, "npm")
	case 9: // PyPI: a macaroon whose first bytes say pypi.org
		return pick("pypi", "pypi-AgEIcHlwaS5vcmc", "pypi-AgENdGVzdC5weXBpLm9yZw") + genChars(t, b64url, 50, 180, "pypi")
	case 10: // Docker's auth document (DOCKER_AUTH_CONFIG)
		auth := base64.StdEncoding.EncodeToString([]byte(genChars(t, alnum, 3, 12, "u") + ":" + genChars(t, alnum, 8, 30, "p")))
		sp := pick("sp", "", " ", "\n  ")
		return `{` + sp + `"auths"` + pick("colon", ":", ": ") + `{"` + genChars(t, "abcdefgh", 3, 10, "reg") +
			`.example.com":{"auth":"` + auth + `"}}}`
	case 11: // AWS access key id
		return pick("aws", "AKIA", "ASIA") + genChars(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16, 16, "aws")
	case 12: // Google API key
		return "AIza" + genChars(t, b64url, 35, 35, "g")
	case 13: // OpenAI and Anthropic keys
		return pick("sk", "sk-", "sk-proj-", "sk-svcacct-", "sk-ant-api03-", "sk-ant-admin01-") + genChars(t, b64url, 40, 120, "sk")
	case 14: // a private key
		return "-----BEGIN " + pick("pem", "OPENSSH ", "RSA ", "EC ", "") + "PRIVATE KEY-----\n" + genChars(t, alnum, 40, 80, "pem") + "\n-----END PRIVATE KEY-----"
	case 15: // a URL with a password
		return pick("scheme", "postgres", "mysql", "https", "redis", "amqp") + "://" + genChars(t, "abcdefgh", 1, 8, "u") + ":" +
			genChars(t, alnum, 6, 30, "pw") + "@" + genChars(t, "abcdefgh", 2, 10, "h") + ".example:5432/db"
	case 16: // Stripe webhook secret
		return "whsec_" + genChars(t, alnum, 32, 40, "wh")
	case 17: // Hugging Face
		return "hf_" + genChars(t, alnum, 34, 34, "hf")
	case 18: // an Authorization header's value, whatever the token (third red team)
		return pick("auth", "Bearer ", "Basic ", "Token ") + genChars(t, b64url, 8, 60, "auth")
	case 19: // a shared access signature or presigned URL's query
		return "sv=2022-11-02&ss=" + genChars(t, "bfqt", 1, 4, "ss") + "&" + pick("sig", "sig=", "X-Amz-Signature=", "X-Goog-Signature=") +
			genChars(t, b64url, 8, 64, "sig")
	default: // an Azure connection string
		return "DefaultEndpointsProtocol=https;AccountName=" + genChars(t, "abcdefgh", 3, 12, "acct") + ";AccountKey=" +
			genChars(t, alnum, 60, 88, "key") + "==;EndpointSuffix=core.windows.net"
	}
}

// genWrapped is a token as a variable may hold it: bare, as a header, in
// a JSON document, as an option.
func genWrapped(t *rapid.T) string {
	tok := genToken(t)
	f := rapid.SampledFrom([]string{"%s", "Bearer %s", "token %s", `{"token":"%s"}`, "--password=%s", "%s\n"}).Draw(t, "wrap")
	return strings.Replace(f, "%s", tok, 1)
}

// plainNames are variables that are no credential.
var plainNames = []string{"PATH", "HOME", "GOPATH", "GOROOT", "GOFLAGS", "LANG", "LC_ALL", "TERM", "SHELL", "USER",
	"EDITOR", "PWD", "OLDPWD", "SSH_AUTH_SOCK", "KEYMAP", "DISPLAY", "TZ", "NODE_ENV", "CI", "HOSTNAME",
	"XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "LS_COLORS", "PAGER", "GIT_AUTHOR_NAME", "DOCKER_HOST", "TASK", "DISK",
	"VIRTUAL_ENV", "PYTHONPATH", "CARGO_HOME", "JAVA_HOME", "MAKEFLAGS", "COLORTERM", "SKIP_TESTS", "ASK"}

func genPlainName(t *rapid.T) string {
	if rapid.Bool().Draw(t, "listed") {
		return rapid.SampledFrom(plainNames).Draw(t, "name")
	}
	words := []string{"APP", "PORT", "HOST", "DIR", "MODE", "LEVEL", "NAME", "COLOR", "DEBUG", "CACHE", "LOG",
		"GO", "NODE", "BUILD", "TASK", "DISK", "RISK", "ASK", "JOBS", "HOOK", "CONFIG", "REGION", "PROFILE"}
	n := rapid.IntRange(1, 4).Draw(t, "words")
	parts := make([]string, n)
	for i := range parts {
		parts[i] = rapid.SampledFrom(words).Draw(t, "word")
	}
	return strings.Join(parts, "_")
}

// genPlainValue draws a value of the kinds plain variables hold.
func genPlainValue(t *rapid.T) string {
	word := func(label string) string { return genChars(t, "abcdefghijklmnopqrstuvwxyz", 1, 10, label) }
	path := func() string {
		n := rapid.IntRange(1, 5).Draw(t, "depth")
		p := ""
		for i := 0; i < n; i++ {
			p += "/" + rapid.SampledFrom([]string{"usr", "local", "bin", "home", "go", "sk-tools", "opt", ".local",
				"AKIA", "node_modules", ".bin", "eyJ", word("dir")}).Draw(t, "part")
		}
		return p
	}
	switch rapid.IntRange(0, 11).Draw(t, "kind") {
	case 0:
		return path()
	case 1:
		ps := make([]string, rapid.IntRange(1, 8).Draw(t, "entries"))
		for i := range ps {
			ps[i] = path()
		}
		return strings.Join(ps, ":")
	case 2:
		return rapid.SampledFrom([]string{"en_US.UTF-8", "C.UTF-8", "C", "POSIX", "de_DE.utf8", "sk_SK.UTF-8"}).Draw(t, "locale")
	case 3:
		return rapid.SampledFrom([]string{"xterm-256color", "screen", "tmux-256color", "dumb", "linux", "truecolor"}).Draw(t, "term")
	case 4:
		return genChars(t, digits, 1, 12, "num")
	case 5:
		return genChars(t, hexLow, 40, 64, "digest")
	case 6:
		return genChars(t, hexLow, 8, 8, "a") + "-" + genChars(t, hexLow, 4, 4, "b") + "-4" + genChars(t, hexLow, 3, 3, "c") +
			"-a" + genChars(t, hexLow, 3, 3, "d") + "-" + genChars(t, hexLow, 12, 12, "e")
	case 7:
		return "https://" + word("host") + ".example.org" + path() + "?q=" + word("q")
	case 8:
		return word("user") + "@" + word("host") + ".example"
	case 9:
		return rapid.SampledFrom([]string{"-mod=mod -trimpath", "-j4", "true", "false", "development",
			"rs=0:di=01;34:ln=01;36:*.tar=01;31", `{"debug":true,"level":3}`, "unix:///run/docker.sock"}).Draw(t, "misc")
	case 10:
		return word("a") + "-" + word("b") + "_" + word("c")
	default:
		return "v" + genChars(t, digits, 1, 2, "maj") + "." + genChars(t, digits, 1, 2, "min") + "." + genChars(t, digits, 1, 3, "patch")
	}
}

// credentialNames draws a name the name rules catch: the new shapes
// (…_JWT, …_WEBHOOK…, …_SK, …AUTH_CONFIG…) and the older ones.
func genCredentialName(t *rapid.T) string {
	pre := rapid.SampledFrom([]string{"", "CI_JOB", "STRIPE", "SLACK", "MY_APP", "DOCKER", "GITLAB", "X"}).Draw(t, "pre")
	core := rapid.SampledFrom([]string{"JWT", "JWT_V2", "WEBHOOK_URL", "WEBHOOK", "WEBHOOKS", "SK", "SK_LIVE", "AUTH_CONFIG",
		"TOKEN", "API_KEY", "SECRET", "PASSWORD", "PAT", "DSN", "SIGNING_KEY", "CREDENTIALS",
		// the third red team's
		"PW", "BIND_PW", "AUTHORIZATION", "COOKIE_JAR", "SSHPASS"}).Draw(t, "core")
	if pre == "" {
		if core == "SK" || core == "SK_LIVE" || core == "PAT" || core == "DSN" || core == "PW" {
			pre = "APP"
		} else {
			return core
		}
	}
	return pre + "_" + core
}

func TestLaw_credential_shapes_removed(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		byValue := genPlainName(t) + "=" + genWrapped(t)
		byName := genCredentialName(t) + "=" + genPlainValue(t) + "CANARY"
		session := map[string]string{genPlainName(t) + "_S": genWrapped(t)}
		env := scriptEnv([]string{"HOME=/home/u", byValue, byName}, session)
		for _, kv := range env {
			if kv == byValue || kv == byName || strings.HasSuffix(kv, "CANARY") {
				t.Fatalf("reached the script: %q", kv)
			}
			for k, v := range session {
				if kv == k+"="+v {
					t.Fatalf("a session value reached the script: %q", kv)
				}
			}
		}
		if len(env) != 1 {
			t.Fatalf("want only HOME, got %q", env)
		}
	})
}

func TestLaw_plain_values_kept(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		kv := genPlainName(t) + "=" + genPlainValue(t)
		env := scriptEnv([]string{kv}, nil)
		if len(env) != 1 || env[0] != kv {
			t.Fatalf("a plain variable was taken out: %q (left %q)", kv, env)
		}
	})
}
