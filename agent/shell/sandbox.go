package shell

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/confine"
	"mvdan.cc/sh/v3/interp"
)

// Confine is how a runner confines the external processes of its steps
// (DESIGN §9).
type Confine struct {
	// Mode is shell.confinement, read as each process starts: "auto" (or
	// ""), "require" or "off".
	Mode func() string
	// WritableDirs is shell.writableDirs, read as each process starts.
	WritableDirs func() []string
}

func (c Confine) mode() string {
	if c.Mode == nil {
		return "auto"
	}
	if m := c.Mode(); m != "" {
		return m
	}
	return "auto"
}

// unconfined tells whether the programs a step runs run without a sandbox:
// shell.confinement is "off", or it is "auto" and no mechanism works
// here ("require" runs none then). Their steps' effects are then
// gate.Unconfined.
func (c Confine) unconfined() bool { return RunsUnconfined(c.mode()) }

// WidenUnconfined gives each step of sc that starts a program the
// effects of one no sandbox confines (gate.Unconfined). A step of
// builtins and assignments starts none (a program its command
// substitution or a sourced file starts is a step the runtime check
// judges on its own); exec, command, eval, source and . do, and so does
// every step of a script outside the grammar.
func WidenUnconfined(sc *gate.Script) {
	for i, st := range sc.Steps {
		if startsProgram(st, sc.Grammar) {
			sc.Steps[i].Effects = gate.Unconfined(st.Effects)
		}
	}
}

// startsProgram tells whether a step may start an external program.
func startsProgram(st gate.Step, grammar bool) bool {
	if !grammar {
		return true
	}
	if len(st.Argv) == 0 {
		return false
	}
	switch st.Argv[0] {
	case "exec", "command", "eval", "source", ".", "builtin":
		return true
	}
	return !interp.IsBuiltin(st.Argv[0])
}

// RunsUnconfined tells whether, under shell.confinement mode, the
// programs of a step run without a sandbox here: "off", or "auto" (or
// "") where no mechanism works. A step's effects are then
// gate.Unconfined (eukhe check shows them so too).
func RunsUnconfined(mode string) bool {
	switch mode {
	case "off":
		return true
	case "require":
		return false
	}
	return Detect().Mechanism == Unconfined
}

// key is what confines a process beside its effects: the confinement
// setting and the writable directories, as they are now.
func (c Confine) key() string {
	var dirs []string
	if c.WritableDirs != nil {
		dirs = c.WritableDirs()
	}
	return c.mode() + "\x00" + strings.Join(dirs, "\x00")
}

// launch is how one external process starts: the program, its argv and
// its environment, after the sandbox is put around it.
type launch struct {
	path string
	argv []string
	env  []string
	// confined names the mechanism; "" when the process runs unconfined.
	confined Mechanism
	// plan is the Landlock plan the re-run reads on descriptor 3.
	plan []byte
	// hidden are the entries the sandbox hid.
	hidden []string
	// made, after the process, lists the protected entries (.git, .eukhe,
	// editor config) it made where it could without protected; nil when
	// it could make none.
	made func() []string
	// begin, when made is set, starts the session's live watch for the
	// process (protected_live.go); the function it gives ends it and
	// lists what the watch renamed out of use meanwhile.
	begin func() (end func() []string)
	// settle, when set, is called once the process ended, with the
	// program's name: it writes back what the process may keep of the
	// places an approval narrowed, and gives a line for each thing it did
	// not keep (shadow_linux.go).
	settle func(program string) []string
	// warn is told before the process starts: what of its approval it
	// does not get, and why.
	warn string
	// narrowedTo are the paths its approval of secret or protected was
	// narrowed to (placesOf), for the reply's note.
	narrowedTo []string
}

// shadow shows each directory a narrowing opened (confine.GivenWay) from
// a copy, adding its mounts to s and its settle to l; whole are the
// places before the narrowing. A directory that cannot be shown so gives
// the warning, and the caller keeps the places covered whole: the
// approved step then fails, never reaches more.
func (x *run) shadow(l *launch, s *confine.Sandbox, pl, whole confine.Places, named []string, program string) (warn string) {
	given := confine.GivenWay(slices.Concat(whole.Secrets, whole.Protected), slices.Concat(pl.Secrets, pl.Protected), named)
	if len(given) == 0 {
		return ""
	}
	for _, d := range slices.Concat(pl.Pinned, pl.Frozen, pl.Sealed) {
		if slices.ContainsFunc(given, func(g string) bool { return strings.HasPrefix(d, g+"/") }) {
			return fmt.Sprintf("bash: %s: the approval is not narrowed below %s, which holds eukhe's own settings; what it named stays covered\n", program, d)
		}
	}
	fail := func(err error) string {
		return fmt.Sprintf("bash: %s: the places the approval named cannot be shown alone (%v); they stay covered, and the step may fail\n", program, err)
	}
	root, err := shadowRoot(gate.EnvFromList(x.env))
	if err != nil {
		return fail(err)
	}
	plan := *s
	sh, err := makeShadows(root, given, named,
		func(p string) bool { return confine.Covered(pl.Secrets, p) },
		func(p string) bool { return plan.Reach(p).Write })
	if err != nil {
		return fail(err)
	}
	// what the plan mounted below a shadowed directory is covered by its
	// shadow; a mount on a link there would land on its target
	s.Mounts = slices.DeleteFunc(s.Mounts, func(m confine.Mount) bool {
		return slices.ContainsFunc(given, func(g string) bool { return strings.HasPrefix(m.Dst, g+"/") })
	})
	s.Mounts = append(s.Mounts, sh.mounts...)
	l.settle = sh.settle
	return ""
}

