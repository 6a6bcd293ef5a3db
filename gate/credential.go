package gate

import (
	"regexp"
	"slices"
	"strings"
)

// HoldsCredential reports whether a git config's text holds a credential
// (red team): a URL with a password (url = https://user:TOKEN@host/…,
// insteadOf and pushurl too), or an http extraheader (what CI checkouts
// leave: AUTHORIZATION: basic …). Such a root's .git/config is a secret
// entry (Places.CredentialFiles): `cat .git/config` showed the token
// unasked, since .git is only protected.
func HoldsCredential(text string) bool {
	low := strings.ToLower(text)
	if strings.Contains(low, "extraheader") {
		return true
	}
	for rest := low; ; {
		i := strings.Index(rest, "://")
		if i < 0 {
			return false
		}
		rest = rest[i+3:]
		auth := rest
		if j := strings.IndexAny(auth, "/ \t\r\n\"'"); j >= 0 {
			auth = auth[:j]
		}
		if at := strings.LastIndex(auth, "@"); at >= 0 && strings.Contains(auth[:at], ":") {
			return true
		}
	}
}

// cwdReach is how much of its working directory the command argv reads
// (Policy.HoldsSecretIn): ls without -R its entries, git's work-tree
// readers all but .git, any other all of it.
func cwdReach(name string, argv []string) CwdReach {
	switch name {
	case "ls":
		a := lsOpts.read(argv[1:])
		if !a.hasShort("R") && !a.hasLong(lsOpts, "recursive") {
			return CwdEntries
		}
	case "git":
		return CwdWorkTree
	}
	return CwdAll
}

// Credentials in the environment (S7.7): a variable whose name or value
// is a credential never reaches a script or a program it runs. By name
// (CredentialName): its parts, its endings, and the list of provider
// variables; by value (CredentialValue): the shapes of well-known tokens,
// whatever the variable is called. The shapes are narrow on purpose —
// each a prefix no plain value starts with, then enough characters of
// the token's alphabet — so PATH, HOME, GOPATH, LANG, TERM and the like
// stay.

// credentialParts are the parts of a name, in upper case, that make it a
// credential wherever they appear in it.
var credentialParts = []string{"API_KEY", "APIKEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD",
	"PASSPHRASE", "CREDENTIAL", "PRIVATE_KEY", "ACCESS_KEY", "AUTH_CONFIG", "AUTHCONFIG",
	// the third red team's: an Authorization header, a cookie (jar), sshpass's SSHPASS
	"AUTHORIZATION", "COOKIE", "SSHPASS",
	// the fourth's: Tailscale's auth key, Honeycomb's write key, a wallet's words
	"AUTHKEY", "WRITEKEY", "PRIVKEY", "MNEMONIC", "SEED_PHRASE",
	// the fifth's: Yarn's npmAuthIdent (YARN_NPM_AUTH_IDENT), user:password
	"AUTH_IDENT", "AUTHIDENT"}

// credentialWords are words of a name (split at "_"), in upper case, that
// make it a credential: CI_JOB_JWT, CI_JOB_JWT_V2, STRIPE_SK,
// SLACK_WEBHOOK_URL (a word starting WEBHOOK).
var credentialWords = []string{"JWT", "SK"}

// credentialEnds are the endings of a name, in upper case, that make it a
// credential (red team): SIGNING_KEY, GH_PAT, MYSQL_PWD, SMTP_PASS,
// SENTRY_DSN, AWS_CREDS, NPM_CONFIG__AUTH, LDAP_BIND_PW. PWD and OLDPWD
// are the shell's directories, not a credential (no "_").
var credentialEnds = []string{"_KEY", "_PAT", "_PWD", "_PW", "_PASS", "_DSN", "_CREDS", "_AUTH", "_COOKIE"}

// credentialStarts are the beginnings of a name, in upper case, that make
// it a credential (third red team): 1Password's OP_SESSION_<account>, a
// session key that unlocks the vault.
var credentialStarts = []string{"OP_SESSION_"}

// ProviderCredentials are credentials a model provider's code reads whose
// names the rules above do not catch, in any case. eukhe has no provider
// code of its own; every provider variable it knows of (ANTHROPIC_API_KEY,
// OPENAI_API_KEY, AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN,
// GOOGLE_APPLICATION_CREDENTIALS, …) is caught. The list holds the
// credentials whose names are like plain ones: Bitwarden's BW_SESSION
// (DESKTOP_SESSION is not one).
var ProviderCredentials = []string{"BW_SESSION",
	// the fifth red team's: SonarQube's token, fastlane's Apple ID session
	"SONAR_LOGIN", "FASTLANE_SESSION"}

