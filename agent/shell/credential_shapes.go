package shell

import (
	"encoding/base64"
	"strings"
)

// tokenPrefixes begin the values of well-known credentials, whatever the
// variable is called, each with the least length of what follows it: a
// shorter value is a word that happens to start so ("sk-1", "hf_x").
var tokenPrefixes = []struct {
	prefix string
	rest   int
}{
	// GitHub (classic and fine-grained), GitLab (personal, deploy, runner,
	// pipeline trigger, OAuth, feed, CI build tokens)
	{"ghp_", 8}, {"gho_", 8}, {"ghu_", 8}, {"ghs_", 8}, {"ghr_", 8}, {"github_pat_", 8},
	{"glpat-", 8}, {"gldt-", 8}, {"glrt-", 8}, {"glptt-", 8}, {"gloas-", 8}, {"glft-", 8}, {"glcbt-", 8},
	{"glsoat-", 8}, {"glimt-", 8}, {"glagent-", 8},
	// Slack bot, user, app, config and legacy tokens
	{"xoxb-", 8}, {"xoxp-", 8}, {"xoxa-", 8}, {"xoxs-", 8}, {"xoxe-", 8}, {"xoxe.", 8}, {"xapp-", 8},
	// Stripe secret and restricted keys and webhook signing secrets
	{"sk_live_", 8}, {"sk_test_", 8}, {"rk_live_", 8}, {"rk_test_", 8}, {"whsec_", 8},
	// npm, PyPI (a macaroon), Hugging Face, SendGrid, Shopify, DigitalOcean,
	// age, Doppler, Vault
	{"npm_", 20}, {"pypi-AgEI", 8}, {"hf_", 20}, {"SG.", 20}, {"shpat_", 8}, {"shpss_", 8},
	{"shpca_", 8}, {"dop_v1_", 8}, {"doo_v1_", 8}, {"AGE-SECRET-KEY-", 8}, {"dp.st.", 8}, {"hvs.", 20},
	// AWS key ids, Google API keys, OpenAI- and Anthropic-style keys, a PEM block
	{"AKIA", 12}, {"ASIA", 12}, {"AIza", 20}, {"sk-", 8}, {"-----BEGIN", 8},
}

// webhookURLs begin URLs whose path is the credential: whoever has one
// posts as its owner (Slack, Discord, Microsoft Teams, Google Chat).
var webhookURLs = []string{"https://hooks.slack.com/", "https://discord.com/api/webhooks/",
	"https://discordapp.com/api/webhooks/", "https://outlook.office.com/webhook",
	"webhook.office.com/webhook", "https://chat.googleapis.com/v1/spaces/"}

// CredentialValue reports whether a variable's value is a credential
// whatever its name (beyond the seed, red team): a URL with a user part
// (postgres://u:p@h, a proxy with a password, a Sentry DSN), a webhook
// URL, a JSON Web Token, Docker's auth JSON (DOCKER_AUTH_CONFIG) or a
// value in a well-known token's form. Such a variable never reaches a
// script.
func CredentialValue(v string) bool {
	v = strings.TrimSpace(v)
	for _, p := range tokenPrefixes {
		if strings.HasPrefix(v, p.prefix) && len(v) >= len(p.prefix)+p.rest {
			return true
		}
	}
	for _, w := range webhookURLs {
		if strings.Contains(v, w) {
			return true
		}
	}
	if isJWT(v) || isDockerAuth(v) {
		return true
	}
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/@ ") {
		return false
	}
	auth, _, _ := strings.Cut(rest, "/")
	return strings.Contains(auth, "@")
}

// isJWT tells a JSON Web Token (or a JWS/JWE in compact form): parts of
// base64url separated by dots, the first a JSON object ("eyJ" is `{"`).
func isJWT(v string) bool {
	parts := strings.Split(v, ".")
	if len(parts) < 2 || len(parts) > 5 || !strings.HasPrefix(v, "eyJ") {
		return false
	}
	for _, p := range parts[:2] {
		if len(p) < 4 || strings.Trim(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=") != "" {
			return false
		}
	}
	head, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[0], "="))
	return err == nil && strings.HasPrefix(strings.TrimSpace(string(head)), "{")
}

// isDockerAuth tells Docker's config JSON with registry credentials
// (DOCKER_AUTH_CONFIG, a .dockerconfigjson): an "auths" object, or an
// "auth"/"identitytoken"/"password" member.
func isDockerAuth(v string) bool {
	if !strings.HasPrefix(v, "{") {
		return false
	}
	for _, k := range []string{`"auths"`, `"auth"`, `"identitytoken"`, `"password"`, `"registrytoken"`} {
		if strings.Contains(v, k) {
			return true
		}
	}
	return false
}