// tempDir is the session's private temporary directory, made on first
// use and removed by Close.
func (r *Runner) tempDir() (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.tmp != "" {
		return r.tmp, nil
	}
	d, err := os.MkdirTemp("", "eukhe-session-")
	if err != nil {
		return "", fmt.Errorf("the session's temporary directory cannot be made (%v); set TMPDIR to a writable directory", err)
	}
	r.tmp = d
	return d, nil
}

// Close ends the runner's session: every job is killed and the private
// temporary directory is removed.
func (r *Runner) Close() error {
	r.jobs().killAll()
	r.kern.close()
	r.protected.live.close()
	r.mu.Lock()
	d := r.tmp
	r.tmp = ""
	r.mu.Unlock()
	if d == "" {
		return nil
	}
	if err := os.RemoveAll(d); err != nil {
		return fmt.Errorf("the session's temporary directory %s was not removed (%v); remove it by hand", d, err)
	}
	return nil
}

// sandbox puts the sandbox of a process allowed these effects around the
// program at path with argv and env, run in dir. refusal is the text of a
// process that must not run (shell.confinement "require" with no sandbox
// here).
//
// Secret and protected, when a question approved them (the auto set does
// not hold them) for real paths in their places, are for those paths only (the program's own
// words named them, and coveredAt kept them only where the question
// did): the secret entries stay hidden and the protected ones read-only
// but for those paths (confine.Narrow), and a protected entry the
// process makes at one of them is not renamed out of use after it.
func (x *run) sandbox(path string, argv, env []string, dir string, allowed gate.Effects, named []string) (l launch, refusal string) {
	l = launch{path: path, argv: argv, env: env}
	mode := x.confine.mode()
	if mode == "off" {
		return l, ""
	}
	c := Detect()
	if c.Mechanism == Unconfined {
		if mode == "require" {
			why := c.Why
			if sandboxHint != "" && !strings.Contains(why, sandboxHint) {
				why += "; " + sandboxHint
			}
			return l, fmt.Sprintf("bash: %s: not run: shell.confinement is \"require\" and no sandbox works here (%s), "+
				"or set shell.confinement to \"auto\" to run programs unconfined where none works\n", argv[0], why)
		}
		return l, ""
	}
	tmp, err := x.tempDir()
	if err != nil {
		return l, fmt.Sprintf("bash: %s: not run: %v\n", argv[0], err)
	}
	x.mu.Lock()
	auto := x.autoNow
	x.mu.Unlock()
	// the stores and their links, looked up once for this process
	secrets, _, _ := x.policy.SandboxRules()
	links := storeLinks(secrets)
	var narrowed gate.Effects
	lent := map[gate.Effect][]string{}
	own := eukheOwnDirs(gate.EnvFromList(x.env))
	for _, e := range []gate.Effect{gate.Secret, gate.Protected} {
		if allowed.Has(e) && !auto.Has(e) {
			// eukhe's own state is lent by no approval (Places.Private)
			lent[e] = slices.DeleteFunc(x.placesOf(named, e), func(n string) bool {
				return slices.ContainsFunc(own, func(d string) bool { return n == d || strings.HasPrefix(n, d+"/") })
			})
			if e == gate.Secret {
				lent[e] = withStoreLinks(lent[e], links)
			}
			if len(lent[e]) > 0 {
				narrowed = narrowed.With(e)
				allowed = allowed.Without(e)
			}
		}
	}
	l.narrowedTo = slices.Concat(lent[gate.Secret], lent[gate.Protected])
	pl, made, refused := x.places(path, dir, allowed)
	if refused != "" {
		return l, refused
	}
	whole := pl
	// A directory holding a link may give way too (a ~/.ssh/config
	// linked to a dotfiles repository broke an approved read of
	// known_hosts: the thirty-second red team's): under bubblewrap the
	// directories the narrowing opens are shown from copies (x.shadow),
	// where a link is a copy of the link, no mount; Landlock grants no
	// link in a directory it lists (readDirNoLinks). Seatbelt's rules
	// are not known to keep a link's own path apart from its target's.
	list := listNoLinks
	if c.Mechanism == Bubblewrap || c.Mechanism == Landlock {
		list = listWithLinks
	}
	if narrowed.Has(gate.Secret) {
		pl.Secrets = confine.Narrow(pl.Secrets, lent[gate.Secret], list)
	}
	if narrowed.Has(gate.Protected) {
		named = lent[gate.Protected]
		pl.Protected = confine.Narrow(pl.Protected, named, list)
		if made != nil {
			all := made
			made = func() []string {
				return slices.DeleteFunc(all(), func(p string) bool {
					return slices.ContainsFunc(named, func(n string) bool { return p == n || strings.HasPrefix(p, n+"/") })
				})
			}
		}
	}
	if c.Mechanism == Bubblewrap {
		// the directories above the user settings file are mount points
		// the process cannot rename or remove (a program swapped
		// ~/.config/eukhe for its own: the twelfth red team's); Landlock
		// refuses such a rename by itself (no refer right there)
		pl.Pinned = x.policy.GateDirs()
		if !allowed.Has(gate.Secret) {
			// so are the directories above a store's file that a link
			// of the store leads to (a dotfiles repository's ssh/):
			// renamed away, the key is read by its new path, unasked
			// (the thirty-fourth red team's)
			pl.Pinned = append(pl.Pinned, x.aboveStoreTargets(links)...)
		}
	}
	// eukhe's settings directories are read-only to every process: a
	// missing settings file is not made (the thirteenth red team's)
	pl.Frozen = x.policy.GateFileDirs()
	if narrowed.Has(gate.Secret) {
		// a settings file a question named may be written where it is
		pl.Frozen = slices.DeleteFunc(pl.Frozen, func(d string) bool {
			return slices.ContainsFunc(lent[gate.Secret], func(n string) bool { return strings.HasPrefix(n, d+"/") })
		})
	}
	if x.fifoDir != "" {
		// the process substitutions' pipes: there at their own path for
		// the program handed one, and read-only whatever the step was
		// approved for, so no process plants a name in it that the shell
		// would open itself, unjudged (interpEnv; the twenty-ninth red
		// team's, and its form b: approved for secret, a step planted
		// a link to ~/.ssh/authorized_keys there)
		pl.Keep = append(pl.Keep, x.fifoDir)
		pl.Sealed = []string{x.fifoDir}
	}
	l.made = made
	if !allowed.Has(gate.Secret) && allowed.Has(gate.Write) {
		// not for the live watch below: that one is for protected names
		l.made = withSecretChains(made, secrets, links)
	}
	// The live watch (a kernel lives: what a process makes is renamed as
	// it appears) renames by name, whatever a question named: a process
	// approved for protected at named paths is looked at after it ends
	// only (made, filtered above), or an approved `git init` lost its
	// .git as it made it.
	if made != nil && x.tree != nil && !narrowed.Has(gate.Protected) {
		_, _, names := x.policy.SandboxRules()
		roots := x.policy.Roots()
		l.begin = func() func() []string { return x.tree.live.begin(roots, names, x.id) }
	}
	pl.TempDir = tmp
	if c.Mechanism == Bubblewrap {
		// a link on the way to a place (linksOnTheWay): a bind mount on it
		// would land on its target (Landlock's and Seatbelt's rules on it
		// only refuse more)
		pl.Protected = slices.DeleteFunc(slices.Clone(pl.Protected), func(e confine.Entry) bool {
			fi, err := os.Lstat(e.Path)
			return err == nil && fi.Mode()&os.ModeSymlink != 0
		})
	}
	// A Unix socket is reached by its path, and neither mechanism can
	// hide every one (a container runtime's docker.sock in the home, an
	// agent's socket): unless net and secret are both allowed, a step
	// makes none (a seccomp filter; socketpair still works), under
	// bubblewrap as under Landlock. Bubblewrap's network namespace keeps
	// the inet sockets of a step without net on its own loopback.
	noUnix := c.Mechanism == Bubblewrap && !(allowed.Has(gate.Net) && allowed.Has(gate.Secret))
	if c.Mechanism == Landlock || c.Mechanism == Seatbelt {
		// neither can show a directory at another path
		pl.KeepTmp = true
	}
	s := confine.Plan(allowed, pl)
	if c.Mechanism == Bubblewrap && narrowed != 0 {
		// the directories the narrowing opened are shown from copies
		// (shadow_linux.go), else the place stays covered whole
		if warn := x.shadow(&l, &s, pl, whole, slices.Concat(lent[gate.Secret], lent[gate.Protected]), argv[0]); warn != "" {
			pl.Secrets, pl.Protected = whole.Secrets, whole.Protected
			s = confine.Plan(allowed, pl)
			l.warn = warn
		}
	}
	for _, m := range s.Mounts {
		if m.Kind == confine.MountHideDir || m.Kind == confine.MountHideFile {
			l.hidden = append(l.hidden, m.Dst)
		}
	}
	l.env = withEnv(env, "TMPDIR", s.TempDir)
	l.confined = c.Mechanism
	if refusal := wrapLaunch(&l, c, s, path, argv, dir, noUnix); refusal != "" {
		return l, refusal
	}
	return l, ""
}