// bundlerHostCredential reports whether the name is Bundler's credential
// for a gem source (the fifth red team's): BUNDLE_<HOST>, the host's dots
// as "__" (BUNDLE_GEMS__CONTRIBSYS__COM=user:password), while Bundler's
// settings have single underscores (BUNDLE_PATH, BUNDLE_BUILD__…: a
// build's flags, kept).
func bundlerHostCredential(up string) bool {
	rest, ok := strings.CutPrefix(up, "BUNDLE_")
	return ok && strings.Contains(rest, "__") && !strings.HasPrefix(rest, "BUILD__")
}

// CredentialName reports whether the variable name is a credential: a
// provider credential, or a name whose upper case holds one of
// credentialParts, has a word of credentialWords or a word starting
// WEBHOOK, or ends in one of credentialEnds.
func CredentialName(name string) bool {
	up := strings.ToUpper(name)
	for _, p := range credentialParts {
		if strings.Contains(up, p) {
			return true
		}
	}
	for _, e := range credentialEnds {
		if strings.HasSuffix(up, e) {
			return true
		}
	}
	for _, s := range credentialStarts {
		if strings.HasPrefix(up, s) {
			return true
		}
	}
	for _, w := range strings.Split(up, "_") {
		if strings.HasPrefix(w, "WEBHOOK") || slices.Contains(credentialWords, w) {
			return true
		}
	}
	for _, p := range ProviderCredentials {
		if strings.EqualFold(p, name) {
			return true
		}
	}
	return bundlerHostCredential(up)
}

// tokenShapes are the well-known tokens' forms, each matched where a
// token can start: the value's start, or after a space, a quote, "=",
// ":", ",", ";" or an opening bracket (a "Bearer …" header, a JSON
// document). Not after "/" or ".": a path or a host name holds such
// letters by chance.
var tokenShapes = regexp.MustCompile(`(?:^|[\s"'=:,;(\[{<])(?:` + strings.Join([]string{
	`sk_(?:live|test)_[0-9A-Za-z]{10,}`, // Stripe secret key
	`rk_(?:live|test)_[0-9A-Za-z]{10,}`, // Stripe restricted key
	`whsec_[0-9A-Za-z]{16,}`,            // Stripe webhook secret
	`xox[abposer]-[0-9A-Za-z-]{8,}`,     // Slack bot, user, app-level, refresh tokens
	`xapp-[0-9A-Za-z-]{8,}`,             // Slack app token
	`gl(?:pat|dt|rt|ptt|soat|cbt|oas|imt|ft|agent|ffct|ds)-[0-9A-Za-z_-]{8,}`, // GitLab
	`github_pat_[0-9A-Za-z_]{8,}`,                                      // GitHub fine-grained
	`gh[pousr]_[0-9A-Za-z]{8,}`,                                        // GitHub classic, OAuth, user, server, refresh
	`npm_[0-9A-Za-z]{30,}`,                                             // npm
	`pypi-Ag[0-9A-Za-z_-]{20,}`,                                        // PyPI (a macaroon)
	`(?:AKIA|ASIA|ABIA|ACCA)[0-9A-Z]{12,}`,                             // AWS access key id
	`AIza[0-9A-Za-z_-]{30,}`,                                           // Google API key
	`ya29\.[0-9A-Za-z_-]{20,}`,                                         // Google OAuth access token
	`sk-[0-9A-Za-z_-]{12,}`,                                            // OpenAI, Anthropic (sk-ant-…), DeepSeek, …
	`hf_[0-9A-Za-z]{30,}`,                                              // Hugging Face
	`glc_[0-9A-Za-z_+/=-]{20,}`,                                        // Grafana
	`dop_v1_[0-9a-f]{40,}`,                                             // DigitalOcean
	`SG\.[0-9A-Za-z_-]{16,}\.[0-9A-Za-z_-]{16,}`,                       // SendGrid
	`AGE-SECRET-KEY-1[0-9A-Z]{40,}`,                                    // age
	`eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{4,}\.[0-9A-Za-z_-]*`,          // a JWT: base64url header {"…, payload, signature
	`-----BEGIN`,                                                       // a PEM block
	`(?:Bearer|Basic|Token|Digest|Negotiate)\s+[0-9A-Za-z._~+/=-]{8,}`, // an Authorization header's value (third red team)
	`tskey-[0-9A-Za-z-]{10,}`,                                          // Tailscale (fourth red team)
	// the fifth red team's, and others of the kind
	`sq[uap]_[0-9a-f]{30,}`,                        // SonarQube user, project, analysis tokens
	`gsk_[0-9A-Za-z]{20,}`,                         // Groq
	`hv[sbr]\.[0-9A-Za-z_-]{20,}`,                  // HashiCorp Vault service, batch, recovery tokens
	`xai-[0-9A-Za-z]{20,}`,                         // xAI
	`pplx-[0-9A-Za-z]{20,}`,                        // Perplexity
	`r8_[0-9A-Za-z]{20,}`,                          // Replicate
	`lin_(?:api|oauth)_[0-9A-Za-z]{20,}`,           // Linear
	`shp(?:at|ss|ca|pa)_[0-9a-fA-F]{20,}`,          // Shopify
	`sntr[ysu]_[0-9A-Za-z_+/=-]{20,}`,              // Sentry auth tokens
	`dapi[0-9a-f]{32}`,                             // Databricks
	`dckr_pat_[0-9A-Za-z_-]{20,}`,                  // Docker Hub
	`glsa_[0-9A-Za-z_]{20,}`,                       // Grafana service account
	`rubygems_[0-9a-f]{40,}`,                       // RubyGems
	`pul-[0-9a-f]{40}`,                             // Pulumi
	`do[or]_v1_[0-9a-f]{40,}`,                      // DigitalOcean OAuth
	`AKCp[0-9A-Za-z]{60,}`,                         // JFrog Artifactory
	`fm[12]_[0-9A-Za-z_+/=-]{20,}`,                 // Fly.io
	`[0-9A-Za-z]{14}\.atlasv1\.[0-9A-Za-z_-]{60,}`, // Terraform Cloud
	`ATATT3[0-9A-Za-z_=-]{20,}`,                    // Atlassian API token
	`ntn_[0-9A-Za-z]{30,}`,                         // Notion
	`figd_[0-9A-Za-z_-]{20,}`,                      // Figma
	`LTAI[0-9A-Za-z]{12,}`,                         // Alibaba Cloud access key id
	// the sixth red team's
	"PMAK-[0-9a-f]{24}-[0-9A-Za-z]{20,}", // Postman
	"lsv2_(?:pt|sk)_[0-9A-Za-z_]{20,}",   // LangSmith
	"sbp_[0-9A-Za-z]{30,}",               // Supabase
	"ops_eyJ[0-9A-Za-z_=-]{10,}",         // 1Password service account
	"phx_[0-9A-Za-z]{30,}",               // PostHog's personal key (phc_, a project's, is public)
	// the seventh red team's: the same providers' other shapes, and others
	"sb_secret_[0-9A-Za-z_-]{20,}",                        // Supabase's new secret keys
	"ls__[0-9A-Za-z]{20,}",                                // LangSmith's older keys
	"PMAT-[0-9A-Za-z]{20,}",                               // Postman collection access token
	"HRKU-[0-9A-Za-z_-]{20,}",                             // Heroku
	"nf[pcu]_[0-9A-Za-z]{20,}",                            // Netlify personal, OAuth
	`dp\.(?:st|pt|ct|sa|scim|audit)\.[0-9A-Za-z._-]{20,}`, // Doppler
	"napi_[0-9A-Za-z]{30,}",                               // Neon
	"pcsk_[0-9A-Za-z_]{20,}",                              // Pinecone
	"re_[0-9A-Za-z]{6,}_[0-9A-Za-z_]{16,}",                // Resend
	"GOCSPX-[0-9A-Za-z_-]{20,}",                           // Google OAuth client secret
	"ddp_[0-9A-Za-z]{30,}",                                // Deno Deploy
	"bk(?:ua|ab)_[0-9A-Za-z]{30,}",                        // Buildkite
}, "|") + `)`)

