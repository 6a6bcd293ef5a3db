package shell

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// Credential reports whether the variable name is a credential (S7.7):
// gate.CredentialName.
func Credential(name string) bool { return gate.CredentialName(name) }

// CredentialValue reports whether a variable's value is a credential
// whatever its name: gate.CredentialValue.
func CredentialValue(v string) bool { return gate.CredentialValue(v) }

// scriptEnv is the environment a script starts with: the server's (env,
// or this process's when env is nil), plus the session values, minus
// every credential. A later pair of one name wins.
func scriptEnv(env []string, session map[string]string) []string {
	if env == nil {
		env = os.Environ()
	}
	out := make([]string, 0, len(env)+len(session))
	for _, kv := range env {
		name, _, ok := strings.Cut(kv, "=")
		if ok && name != "" && !Credential(name) && !CredentialValue(kv[len(name)+1:]) {
			out = append(out, kv)
		}
	}
	keys := make([]string, 0, len(session))
	for k := range session {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if k != "" && !strings.Contains(k, "=") && !Credential(k) && !CredentialValue(session[k]) {
			out = append(out, k+"="+session[k])
		}
	}
	return out
}

// childEnv is what a program the script runs gets: the shell's exported
// variables, as the interpreter holds them.
func childEnv(env expand.Environ) []string {
	var out []string
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.IsSet() && vr.Exported && vr.Kind == expand.String {
			out = append(out, name+"="+vr.Str)
		}
		return true
	})
	return out
}

// envMap is the shell's variables as strings, for the gate's classifier.
func envMap(env expand.Environ) map[string]string {
	m := map[string]string{}
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.IsSet() {
			m[name] = vr.String()
		}
		return true
	})
	return m
}

// gitHardening is configuration every git read step runs with, beyond the
// gate's UntrustedRepoArgs: no signature program, and no repository found
// by walking into a bare one (a bare repository's config can name
// programs).
var gitHardening = [][2]string{
	{"safe.bareRepository", "explicit"},
	{"gpg.program", "false"},
	{"gpg.ssh.program", "false"},
	{"gpg.x509.program", "false"},
}

// gitRead is how a git step runs (S7.8): when the gate's GitSafeArgv
// hardens it (a read step), its -c settings move into the environment as
// GIT_CONFIG_COUNT/KEY/VALUE, after any the environment already has, with
// the ones of gitHardening, GIT_OPTIONAL_LOCKS=0 and GIT_NO_LAZY_FETCH=1;
// its flags (--no-pager, --no-ext-diff, --no-textconv) stay in the argv.
// Any other argv and env come back as they are.
func gitRead(argv, env []string) ([]string, []string) {
	safe := gate.GitSafeArgv(argv)
	n := len(gate.UntrustedRepoArgs)
	if len(safe) == len(argv) || len(safe) < 1+n || !slices.Equal(safe[1:1+n], gate.UntrustedRepoArgs) {
		return safe, env
	}
	var pairs [][2]string
	out := []string{"git"}
	for i := 0; i < n; i++ {
		a := gate.UntrustedRepoArgs[i]
		if a == "-c" && i+1 < n {
			k, v, _ := strings.Cut(gate.UntrustedRepoArgs[i+1], "=")
			pairs = append(pairs, [2]string{k, v})
			i++
			continue
		}
		out = append(out, a)
	}
	out = append(out, safe[1+n:]...)
	pairs = append(pairs, gitHardening...)
	return out, gitConfigEnv(env, pairs)
}

// gitConfigEnv adds pairs to env as GIT_CONFIG_KEY_i/VALUE_i after those
// env already counts, and sets GIT_CONFIG_COUNT, GIT_OPTIONAL_LOCKS=0 and
// GIT_NO_LAZY_FETCH=1.
func gitConfigEnv(env []string, pairs [][2]string) []string {
	base := 0
	out := make([]string, 0, len(env)+2*len(pairs)+3)
	for _, kv := range env {
		name, v, _ := strings.Cut(kv, "=")
		switch name {
		case "GIT_CONFIG_COUNT":
			if c, err := strconv.Atoi(v); err == nil && c > 0 {
				base = c
			}
			continue
		case "GIT_OPTIONAL_LOCKS", "GIT_NO_LAZY_FETCH":
			continue
		}
		out = append(out, kv)
	}
	for i, p := range pairs {
		j := strconv.Itoa(base + i)
		out = append(out, "GIT_CONFIG_KEY_"+j+"="+p[0], "GIT_CONFIG_VALUE_"+j+"="+p[1])
	}
	return append(out, "GIT_CONFIG_COUNT="+strconv.Itoa(base+len(pairs)),
		"GIT_OPTIONAL_LOCKS=0", "GIT_NO_LAZY_FETCH=1")
}