// withEnv is env with name set to value.
func withEnv(env []string, name, value string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if n, _, _ := strings.Cut(kv, "="); !sameEnvName(n, name) {
			out = append(out, kv)
		}
	}
	return append(out, name+"="+value)
}

// readDirNoLinks lists a directory's entries for the Landlock plan,
// leaving out symbolic links (a rule on one would grant its target).
func readDirNoLinks(dir string) ([]confine.Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]confine.Entry, 0, len(des))
	for _, de := range des {
		if de.Type()&os.ModeSymlink != 0 {
			continue
		}
		out = append(out, confine.Entry{Path: filepath.Join(dir, de.Name()), Dir: de.IsDir()})
	}
	return out, nil
}

// places are the session's places as they are now, for a process of
// program path run in dir with these effects allowed. Only what the plan
// will use is looked up: the secrets when secret is not allowed, the
// protected entries when write is and protected is not, the socket
// directories when net is not.
//
// refusal is the text of a process the plan cannot keep within what was
// allowed (protected_outside.go): it must not run.
func (x *run) places(program, dir string, allowed gate.Effects) (_ confine.Places, scan func() []string, refusal string) {
	secretRefusal := ""
	// the searches of this process (the secret files' and the protected
	// files') share one look at the workspace, and no later process uses
	// it (gate/links_strangers.go)
	x.links.Fresh()
	defer func() {
		if refusal == "" {
			refusal = secretRefusal
		}
	}()
	env := gate.EnvFromList(x.env)
	outside := allowed.Has(gate.Write) && allowed.Has(gate.Outside) && !allowed.Has(gate.Protected)
	home := env["HOME"]
	pl := confine.Places{Roots: x.policy.Roots()}
	secrets, _, names := x.policy.SandboxRules()
	pathDirs := filepath.SplitList(env["PATH"])
	pl.Keep = append(pl.Keep, dir, filepath.Dir(program))
	if filepath.IsAbs(home) {
		pl.Keep = append(pl.Keep, realOf(home))
	}
	for _, d := range pathDirs {
		if filepath.IsAbs(d) {
			pl.Keep = append(pl.Keep, realOf(d))
		}
	}
	if allowed.Has(gate.Write) && x.confine.WritableDirs != nil {
		for _, d := range x.confine.WritableDirs() {
			if rest, ok := strings.CutPrefix(d, "~/"); ok && filepath.IsAbs(home) {
				d = filepath.Join(home, rest)
			}
			if !filepath.IsAbs(d) {
				continue
			}
			// The user named it as a place a build writes: make it, so the
			// first build finds it.
			_ = os.MkdirAll(d, 0o755)
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				pl.Writable = append(pl.Writable, realOf(d))
			}
		}
	}
	if state := stateHome(env); state != "" {
		// made now if missing, so that it is hidden from this process
		// before another one's shadow makes it (the thirty-fourth red
		// team's: a step set up first saw the copies made after)
		_ = os.MkdirAll(state, 0o700)
	}
	for _, d := range eukheOwnDirs(env) {
		pl.Private = appendEntry(pl.Private, d)
	}
	if !allowed.Has(gate.Secret) {
		for _, s := range append(secrets, stateDirs(env)...) {
			pl.Secrets = appendEntry(pl.Secrets, s)
		}
		scopes := pl.Roots
		if filepath.IsAbs(home) {
			// a dotfiles directory outside the workspace holds other
			// names too, which a program may read where the sandbox
			// lets it read the home (Landlock: the fourteenth red team's)
			scopes = append(slices.Clip(scopes), realOf(home))
		}
		secretRefusal = x.hideSecretNames(&pl, program, scopes)
	}
	if allowed.Has(gate.Write) && !allowed.Has(gate.Protected) {
		// Named entries (.git, .eukhe, editor config) at any depth below
		// the roots (the session's map, protected_tree.go), and in each
		// root, each directory directly in one, the working directory and
		// each directory above it up to its root (looked at every time,
		// also when the map is full).
		roots := x.policy.Roots()
		tree := x.tree
		if tree == nil {
			tree = &protectedTree{}
		}
		var pathDirs []string
		for _, d := range append(filepath.SplitList(env["PATH"]), x.policy.PathDirs()...) {
			pathDirs = append(pathDirs, gate.HomeTilde(d, env["HOME"])) // "~/bin"'s commands too
		}
		tree.setShadow(x.policy.EndNames(), strings.Join(pathDirs, string(filepath.ListSeparator)))
		present := tree.before(roots, names)
		if shut := tree.shutDirs(); len(shut) > 0 && allowed.Has(gate.Write) && refusal == "" {
			// what is in a shut directory of the user's is not known (a
			// protected entry, another name of one), and the process may
			// open it: the eighteenth red team's
			refusal = blindRefusal(program, "protected", shut[0])
		}
		near := x.namedEntries(dir, names)
		// A repository the map found that the policy's git places do not
		// know yet (made during the session, or past the walk of the
		// start): its config's hooks and includes are protected too, in
		// this process already (Policy.Near, settings.GitWatch).
		for _, p := range append(present, near...) {
			if filepath.Base(p) == ".git" {
				x.policy.Near(filepath.Dir(p))
			}
		}
		_, paths, _ := x.policy.SandboxRules()
		for _, p := range paths {
			pl.Protected = appendEntry(pl.Protected, p)
		}
		for _, p := range append(present, near...) {
			pl.Protected = appendEntry(pl.Protected, p)
		}
		// The home's configuration (the DotRule): every dot-entry of the
		// home but its caches, read-only, and one the process makes is
		// renamed out of use after it.
		// A home a root or writable directory holds, or a writable
		// directory in a home (~/.cache named writable: the code places in
		// it stay covered), is looked at without outside too.
		var dots homeDots
		if homes := x.policy.DotHomes(); allowed.Has(gate.Outside) || slices.ContainsFunc(homes, func(h gate.Rule) bool {
			return slices.ContainsFunc(slices.Concat(roots, pl.Writable), func(w string) bool { return h.Path == w || strings.HasPrefix(h.Path, w+"/") }) ||
				slices.ContainsFunc(pl.Writable, func(w string) bool { return strings.HasPrefix(w, h.Path+"/") })
		}) {
			dots = lookHomeDots(homes, pl.Writable)
			for _, p := range dots.covered {
				pl.Protected = appendEntry(pl.Protected, p)
			}
			for _, h := range homes {
				if h.Name != "" && !slices.Contains(dots.covered, h.Path) {
					dots.covered = append(dots.covered, h.Path) // looked at: one made is renamed
				}
			}
		}
		// Other names, below the roots, of the protected files in the
		// roots (hard links, as a tarball unpacks them), of the protected
		// files outside them, and of the entries of the protected
		// directories of the home: read-only too. The protected
		// directories elsewhere (/usr/bin on PATH: thousands of files) are
		// not searched for each process; the gate judges a write to
		// another name of theirs.
		if fsys, ok := gate.OS.(gate.InodeFS); ok {
			var tops, skip []string
			var depths []int
			for _, e := range pl.Protected {
				switch {
				case x.insideRoot(e.Path):
					tops, depths = append(tops, e.Path), append(depths, -1)
				case !e.Dir:
					// a protected file outside (~/.gitconfig, ~/.bashrc) with
					// another name in the workspace (a dotfiles repository's
					// hard link): the fourth red team's
					tops, depths = append(tops, e.Path), append(depths, 0)
				case filepath.IsAbs(home) && strings.HasPrefix(e.Path, realOf(home)+"/") || underDotHome(e.Path, x.policy.DotHomes()):
					// a PATH directory or config directory of the home,
					// whole (a tool hard-linked into ~/bin, a plugin of
					// Neovim in ~/.local/share/nvim/site/plugin: the eighth
					// red team's); the walk is kept a while (links_tops.go).
					// The configuration a link or a variable puts elsewhere
					// (~/.config on another disk, XDG_CONFIG_HOME, another
					// user's home) too: the ninth red team's
					tops, depths = append(tops, e.Path), append(depths, -1)
				}
			}
			// the home's configuration the process cannot write anyway
			// (not bound: the home is outside what it may write) has its
			// files with other names in the roots searched too (a dotfiles
			// repository that hard-links an oh-my-zsh theme into the
			// workspace: the eighth red team's, tried around its fix)
			if dots.covered == nil {
				for _, p := range lookHomeDots(x.policy.DotHomes(), pl.Writable).covered {
					if real, err := filepath.EvalSymlinks(p); err == nil && !slices.Contains(tops, real) && !x.insideRoot(real) {
						tops, depths = append(tops, real), append(depths, -1)
					}
				}
			}
			for _, e := range pl.Secrets {
				skip = append(skip, e.Path)
			}
			scopes := pl.Roots
			if outside {
				scopes = outsideLinkScopes(pl, home)
			}
			found := x.links.SearchFrom(fsys, tops, depths, scopes, pl.Roots, skip)
			for _, p := range found.Links {
				pl.Protected = appendEntry(pl.Protected, p)
			}
			switch {
			case found.Blind != "" && mayOpen(found.Blind, pl):
				// a directory of the user's it could not read (chmod 000):
				// a process may open it and write a name there the
				// search did not see, in the workspace too (the
				// seventeenth red team's: ~/.bashrc through its hard
				// link in dotfiles/)
				refusal = blindRefusal(program, "protected", found.Blind)
			case outside && (len(found.Unfound) > 0 || !found.Complete):
				refusal = unfoundLinksRefusal(program, found)
			}
		}
		// A protected place that is missing now (a PATH directory of the
		// workspace not made yet, a file git includes) has nothing a mount
		// could cover, and one that exists can be replaced by renaming a
		// directory above it away (its mount or rule goes with it): after
		// the process, what appeared where a place was missing (the first
		// missing part of its path, a link too) and a place that is not
		// the file it was are renamed out of use, as a .git is (the third
		// and fourth red teams').
		// A place reached through links (a PATH directory through the Nix
		// profile's links) is swapped by replacing a link on the way:
		// each is looked at again after the process, and read-only under
		// Landlock (its directory's other entries get their own rules; a
		// mount cannot cover a link itself: sandbox drops these for
		// bubblewrap).
		var way []string
		for _, p := range paths {
			for _, l := range linksOnTheWay(p) {
				if !contains(way, l) {
					way = append(way, l)
					pl.Protected = append(pl.Protected, confine.Entry{Path: l})
				}
			}
		}
		places := lookPlaces(slices.Concat(paths, dots.covered, dots.links, way))
		scan = func() []string {
			made, _ := tree.refresh(roots, names)
			made = append(made, dots.made()...)
			for _, p := range places.changed() {
				if !slices.ContainsFunc(made, func(m string) bool { return p == m || strings.HasPrefix(p, m+"/") }) {
					made = append(made, p)
				}
			}
			for _, p := range x.namedEntries(dir, names) {
				if !contains(near, p) && !contains(made, p) {
					made = append(made, p)
				}
			}
			return made
		}
	}
	if !allowed.Has(gate.Net) {
		for _, d := range []string{"/run", "/var/run"} {
			pl.Sockets = appendEntry(pl.Sockets, d)
		}
	}
	if outside && refusal == "" {
		refusal = relativePathRefusal(program, x.policy.EndNames(), x.policy.PathUnknown())
	}
	return pl, scan, refusal
}

