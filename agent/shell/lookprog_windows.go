package shell

// envNamesFold: environment names are case-insensitive on Windows ("Path"
// is PATH); the interpreter holds them upper-cased (expand.ListEnviron).
// Credential names are matched ignoring case on every system
// (gate.CredentialName).
const envNamesFold = true
