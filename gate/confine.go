package gate

import "slices"

// What the gate gives confinement (DESIGN §9; the plan itself is
// gate/confine's): the places a sandbox is built from, computed from the
// policy (the caller passes them into confine.Places), and what a step's
// effects are where no sandbox confines its programs.

// Unconfined is what a step's effects are where no sandbox confines the
// programs it runs (none works here, or shell.confinement is "off"): a
// step that runs a program (exec) may then write anywhere, write the
// protected entries and reach the network, so it has those effects too
// and asks for them as any other step would (the Windows red team's
// expand.exe writing a hook under an auto set without protected). A
// step that runs no program keeps its effects. Secret is not added: the
// user is told that programs run unconfined (eukhe check, the settings
// status), and a step naming a secret is secret as before.
func Unconfined(e Effects) Effects {
	if !e.Has(Exec) {
		return e
	}
	return e.Union(Of(Write, Outside, Protected, Net))
}

// GateDirs are the directories above the user settings files that exist,
// from the deepest up, "/" left out: what a sandbox pins
// (confine.Places.Pinned).
func (p *Policy) GateDirs() []string {
	var out []string
	for _, f := range p.allGateFiles() {
		for d := parentOf(f); d != "/"; d = parentOf(d) {
			if p.fs.Kind(d) == KindDir {
				out = appendNew(out, d)
			}
		}
	}
	return out
}

// GateFileDirs are the directories of the user settings files that
// exist (confine.Places.Frozen): eukhe's own config directories.
func (p *Policy) GateFileDirs() []string {
	var out []string
	for _, f := range p.allGateFiles() {
		if d := parentOf(f); p.fs.Kind(d) == KindDir {
			out = appendNew(out, d)
		}
	}
	return out
}

// SandboxRules are what a sandbox needs of the policy: its secret entries
// (written and real), the paths of its Dir and Tree rules, and the names
// of its Named rules.
func (p *Policy) SandboxRules() (secrets, paths, names []string) {
	secrets = append(secrets, p.allSecrets()...)
	secrets = append(secrets, p.gateFilesNow()...)
	rules, _ := p.allRules()
	for _, r := range rules {
		if r.Kind == EndRule || r.Kind == DotRule {
			continue // the gate's alone (EndRule); DotHomes (DotRule)
		}
		if r.Kind == NamedRule {
			names = appendNew(names, r.Name)
		} else {
			paths = appendNew(paths, r.Path)
		}
	}
	return secrets, paths, names
}

// DotHomes are the policy's DotRules (the home, and the parts of it the
// environment moves elsewhere, written and real): the sandbox lists
// each, as its process starts, for the entries the rule covers.
func (p *Policy) DotHomes() []Rule {
	var out []Rule
	rules, _ := p.allRules()
	for _, r := range rules {
		if r.Kind == DotRule && !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// EndNames are the names of the policy's EndRules (the relative PATH
// entries, "bin", "node_modules/.bin"): a sandbox takes a program a
// process makes in such a directory, named like a command of the user's
// PATH, as a protected entry made.
func (p *Policy) EndNames() []string {
	var out []string
	rules, _ := p.allRules()
	for _, r := range rules {
		if r.Kind == EndRule {
			out = appendNew(out, r.Name)
		}
	}
	return out
}