// hideSecretNames hides, as the secret entries are, the other names
// below the scopes (the roots and the home) of the secret files (hard
// links): a dotfiles
// repository opened as the project holds one of ~/.aws/credentials, and
// a bash step's grep -r of the tree printed it, as cp -r copied it (the
// thirteenth red team's). The secret places are walked for files with
// more than one name as the protected ones are (kept a while), and the
// roots only when such a file has a name outside them.
func (x *run) hideSecretNames(pl *confine.Places, program string, scopes []string) (refusal string) {
	fsys, ok := gate.OS.(gate.InodeFS)
	if !ok || x.links == nil {
		return ""
	}
	var tops []string
	var depths []int
	for _, e := range pl.Secrets {
		// the kernel's file systems hold no hard link to a file (and a
		// walk of /proc is most of a second)
		if !kernelFS(e.Path) {
			tops, depths = append(tops, e.Path), append(depths, -1)
		}
	}
	found := x.links.SearchFrom(fsys, tops, depths, scopes, pl.Roots, nil)
	for _, p := range found.Links {
		pl.Secrets = appendEntry(pl.Secrets, p)
	}
	if found.Blind != "" && mayOpen(found.Blind, *pl) {
		return blindRefusal(program, "secret", found.Blind)
	}
	if !found.Complete {
		// a search cut at its bound hides less than there is: the
		// program would read a name it did not reach (a step can make
		// the files that fill the bound: the fourteenth red team's)
		return fmt.Sprintf("bash: %s: not run: the search for other names (hard links) of secret files stopped at its bound in %s "+
			"(too many entries), so the sandbox cannot hide them all; move what fills it out of the workspace, or allow secret for this step\n",
			filepath.Base(program), gate.Visible(found.CutAt))
	}
	if len(found.Unfound) > 0 && Detect().Mechanism != Bubblewrap {
		// a secret file with a name outside the scopes searched (a
		// dotfiles directory elsewhere, /srv, a backup): Landlock lets
		// a program read the whole file system, so the name cannot be
		// hidden (bubblewrap shows only what it binds: the fifteenth
		// red team's)
		return fmt.Sprintf("bash: %s: not run: the secret file %s has another name (a hard link) outside the workspace and the home, "+
			"which the sandbox here cannot hide; make that other name a symbolic link, or allow secret for this step\n",
			filepath.Base(program), gate.Visible(found.Unfound[0]))
	}
	return ""
}

