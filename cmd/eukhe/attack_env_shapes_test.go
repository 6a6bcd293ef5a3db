package main

import (
	"encoding/base64"
	"strings"
	"testing"
)

// Credentials the name list missed (the third red team): a CI's job
// token, a webhook URL, Docker's auth JSON, a Stripe key, each in eukhe's
// environment under its own name and under a bland one. No step may see a
// value, whichever way it looks: the variable, the whole environment, a
// child's /proc/self/environ, an interpreter's os.environ.
func TestAttacks_credentials_by_shape_reach_no_step(t *testing.T) {
	t.Parallel()
	w := newAttackWorld(t)
	jwt := base64.RawURLEncoding.EncodeToString([]byte(`{"alg":"RS256","typ":"JWT"}`)) + ".CANARYjwtc1aims." + "c2lnbmF0dXJl"
	docker := `{"auths":{"registry.example.com":{"auth":"` + base64.StdEncoding.EncodeToString([]byte("u:CANARYd0cker")) + `"}}}`
	creds := map[string]string{
		"DOCKER_AUTH_CONFIG": docker,
		"CI_JOB_JWT":         jwt,
		"CI_JOB_JWT_V2":      jwt,
		"SLACK_WEBHOOK_URL":  "https://hooks.slack.com/services/T000/B000/CANARYs1ackhook",
		"STRIPE_SK":          "sk_live_CANARYstr1pe0123456789",
		// the same shapes under names that say nothing
		"DEPLOY_CFG": "sk_live_CANARYstr1peb1and",
		"NOTIFY":     "https://hooks.slack.com/services/T1/B1/CANARYs1ackb1and",
		"ID":         jwt,
		"REGISTRY":   docker,
		"PUBLISH":    "npm_CANARYnpmtoken0123456789abcdefghij",
		"UPLOAD":     "pypi-AgEIcHlwaS5vcmcCANARYpypi",
		"GL":         "glpat-CANARYg1tlab0123",
	}
	secrets := []string{"CANARYjwtc1aims", "CANARYs1ackhook", "CANARYstr1pe", "CANARYs1ackb1and",
		"CANARYnpmtoken", "CANARYpypi", "CANARYg1tlab", base64.StdEncoding.EncodeToString([]byte("u:CANARYd0cker"))}
	for k, v := range creds {
		w.env = append(w.env, k+"="+v)
	}
	p := startMCP(t, w.env, w.root)
	p.waitStderr("headless")
	for _, script := range []string{
		"printenv",
		"env",
		"printenv DOCKER_AUTH_CONFIG CI_JOB_JWT SLACK_WEBHOOK_URL STRIPE_SK DEPLOY_CFG NOTIFY ID",
		`echo "$DOCKER_AUTH_CONFIG $CI_JOB_JWT $SLACK_WEBHOOK_URL $STRIPE_SK $DEPLOY_CFG $NOTIFY $ID $REGISTRY $PUBLISH $UPLOAD $GL"`,
		"export; set",
		"sh -c 'env'",
		"env | base64",
		`tr '\0' '\n' < /proc/self/environ`,
		`python3 -c 'import os; print(dict(os.environ))'`,
		`awk 'BEGIN { for (k in ENVIRON) print k "=" ENVIRON[k] }'`,
	} {
		text, _ := p.call("bash", map[string]any{"script": script})
		dec := text
		if b, err := base64.StdEncoding.DecodeString(strings.Join(strings.Fields(text), "")); err == nil {
			dec += string(b)
		}
		for _, s := range secrets {
			if strings.Contains(dec, s) {
				t.Errorf("%q shows %s:\n%.800s", script, s, text)
			}
		}
	}
	// the control: what programs need still reaches them
	if text, failed := p.call("bash", map[string]any{"script": "printenv HOME LANG"}); failed || !strings.Contains(text, "C.UTF-8") {
		t.Errorf("printenv HOME LANG: %s", text)
	}
}