// secretMarks are texts that make a value a credential wherever they
// appear in it: a Slack or Discord webhook URL (its path is the secret),
// a Docker auth document ({"auths": …}), the key of an Azure connection
// string, a URL with a user and password.
var secretMarks = regexp.MustCompile(`(?i:hooks\.slack\.com/(?:services|workflows|triggers)/)|` +
	`(?i:discord(?:app)?\.com/api/webhooks/)|"auths"\s*:|` +
	`(?i:AccountKey=|SharedAccessKey=|SharedAccessSignature=)|` +
	`[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]+:[^/\s@]+@|` +
	// the fourth red team's: a password in a connection string (.NET's
	// Password=…;, libpq's password=…, a JDBC URL's query), an
	// Authorization header in a header list (OTel's, git's extraheader)
	`(?i:(?:^|[;?&\s])(?:password|pwd|passwd)\s*=\s*[^;&\s]{4,})|` +
	`(?i:authorization\s*[:=]\s*(?:basic|bearer|token)\s+\S{4,})|` +
	// the third red team's: the signature of a shared access (SAS) or
	// presigned URL's query
	`(?:^|[?&])(?i:sig|signature|x-amz-signature|x-goog-signature)=[^&\s]{8,}`)

// CredentialValue reports whether a variable's value is a credential
// whatever its name (red team): a URL with a user part (postgres://u:p@h,
// a proxy with a password, a Sentry DSN), a well-known token's form
// (tokenShapes), or a mark of one (secretMarks).
func CredentialValue(v string) bool {
	if tokenShapes.MatchString(v) || secretMarks.MatchString(v) {
		return true
	}
	scheme, rest, ok := strings.Cut(v, "://")
	if !ok || scheme == "" || strings.ContainsAny(scheme, "/@ ") {
		return false
	}
	auth, _, _ := strings.Cut(rest, "/")
	return strings.Contains(auth, "@")
}