// mayOpen tells whether a process with these places may open the shut
// directory dir (chmod it): under bubblewrap only in what it may write
// (the roots, the writable directories), the rest being read-only or
// hidden; under Landlock anywhere, as it does not govern chmod. A search
// blind to a shut directory of the home's configuration refused every
// process under bubblewrap, though none could open it (the eighteenth
// red team's).
func mayOpen(dir string, pl confine.Places) bool {
	if Detect().Mechanism != Bubblewrap {
		return true
	}
	return slices.ContainsFunc(slices.Concat(pl.Roots, pl.Writable), func(w string) bool {
		return dir == w || strings.HasPrefix(dir, w+"/") || strings.HasPrefix(w, dir+"/")
	})
}

// kernelFS tells whether p is /proc, /sys or /dev, or below one.
func kernelFS(p string) bool {
	for _, k := range []string{"/proc", "/sys", "/dev"} {
		if p == k || strings.HasPrefix(p, k+"/") {
			return true
		}
	}
	return false
}

// namedEntries are the entries of these names (.git, .eukhe, editor
// config) that exist in each root, in each directory directly in a root,
// and in dir and each directory above it up to its root.
func (x *run) namedEntries(dir string, names []string) []string {
	var dirs []string
	for _, root := range x.policy.Roots() {
		dirs = append(dirs, root)
		if des, err := os.ReadDir(root); err == nil {
			for _, de := range des {
				if de.IsDir() {
					dirs = append(dirs, filepath.Join(root, de.Name()))
				}
			}
		}
	}
	for d := dir; x.insideRoot(d); d = filepath.Dir(d) {
		dirs = append(dirs, d)
		if d == filepath.Dir(d) {
			break
		}
	}
	var out []string
	wild := slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "*") })
	for _, d := range dirs {
		for _, n := range names {
			p := filepath.Join(d, n)
			if _, err := os.Lstat(p); err == nil && !contains(out, p) {
				out = append(out, p)
			}
		}
		if !wild {
			continue
		}
		// a name protected by its ending (*.code-workspace): listed
		if des, err := os.ReadDir(d); err == nil {
			for _, de := range des {
				if p := filepath.Join(d, de.Name()); gate.NameIn(names, de.Name()) && !contains(out, p) {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// refusedSuffix marks an entry renamed out of use: NAME.eukhe-refused-ID-R,
// R a random tail a program cannot guess.
const refusedSuffix = ".eukhe-refused-"

// refuseMade renames each protected entry a process made where it could
// not be made read-only beforehand (a .git from git init, a .vscode): it
// becomes NAME.eukhe-refused-ID-R beside itself, a name no entry has (the
// rename never replaces one: two steps that each make sub/.git get two
// names), nothing is lost, and no program (git, the editor) reads its
// hooks or config as the user's. The parent is opened with no link on the
// way. It gives what it did, "old → new", or why it could not.
func refuseMade(made func() []string, id string) []string {
	if made == nil {
		return nil
	}
	var done []string
	for _, p := range made() {
		to, err := renameOutOfUse(p, id)
		if err != nil {
			done = append(done, fmt.Sprintf("%s (not renamed: %v; remove it before git or the editor uses it)", p, err))
			continue
		}
		done = append(done, p+" → "+to)
	}
	return done
}

// renamedOut are the entries eukhe renamed out of use (fileKey → the path
// it gave): a link among them, still at that path, is out of use
// already, and is not judged again (a link to a large tree was renamed
// at every look, its name growing until too long). The same file at
// another path (a step renamed it, or hard-linked it, to another name
// holding refusedSuffix) is judged as any other.
var renamedOut sync.Map

// randomTail is 12 random hex digits.
func randomTail() string {
	var b [6]byte
	rand.Read(b[:]) // never fails (crypto/rand)
	return hex.EncodeToString(b[:])
}

func (x *run) insideRoot(d string) bool {
	for _, r := range x.policy.Roots() {
		if d == r || strings.HasPrefix(d, r+"/") {
			return true
		}
	}
	return false
}

// stateDirs are eukhe's own state and the user's agents, hidden like a
// secret: the runtime directory (eukhe's sockets, the session bus that
// reaches the keyring), eukhe's socket directory without one, its state
// directory (session logs), and the ssh and gpg agents' sockets.
func stateDirs(env map[string]string) []string {
	var out []string
	if rt := env["XDG_RUNTIME_DIR"]; filepath.IsAbs(rt) {
		out = append(out, rt)
	}
	out = append(out, filepath.Join(os.TempDir(), "eukhe-"+strconv.Itoa(os.Getuid())))
	if state := stateHome(env); state != "" {
		out = append(out, state)
	}
	for _, k := range []string{"SSH_AUTH_SOCK", "GPG_AGENT_INFO", "GNUPGHOME"} {
		if v, _, _ := strings.Cut(env[k], ":"); filepath.IsAbs(v) {
			out = append(out, v)
		}
	}
	return out
}

// eukheOwnDirs are eukhe's own state and socket directories (a part of
// stateDirs): hidden from every process, whatever it was allowed
// (confine.Places.Private).
func eukheOwnDirs(env map[string]string) []string {
	var out []string
	if rt := env["XDG_RUNTIME_DIR"]; filepath.IsAbs(rt) {
		out = append(out, filepath.Join(rt, "eukhe"))
	}
	out = append(out, filepath.Join(os.TempDir(), "eukhe-"+strconv.Itoa(os.Getuid())))
	if state := stateHome(env); state != "" {
		out = append(out, state)
	}
	return out
}

// stateHome is eukhe's state directory ($XDG_STATE_HOME/eukhe, else
// ~/.local/state/eukhe), or "" with neither set.
func stateHome(env map[string]string) string {
	state := env["XDG_STATE_HOME"]
	if !filepath.IsAbs(state) && filepath.IsAbs(env["HOME"]) {
		state = filepath.Join(env["HOME"], ".local", "state")
	}
	if !filepath.IsAbs(state) {
		return ""
	}
	return filepath.Join(state, "eukhe")
}

// appendEntry adds the real path of p when it exists.
func appendEntry(es []confine.Entry, p string) []confine.Entry {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return es
	}
	fi, err := os.Stat(real)
	if err != nil {
		return es
	}
	for _, e := range es {
		if e.Path == real {
			return es
		}
	}
	return append(es, confine.Entry{Path: real, Dir: fi.IsDir()})
}

// realOf is the real path of p, or p when it does not resolve.
func realOf(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}

// killAll stops every job that still runs, and waits for each to settle
// (at most its grace and a second).
func (j *Jobs) killAll() {
	j.mu.Lock()
	var xs []*run
	for _, x := range j.jobs {
		xs = append(xs, x)
	}
	j.mu.Unlock()
	for _, x := range xs {
		x.stop(Killed)
	}
	for _, x := range xs {
		t := time.NewTimer(x.grace + time.Second)
		select {
		case <-x.done:
		case <-t.C:
		}
		t.Stop()
	}
}

// placesLook is the protected places as a process found them: the
// identity of each that exists, and the first missing part of the path of
// each that does not.
type placesLook struct {
	ids   map[string]fileKey
	first []string
}

// fileKey is an entry's identity: its device and inode, and a link's
// target. A link replaced by another (ln -sfn, a rename over it) most
// often gets the inode number just freed back on ext4: by the number
// alone a re-pointed link on a protected chain was the one before (the
// thirty-third red team's hook chain, caught one run in four).
type fileKey struct {
	dev, ino uint64
	link     string
}

func keyOf(p string) (fileKey, bool) {
	st, ok := lstatFile(p)
	if !ok {
		return fileKey{}, false
	}
	k := fileKey{dev: st.dev, ino: st.ino}
	if t, err := os.Readlink(p); err == nil {
		k.link = t
	}
	return k, true
}

// lookPlaces looks at the protected places (absolute paths) before a
// process.
func lookPlaces(paths []string) placesLook {
	l := placesLook{ids: map[string]fileKey{}}
	for _, p := range paths {
		if p = filepath.Clean(p); !filepath.IsAbs(p) || p == "/" {
			continue
		}
		if k, ok := keyOf(p); ok {
			l.ids[p] = k
			continue
		}
		first := p
		for d := filepath.Dir(first); d != first; d = filepath.Dir(first) {
			if _, ok := keyOf(d); ok {
				break
			}
			first = d
		}
		if !slices.Contains(l.first, first) {
			l.first = append(l.first, first)
		}
	}
	return l
}

// changed are the entries to rename out of use after the process: what
// exists now where a place was missing, and each place that is another
// entry than before.
func (l placesLook) changed() []string {
	var out []string
	for _, p := range l.first {
		if _, ok := keyOf(p); ok {
			out = append(out, p)
		}
	}
	for p, was := range l.ids {
		if now, ok := keyOf(p); ok && now != was {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out
}

// withSecretChains adds to scan (nil: none) a look at each secret path,
// its real path and the links on its way, before and after the process:
// one that is another entry after it (a link re-pointed, a directory
// renamed away and made again) is renamed out of use. No mount covers a
// link, and a hidden file's mount does not pin its directory: a program
// without secret re-pointed the workspace link ~/.ssh/config resolves
// through (tar -x), or renamed away the dotfiles directory its real file
// lies in and made a new config there, naming a ProxyCommand (the
// thirty-third red team's). The secret path then leads nowhere, never
// to what the program put there.
func withSecretChains(scan func() []string, secrets []string, links []storeLink) func() []string {
	var chain []string
	add := func(s string) {
		// a store's own file or directory is a mount point (hidden)
		// no program can replace: only links, and what a link leads to
		// (a dotfiles directory's file, which a rename of its directory
		// replaces), are looked at; the user's own save of ~/.npmrc
		// while a build runs is no program's (the thirty-fourth red
		// team's)
		way := linksOnTheWay(s)
		if len(way) == 0 {
			return
		}
		for _, p := range append([]string{realOf(s)}, way...) {
			// only what exists: a store made where none was is the
			// gate's (a write of a secret path asks), and the first
			// missing part of a missing store's path may be ~/.config
			if _, err := os.Lstat(p); err == nil && !kernelFS(p) && !slices.Contains(chain, p) {
				chain = append(chain, p)
			}
		}
	}
	for _, s := range secrets {
		if !filepath.IsAbs(s) || kernelFS(s) {
			continue
		}
		add(s)
	}
	// a store's own links (~/.ssh/config into a dotfiles repository),
	// and theirs on the way
	for _, l := range links {
		add(l.path)
	}
	// a link of a chain that leads nowhere now (its workspace end
	// removed by an earlier program): what a program makes where it
	// leads is renamed out of use too
	for _, p := range slices.Clone(chain) {
		if t, err := os.Readlink(p); err == nil {
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(p), t)
			}
			if _, err := os.Lstat(t); err != nil && !kernelFS(t) && !slices.Contains(chain, filepath.Clean(t)) {
				chain = append(chain, filepath.Clean(t))
			}
		}
	}
	look := lookPlaces(chain)
	return func() []string {
		var made []string
		if scan != nil {
			made = scan()
		}
		for _, p := range look.changed() {
			if !slices.ContainsFunc(made, func(m string) bool { return p == m || strings.HasPrefix(p, m+"/") }) {
				made = append(made, p)
			}
		}
		return made
	}
}

// withStoreLinks is lent with each store's link whose real path is one
// of lent: a question names ~/.ssh/config by the real path it leads to
// (a dotfiles repository's file), and the program opens it by the link,
// which the store's narrowing must show (the thirty-fourth red team's:
// an approved cat ~/.ssh/config said No such file).
func withStoreLinks(lent []string, links []storeLink) []string {
	for _, l := range links {
		if slices.Contains(lent, l.real) && !slices.Contains(lent, l.path) {
			lent = append(lent, l.path)
		}
	}
	return lent
}

// aboveStoreTargets are the directories above the real path of each
// store's link, up to (not with) the first that is a root, the home or
// "/": a rename of any of them moves the file the link leads to.
func (x *run) aboveStoreTargets(links []storeLink) []string {
	home := realOf(gate.EnvFromList(x.env)["HOME"])
	roots := x.policy.Roots()
	var out []string
	for _, l := range links {
		for dir := filepath.Dir(l.real); dir != "/" && dir != home && !slices.Contains(roots, dir) && dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if l.store == dir || strings.HasPrefix(l.store, dir+"/") {
				break // the store itself, or above it
			}
			if !slices.Contains(out, dir) {
				out = append(out, dir)
			}
		}
	}
	return out
}

// storeLink is a symbolic link among a store's entries.
type storeLink struct {
	store, path, real string
}

// storeLinks are the links among the entries of each store of secrets
// (at most maxStoreLinks entries of each looked at), with their real
// paths.
func storeLinks(secrets []string) []storeLink {
	var out []storeLink
	for _, s := range secrets {
		if !filepath.IsAbs(s) || kernelFS(s) {
			continue
		}
		des, _ := os.ReadDir(s)
		for i, d := range des {
			if i == maxStoreLinks {
				break
			}
			if d.Type()&os.ModeSymlink != 0 {
				p := filepath.Join(s, d.Name())
				out = append(out, storeLink{store: s, path: p, real: realOf(p)})
			}
		}
	}
	return out
}

// maxStoreLinks bounds the entries of a store withSecretChains lists.
const maxStoreLinks = 256

// placesOf are the real paths named that lie in a place of effect e's
// class (secret, protected), or hold one: the judgment's e was about
// those, and the approval is narrowed to them, with what lies below them
// (a plain directory named beside them, the home, lends nothing below
// it: the thirty-second red team's). When none is in a place, a named
// directory that holds one lends the entries below it only: `find ~ … -exec ./rd` approved
// for secret (the home holds ~/.ssh) lent every store on the machine, and
// `find sub -delete -exec ./evil` approved for protected (sub holds a
// repository) the workspace's own .git (the thirty-third red team's).
// For protected any named directory counts, as a .git below it by name
// only a walk finds: one that holds none lends nothing. A program whose
// words name no path (blind, or judged by what it is) keeps its approval
// whole.
func (x *run) placesOf(named []string, e gate.Effect) []string {
	var in, holders []string
	for _, n := range named {
		r := x.policy.Resolve("/", n)
		switch {
		case e == gate.Secret && x.policy.ClassRead(r) == gate.ClassSecret,
			e == gate.Protected && x.policy.ClassWrite(r) == gate.ClassProtected:
			in = append(in, n)
		case e == gate.Secret && x.policy.HoldsSecret(r),
			e == gate.Protected && isDirNoLink(n):
			holders = append(holders, n)
		}
	}
	if len(in) > 0 {
		// the paths in a place say what the judgment was about
		return in
	}
	return holders
}

// isDirNoLink tells whether p is a directory, not reached through a link
// at its last part.
func isDirNoLink(p string) bool {
	fi, err := os.Lstat(p)
	return err == nil && fi.IsDir()
}

// listWithLinks lists a directory's entries for confine.Narrow, a link
// as an entry that is no directory.
func listWithLinks(dir string) ([]confine.Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]confine.Entry, 0, len(des))
	for _, d := range des {
		out = append(out, confine.Entry{Path: filepath.Join(dir, d.Name()), Dir: d.IsDir()})
	}
	return out, nil
}

// listNoLinks lists a directory's entries for confine.Narrow, refusing
// one that holds a symbolic link: a mount cannot cover a link (bubblewrap
// lands on its target), so such a directory stays covered whole.
func listNoLinks(dir string) ([]confine.Entry, error) {
	des, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make([]confine.Entry, 0, len(des))
	for _, d := range des {
		if d.Type()&os.ModeSymlink != 0 {
			return nil, fmt.Errorf("%s holds a symbolic link", dir)
		}
		out = append(out, confine.Entry{Path: filepath.Join(dir, d.Name()), Dir: d.IsDir()})
	}
	return out, nil
}
