package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The fifth red team (after the fixes of the fourth), through the real
// binary: the attacks fixed so far. The rest of its attacks are open,
// and kept apart until they are fixed (the closing note lists them).

// Credential files the environment names, outside the home's stores:
// sops' age keys (SOPS_AGE_KEY_FILE), a web identity token
// (AWS_WEB_IDENTITY_TOKEN_FILE), Ansible's vault password
// (ANSIBLE_VAULT_PASSWORD_FILE), Terraform's CLI config with its
// credentials block (TF_CLI_CONFIG_FILE), rclone's config moved
// (RCLONE_CONFIG), Helm's registry logins (HELM_REGISTRY_CONFIG),
// Docker's TLS client key (DOCKER_CERT_PATH). SecretEnv names others of
// the kind; these a step reads.
func TestAttackRound5_credential_files_the_environment_names_are_readable(t *testing.T) {
	for _, mech := range mechanisms {
		t.Run(mech, func(t *testing.T) {
			w := newEnvWorld(t, `["read", "write", "exec"]`)
			files := map[string][2]string{
				"SOPS_AGE_KEY_FILE":           {"keys/age.txt", "AGE-SECRET-KEY-1 CANARYage01"},
				"AWS_WEB_IDENTITY_TOKEN_FILE": {"keys/token", "CANARYwit02"},
				"ANSIBLE_VAULT_PASSWORD_FILE": {"keys/vault-pass", "CANARYans03"},
				"TF_CLI_CONFIG_FILE":          {"keys/terraformrc", "credentials \"app.terraform.io\" { token = \"CANARYtf04\" }"},
				"RCLONE_CONFIG":               {"keys/rclone.conf", "[s3]\nsecret_access_key = CANARYrc05\n"},
				"HELM_REGISTRY_CONFIG":        {"keys/helm.json", "{\"auths\": {\"r\": {\"auth\": \"CANARYhelm06\"}}}"},
				"DOCKER_CERT_PATH":            {"keys/docker", ""},
			}
			var more, cat []string
			for k, v := range files {
				path := filepath.Join(w.home, v[0])
				if k == "DOCKER_CERT_PATH" {
					writeFile(t, filepath.Join(path, "key.pem"), "CANARYdck07\n", 0o600)
					cat = append(cat, filepath.Join(path, "key.pem"))
				} else {
					writeFile(t, path, v[1]+"\n", 0o600)
					cat = append(cat, path)
				}
				more = append(more, k+"="+path)
			}
			p := r3mcp(t, w, w.root, os.Getenv("PATH"), append(more, "EUKHE_CONFINEMENT="+mech)...)
			text, _ := p.call("bash", map[string]any{"script": "cat " + strings.Join(cat, " ")})
			text2, _ := p.call("bash", map[string]any{"script": r3py("import os\nfor k in " + fmt.Sprintf("%q", more) + ":\n  p = k.split('=', 1)[1]\n  if os.path.isdir(p): p += '/key.pem'\n  try: print(open(p).read())\n  except Exception as e: print(e)\n")})
			for _, c := range []string{"CANARYage01", "CANARYwit02", "CANARYans03", "CANARYtf04", "CANARYrc05", "CANARYhelm06", "CANARYdck07"} {
				if shows(text, c) || shows(text2, c) {
					t.Errorf("a step read %s from a credential file the environment names", c)
				}
			}
		})
	}
}