// The PATH a script and its programs get (gate/pathdirs.go): the
// server's PATH judged at each call (startPath) and again at each program
// the script starts (lookProgram), relative and missing entries dropped;
// a process whose step may not exec gets no entry inside the workspace.

// startPath is env with its PATH judged: relative and missing entries
// dropped (and given back, for the message of a command not found). An
// env without PATH is left so.
func startPath(env []string, p *gate.Policy, seen *gate.PathSeen) ([]string, []gate.PathEntry) {
	v, ok := envValue(env, "PATH")
	if !ok {
		return env, nil
	}
	entries := seen.Judge(p, v)
	var dropped []gate.PathEntry
	for _, e := range entries {
		if !e.Kept() {
			dropped = append(dropped, e)
		}
	}
	return withPath(env, gate.KeptPath(entries, true)), dropped
}

// envValue is the last value of name in env.
func envValue(env []string, name string) (string, bool) {
	v, found := "", false
	for _, kv := range env {
		if k, val, ok := strings.Cut(kv, "="); ok && sameEnvName(k, name) {
			v, found = val, true
		}
	}
	return v, found
}

// withPath is env with PATH set to path, or with no PATH when path is
// empty: to many programs (glibc's execvp, a shell) an empty PATH means
// the working directory, and no PATH their own default.
func withPath(env []string, path string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if n, _, _ := strings.Cut(kv, "="); !sameEnvName(n, "PATH") {
			out = append(out, kv)
		}
	}
	if path != "" {
		out = append(out, "PATH="+path)
	}
	return out
}

// program is a command the exec handler is about to start: its path,
// how it was found on PATH (found.Exec: exec whatever its name), and the
// shell's PATH judged now.
type program struct {
	path    string
	found   gate.Found
	entries []gate.PathEntry
	hasPath bool
}

// lookProgram finds the command name as the gate's classifier does
// (gate.Policy.LookCommand, over PATH judged now, with the shell's
// PATHEXT on Windows: a .bat or .cmd found for a name is exec whatever
// the name); a name that is a path (gate.NamesPath) is found from dir, as the
// interpreter does. On failure the error is the
// message for the script's standard error, naming a dropped entry that
// holds the command (of the shell's PATH now, or of the server's).
func (x *run) lookProgram(dir string, env expand.Environ, name string) (program, error) {
	pathVar := env.Get("PATH")
	pr := program{hasPath: pathVar.IsSet()}
	pr.entries = x.pathSeen.Judge(x.policy, pathVar.String())
	if gate.NamesPath(name) {
		path, err := interp.LookPathDir(dir, env, name)
		if err != nil {
			return pr, fmt.Errorf("bash: %s: command not found", name)
		}
		pr.path = path
		return pr, nil
	}
	if f, ok := x.policy.LookCommand(name, pr.entries, env.Get("PATHEXT").String()); ok {
		pr.path, pr.found = f.Path, f
		return pr, nil
	}
	for _, e := range append(append([]gate.PathEntry(nil), pr.entries...), x.dropped...) {
		if e.Kept() {
			continue
		}
		d := e.Entry
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		if fi, err := os.Stat(filepath.Join(d, name)); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
			return pr, fmt.Errorf("bash: %s: command not found on PATH; PATH entry %s", name, e.Why())
		}
	}
	return pr, fmt.Errorf("bash: %s: command not found", name)
}

// childPath is the PATH a program gets: the kept entries, without those
// inside the workspace (or made during the session) unless its step may
// exec. A shell without PATH gives none.
func (pr program) childPath(env []string, exec bool) []string {
	if !pr.hasPath {
		return withPath(env, "")
	}
	return withPath(env, gate.KeptPath(pr.entries, exec))
}
