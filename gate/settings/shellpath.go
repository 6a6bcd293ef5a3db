package settings

import (
	"crypto/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// The PATH the user types commands in is the one their shell's startup
// files make, not the one eukhe was started with: an editor launched from
// a desktop menu, or an agent's client started before a line
// `export PATH=./bin:$PATH` was added to ~/.bashrc, hands eukhe the
// login's PATH. A program a step makes in a directory only the user's
// PATH names then runs when the user types its name there (the eighth red
// team's). So the gate's PATH directories are eukhe's own and those each
// of the user's shells reports after reading its startup files: the shell
// is asked once per process (as VS Code resolves the shell environment at
// its start), interactive and login both, each bounded by shellPathWait.
// Their startup files are the user's own and protected (DotRule), so
// what they print is not the agent's to choose.

// shellPathWait bounds one shell's answer: a startup file that waits on
// the network or a prompt does not hold the session's start longer.
const shellPathWait = 3 * time.Second

// shellLinger is how long a shell asked has, after the answer is in or
// the wait is over, to reach the "exit" typed to it: a startup file's
// tool finishes what it holds (pyenv rehash's lock: killed outright at
// the wait, it stayed, and each shell the user opened after waited a
// minute for it). It runs in the background meanwhile.
var shellLinger = 20 * time.Second

// shellHangupGrace is how long a shell's group has after its terminal
// hangs up (SIGHUP, as when the user closes a terminal window, so traps
// run) before what is left of it is killed: 5 s, since a bash under a
// loaded machine's scheduler did not reach its trap in 2 (a CI
// rehearsal).
const shellHangupGrace = 5 * time.Second

// shellPathMark frames the PATH in the shell's output, which a startup
// file may add to (a greeting, a fortune); its end is drawn at each
// start, so a startup file cannot print the mark and a PATH of its own
// (the ninth red team's).
var shellPathMark = "EUKHE-SHELL-PATH-" + rand.Text()[:16]

// ShellPathDirs are the PATH entries the user's shells add to env's PATH
// after reading their startup files, in the order met, without those
// already in env's PATH. The answer is kept for the process, per home,
// shell and PATH. Tests replace it.
var ShellPathDirs = cachedShellPathDirs

var shellPaths sync.Map // key → *shellPathAnswer

// shellPathAnswer is one key's answer, asked once however many ask.
type shellPathAnswer struct {
	once sync.Once
	dirs []string
	// unknown: a shell did not answer in time (dirs then hold what its
	// startup files' scan found); kept shellUnknownKept from at, then
	// asked again at the next need (a new session)
	unknown bool
	at      time.Time
}

// shellUnknownKept is how long an answer with a shell that did not answer
// in time is kept: a machine busy at a session's start does not leave
// every later session of the process (an editor's) with an unknown PATH.
const shellUnknownKept = time.Minute

// WarmShellPathDirs starts asking the shells for env in the background,
// so the answer is in by the time a session's policy needs it (the
// client's handshake runs meanwhile).
func WarmShellPathDirs(env map[string]string) { go ShellPathDirs(env) }

func cachedShellPathDirs(env map[string]string) []string { return cachedShellPath(env).dirs }

// ShellPath is ShellPathDirs with whether a shell of the user's did not
// say its PATH in time for env (dirs then hold what its startup files'
// scan found, an approximation): any directory may be on that PATH
// (gate.Places.PathUnknown). Both come from one answer: read apart, an
// answer dropped between them (its minute past) gave the scan's guess
// with unknown false (the seventeenth red team's).
func ShellPath(env map[string]string) (dirs []string, unknown bool) {
	a := cachedShellPath(env)
	return a.dirs, a.unknown
}

func cachedShellPath(env map[string]string) *shellPathAnswer {
	key := strings.Join([]string{env["HOME"], env["SHELL"], env["PATH"], env["ZDOTDIR"], env["XDG_CONFIG_HOME"], env["BASH_ENV"]}, "\x00")
	v, _ := shellPaths.LoadOrStore(key, &shellPathAnswer{})
	a := v.(*shellPathAnswer)
	a.once.Do(func() { a.dirs, a.unknown = askShellsPathDirs(env); a.at = time.Now() })
	if a.unknown && time.Since(a.at) > shellUnknownKept {
		shellPaths.CompareAndDelete(key, a) // asked again by the next to need it
	}
	return a
}

func askShellsPathDirs(env map[string]string) (dirs []string, unknown bool) {
	var outs []string
	var mu sync.Mutex
	var wg sync.WaitGroup
	for _, inv := range shellInvocations(env, exists, lookPath(env["PATH"])) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			p, ok := askShellPath(inv, env)
			if !ok {
				// no answer in time: what its startup files name, and
				// unknown, for what the scan cannot read (a path array
				// over lines, a file sourced through a variable, a shell
				// it does not know); the agent can choose when this
				// happens (a history file flooded until the shell misses
				// the wait: the fifteenth red team's)
				p = scannedPathDirs(unansweredFiles(inv, env), env["HOME"])
			}
			mu.Lock()
			unknown = unknown || !ok
			if p != "" {
				outs = append(outs, p)
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	slices.Sort(outs) // the order the shells answered in is not the user's
	return newPathDirs(env["PATH"], outs), unknown
}

// shellInvocation is one way to ask a shell: its program and arguments
// before the command.
type shellInvocation []string

// shellInvocations are the shells to ask in env: the user's SHELL, and
// each of bash, zsh and fish whose startup files the home has (a user
// whose SHELL is bash may type in zsh), each as an interactive shell and
// an interactive login shell (Linux terminals start the first, macOS's
// the second; they read different files). exists and look stand for the
// file system and the PATH search.
func shellInvocations(env map[string]string, exists func(string) bool, look func(string) string) []shellInvocation {
	if !filepath.IsAbs(env["HOME"]) {
		return nil
	}
	rcs := startupFiles(env)
	var programs []string
	if s := env["SHELL"]; filepath.IsAbs(s) && exists(s) {
		programs = append(programs, s)
	}
	for _, name := range []string{"bash", "zsh", "fish"} {
		if !slices.ContainsFunc(rcs[name], exists) {
			continue
		}
		if p := look(name); p != "" && !slices.ContainsFunc(programs, func(q string) bool { return filepath.Base(q) == name }) {
			programs = append(programs, p)
		}
	}
	var out []shellInvocation
	for _, p := range programs {
		out = append(out, shellInvocation{p, "-i", "-c"}, shellInvocation{p, "-i", "-l", "-c"})
	}
	// BASH_ENV is read by every non-interactive bash (a script, bash -c):
	// the PATH it makes is the one the user's scripts and tools see
	if filepath.IsAbs(env["BASH_ENV"]) {
		if p := look("bash"); p != "" {
			out = append(out, shellInvocation{p, "-c"})
		}
	}
	return out
}

// startupFiles are the startup files of bash, zsh and fish in env's
// home (fish's conf.d a directory of them), and of a POSIX sh (~/.profile
// and the file ENV names).
func startupFiles(env map[string]string) map[string][]string {
	home := env["HOME"]
	cfg := env["XDG_CONFIG_HOME"]
	if !filepath.IsAbs(cfg) {
		cfg = filepath.Join(home, ".config")
	}
	zdot := env["ZDOTDIR"]
	if !filepath.IsAbs(zdot) {
		zdot = home
	}
	sh := []string{filepath.Join(home, ".profile")}
	if filepath.IsAbs(env["ENV"]) {
		sh = append(sh, env["ENV"])
	}
	zsh := []string{filepath.Join(zdot, ".zshrc"), filepath.Join(zdot, ".zprofile"), filepath.Join(zdot, ".zshenv"), filepath.Join(zdot, ".zlogin")}
	return map[string][]string{
		"bash": {filepath.Join(home, ".bashrc"), filepath.Join(home, ".bash_profile"), filepath.Join(home, ".bash_login"), filepath.Join(home, ".profile")},
		"zsh":  zsh,
		"fish": {filepath.Join(cfg, "fish", "config.fish"), filepath.Join(cfg, "fish", "conf.d"), filepath.Join(cfg, "fish", "fish_variables")},
		"sh":   sh,
		"ksh":  append([]string{filepath.Join(home, ".kshrc")}, sh...),
		"mksh": append([]string{filepath.Join(home, ".mkshrc")}, sh...),
		"tcsh": {filepath.Join(home, ".tcshrc"), filepath.Join(home, ".cshrc"), filepath.Join(home, ".login")},
		"csh":  {filepath.Join(home, ".cshrc"), filepath.Join(home, ".login")},
	}
}

// zdotdirOf is the ZDOTDIR a ~/.zshenv sets (export
// ZDOTDIR=$HOME/.config/zsh: the usual layout), or "".
func zdotdirOf(home string) string {
	b, err := os.ReadFile(filepath.Join(home, ".zshenv"))
	if err != nil {
		return ""
	}
	lines := startupText(string(b))
	if d := startupVars(lines, home)["ZDOTDIR"]; d != "" {
		d = expandScan(d, map[string]string{"HOME": home})
		if filepath.IsAbs(d) && !strings.Contains(d, scanMark) {
			return d
		}
	}
	return ""
}

// unansweredFiles are the startup files to read for a shell asked that
// did not answer: its own (by its program's name; a shell eukhe does not
// know reads ~/.profile as sh does), or BASH_ENV's file for a
// non-interactive bash.
func unansweredFiles(inv shellInvocation, env map[string]string) []string {
	if !slices.Contains(inv, "-i") {
		return []string{env["BASH_ENV"]}
	}
	rcs := startupFiles(env)
	name := filepath.Base(inv[0])
	f, ok := rcs[name]
	if !ok {
		return rcs["sh"]
	}
	if name == "zsh" && !filepath.IsAbs(env["ZDOTDIR"]) {
		if d := zdotdirOf(env["HOME"]); d != "" {
			f = append(slices.Clip(f), filepath.Join(d, ".zshrc"), filepath.Join(d, ".zprofile"), filepath.Join(d, ".zlogin"))
		}
	}
	return f
}

// shellPathCommand prints PATH between marks in any shell that takes
// "a; b" (sh, bash, zsh, fish, csh): printenv prints the exported,
// colon-joined PATH also where the shell keeps it as a list (fish).
func shellPathCommand() string {
	return "echo " + shellPathMark + "; printenv PATH; echo " + shellPathMark
}

// pathBetweenMarks is the PATH a shell printed between the marks (the last
// pair, a startup file may echo anything before), or false.
func pathBetweenMarks(out string) (string, bool) {
	end := strings.LastIndex(out, shellPathMark)
	if end < 0 {
		return "", false
	}
	start := strings.LastIndex(out[:end], shellPathMark)
	if start < 0 {
		return "", false
	}
	p := strings.TrimSpace(out[start+len(shellPathMark) : end])
	if p == "" || strings.ContainsAny(p, "\n\r\x00") {
		return "", false
	}
	return p, true
}

// newPathDirs are the entries of the shells' PATHs that base does not
// have, each once, in the order met.
func newPathDirs(base string, shells []string) []string {
	have := map[string]bool{}
	for _, d := range filepath.SplitList(base) {
		have[d] = true
	}
	var out []string
	for _, s := range shells {
		for _, d := range filepath.SplitList(s) {
			if !have[d] {
				have[d] = true
				out = append(out, d)
			}
		}
	}
	return out
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// lookPath finds a program on path's absolute entries.
func lookPath(path string) func(string) string {
	return func(name string) string {
		for _, d := range filepath.SplitList(path) {
			if !filepath.IsAbs(d) {
				continue
			}
			p := filepath.Join(d, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return p
			}
		}
		return ""
	}
}
