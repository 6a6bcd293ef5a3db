package settings

import (
	"os"
	"path/filepath"

	"github.com/eukhe/eukhe/gate"
)

// Paths are where the settings files are.
type Paths struct {
	// Home is the user's home directory.
	Home string
	// UserDir is $XDG_CONFIG_HOME/eukhe (default ~/.config/eukhe).
	UserDir string
	// UserFile is UserDir/settings.json.
	UserFile string
	// Roots are the workspace roots.
	Roots []string
	// ProjectFiles are <root>/.eukhe/settings.json, one per root.
	ProjectFiles []string
	// StateDir is $XDG_STATE_HOME/eukhe (default ~/.local/state/eukhe):
	// the session logs.
	StateDir string
}

// Locate finds the settings files for these roots in this environment
// ("NAME" → value), and eukhe's state directory. A relative
// XDG_CONFIG_HOME or XDG_STATE_HOME is ignored, as the XDG spec says.
func Locate(env map[string]string, roots []string) Paths {
	home := env["HOME"]
	cfg := env["XDG_CONFIG_HOME"]
	if !filepath.IsAbs(cfg) {
		cfg = filepath.Join(home, ".config")
	}
	state := env["XDG_STATE_HOME"]
	if !filepath.IsAbs(state) {
		state = filepath.Join(home, ".local", "state")
	}
	p := Paths{Home: home, UserDir: filepath.Join(cfg, "eukhe"), StateDir: filepath.Join(state, "eukhe")}
	p.UserFile = filepath.Join(p.UserDir, "settings.json")
	for _, r := range roots {
		p.Roots = append(p.Roots, r)
		p.ProjectFiles = append(p.ProjectFiles, filepath.Join(r, ".eukhe", "settings.json"))
	}
	return p
}

// Files are every settings file the loader reads, user first.
func (p Paths) Files() []string { return append([]string{p.UserFile}, p.ProjectFiles...) }

// Places are the gate's places for these settings paths: the protected
// set comes from the files the loader reads (G1.3), the secret set from
// the home and the environment (G1.4).
func (p Paths) Places(env map[string]string) gate.Places {
	return p.places(env, GitPlaces(p.Roots, p.Home, env))
}

// Policy is the policy of these paths' places over the system's files,
// with its git places kept current (GitWatch: Refresh before each call,
// Near before each write is judged): the git places are gathered once.
func (p Paths) Policy(env map[string]string) (*gate.Policy, *GitWatch) {
	git := NewGitWatch(p.Roots, p.Home, env)
	places := p.places(env, git.places)
	makeGateDirs(places.GateFiles())
	policy := places.Policy(gate.OS)
	policy.SetNear(git.Near(policy))
	return policy, git
}

func (p Paths) places(env map[string]string, git []string) gate.Places {
	shellDirs, unknown := ShellPath(env)
	return gate.Places{
		Home:            p.Home,
		OtherHomes:      UserHomes(),
		StateDir:        p.StateDir,
		UserDir:         p.UserDir,
		RunDirs:         runDirs(env),
		Roots:           p.Roots,
		SettingsFiles:   p.Files(),
		PathDirs:        append(filepath.SplitList(env["PATH"]), shellDirs...),
		PathUnknown:     unknown,
		Env:             env,
		CredentialFiles: credentialConfigs(p.Roots),
		GitPlaces:       git,
	}
}

// credentialConfigs are the roots' .git/config files that hold a
// credential now (gate.HoldsCredential), read once as the places are
// gathered; one that cannot be read, or is larger than 1 MiB, is left out.
func credentialConfigs(roots []string) []string {
	var out []string
	for _, r := range roots {
		name := filepath.Join(r, ".git", "config")
		info, err := os.Stat(name)
		if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
			continue
		}
		if b, err := os.ReadFile(name); err == nil && gate.HoldsCredential(string(b)) {
			out = append(out, name)
		}
	}
	return out
}

// Load reads every settings file once: the settings in force and the
// events of reading them. A missing file sets nothing; a broken one sets
// nothing and gives an Error event.
func Load(p Paths) (Settings, []Event) {
	var events []Event
	read := func(name string, scope Scope) *File {
		data, err := os.ReadFile(name)
		if os.IsNotExist(err) {
			return nil
		}
		if err != nil {
			events = append(events, Event{Level: Error, File: name, Message: err.Error()})
			return nil
		}
		f, evs := Parse(name, data, scope)
		events = append(events, evs...)
		return f
	}
	user := read(p.UserFile, UserScope)
	var projects []*File
	for _, f := range p.ProjectFiles {
		projects = append(projects, read(f, ProjectScope))
	}
	return Merge(user, projects...), events
}

// makeGateDirs makes the directories of the user settings files (eukhe's
// own config directories, ~/.config/eukhe), empty and private, where they
// are missing: the policy makes each secret, and a sandbox hides only
// what exists, so a confined program could otherwise make the missing
// settings file with shell.confinement "off" in it (the thirteenth red
// team's, under bubblewrap and Landlock). A home that cannot be written
// keeps them missing; nothing can make them there then either.
func makeGateDirs(files []string) {
	for _, f := range files {
		_ = os.MkdirAll(filepath.Dir(f), 0o700)
	}
}
