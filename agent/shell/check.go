package shell

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	pathpkg "path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"
)

// The runtime re-check (beyond the seed): the gate judged each step from
// the script's text before it ran; the call and open handlers judge what
// actually runs — the argv after expansion, in the directory the shell is
// in, and each file the shell opens — and refuse what would run with an
// effect no one approved: a glob that now matches `-i` or `--pre=sh`, a
// variable that changed a command's name, a cd or a link that moved a
// path into .git/hooks or onto a secret.

// changedError is a step the runtime re-check refused.
type changedError struct {
	step     int // index in the script
	judged   gate.Step
	actual   string // what it would do: "run `…`", "write /path"
	effects  gate.Effects
	approved gate.Effects
}

func (e *changedError) Error() string {
	missing := e.effects &^ e.approved
	return fmt.Sprintf("step %d (%s) did not run (%s): it would %s, and no one approved %s. "+
		"The gate judged the step before the script ran, as `%s` (%s); an earlier step changed what it does "+
		"(a file a glob now matches, a variable, a directory or a link). Run it again as a call of its own, "+
		"so the gate judges it as it is now.",
		e.step+1, e.judged.Text, e.effects, e.actual, missing, e.judged.Text, e.judged.Effects)
}

// builtinMarker stands before a builtin's argv so that it reaches the
// exec middleware, which runs it in the interpreter and records its exit
// status. No command can have this name: it holds a NUL.
const builtinMarker = "\x00builtin"

// call is the call handler: every simple command, after expansion and
// before it runs, builtins included.
func (x *run) call(ctx context.Context, args []string) ([]string, error) {
	hc := interp.HandlerCtx(ctx)
	if strings.IndexByte(args[0], 0) >= 0 {
		// Only the marker may hold a NUL; a name the script made with one
		// ($'\x00…') names no program.
		fmt.Fprintf(hc.Stderr, "bash: %s: a command name cannot hold a NUL byte\n", gate.Visible(args[0]))
		return nil, interp.ExitStatus(127)
	}
	x.mu.Lock()
	step, inStep := x.stepAt(hc.Pos)
	allowed := x.allowedAt(step, inStep)
	halted := x.changed != nil || x.stopped != ""
	x.mu.Unlock()
	if halted {
		return nil, errHalted
	}
	st := x.judge(args, hc.Dir, hc.Env)
	allowed = x.coveredAt(step, inStep, st, allowed)
	if !st.Effects.SubsetOf(allowed) {
		return nil, x.refuse(step, x.shownRun(step, st, allowed), st.Effects, allowed)
	}
	x.mu.Lock()
	if inStep || !x.sc.Grammar {
		x.started[step] = true
	}
	x.mu.Unlock()
	if args[0] == "cd" {
		args = cdArgs(args, func(target string) string { return x.policy.Resolve(hc.Dir, target).Native() })
	}
	if x.sc.Grammar && interp.IsBuiltin(args[0]) || isDirChange(args[0]) && !x.funcs()[args[0]] {
		// outside the grammar, cd, pushd and popd run through the exec
		// middleware too (unless the script defines a function of the
		// name), so that their check is known for cd's (cdCheck)
		return append([]string{builtinMarker}, args...), nil
	}
	return args, nil
}

// funcs are the names of the functions the script's text defines.
func (x *run) funcs() map[string]bool {
	x.funcsOnce.Do(func() {
		x.funcNames = map[string]bool{}
		if x.file == nil {
			return
		}
		syntax.Walk(x.file, func(n syntax.Node) bool {
			if f, ok := n.(*syntax.FuncDecl); ok && f.Name != nil {
				x.funcNames[f.Name.Value] = true
			}
			return true
		})
	})
	return x.funcNames
}

// shownRun is what a refused command would run, for its refusal: its
// words, but for a command refused for secret, whose words as they run
// (a glob, a variable) may be the names a secret place holds (the
// twenty-seventh red team's: `echo L/*` over a link to ~/.ssh listed the
// store in the refusal the agent reads, every question denied); then
// only its name, when the script wrote it.
func (x *run) shownRun(step int, st gate.Step, allowed gate.Effects) string {
	if !st.Effects.Has(gate.Secret) || allowed.Has(gate.Secret) {
		return "run `" + st.Text + "`"
	}
	name := "a command"
	if judged := x.sc.Steps[step].Argv; len(judged) > 0 && len(st.Argv) > 0 && judged[0] == st.Argv[0] {
		name = "`" + gate.Visible(st.Argv[0]) + "`"
	}
	return "run " + name + " with words that name a secret place (not shown: what they expand to may be its names)"
}

// stepAt is the step of the running pipeline whose command word is at
// pos; inStep is false for a command the script's text does not hold
// (inside eval or source, or outside the grammar). Called with x.mu held.
func (x *run) stepAt(pos syntax.Pos) (step int, inStep bool) {
	if x.ix != nil {
		if i, ok := x.ix.calls[pos]; ok && i >= x.cur.start && i < x.cur.end {
			return i, true
		}
	}
	return x.cur.start, false
}

// allowedAt is what may run at a step: its own allowance, or, for a
// command no step holds, any step's of the running pipeline (they were
// asked about together). Called with x.mu held.
func (x *run) allowedAt(step int, inStep bool) gate.Effects {
	if inStep {
		return x.allowed[step]
	}
	var e gate.Effects
	for i := x.cur.start; i < x.cur.end; i++ {
		e = e.Union(x.allowed[i])
	}
	return e
}

// coveredAt is what may run of a command judged as st at step, of
// allowed: secret and protected, when a question approved them, are for
// the real paths that question named only (Step.Reals), as a grant is; a
// command whose real paths as it runs are not all among those keeps of
// them only what the auto set holds. Named exactly: a word the gate could
// not read names every directory of / in the question, and "below one of
// them" would have covered the store. The
// twenty-ninth red team's: a script outside the grammar, judged secret
// for a word the gate could not read, was approved, and one of its
// commands then wrote ~/.ssh/authorized_keys through a link it planted
// under a name no question showed.
func (x *run) coveredAt(step int, inStep bool, st gate.Step, allowed gate.Effects) gate.Effects {
	if !st.Effects.Has(gate.Secret) && !st.Effects.Has(gate.Protected) {
		return allowed
	}
	judged := x.judgedReals(step, inStep)
	for _, r := range st.Reals {
		if !slices.Contains(judged, r) {
			x.mu.Lock()
			auto := x.autoNow
			x.mu.Unlock()
			return auto.Union(allowed.Without(gate.Secret).Without(gate.Protected))
		}
	}
	return allowed
}

// programAllowance is what a program runs with, in its sandbox, when it
// was judged as st at step: what coveredAt leaves of allowed, without
// secret and protected when its own judgment has neither (and the auto
// set does not hold them). A question approved for one secret or
// protected place lent every credential store, and every protected place,
// to each program of its step: in a script outside the grammar, approved
// to read ~/.ssh/known_hosts, `sh ./build.sh` read ~/.ssh/id_ed25519
// (the thirtieth red team's), and with protected one planted a hook.
func (x *run) programAllowance(step int, inStep bool, st gate.Step, allowed gate.Effects) gate.Effects {
	allowed = x.coveredAt(step, inStep, st, allowed)
	x.mu.Lock()
	auto := x.autoNow
	x.mu.Unlock()
	for _, e := range []gate.Effect{gate.Secret, gate.Protected} {
		if !st.Effects.Has(e) && !auto.Has(e) {
			allowed = allowed.Without(e)
		}
	}
	return allowed
}

// allowedAtPath is what the running pipeline may do with the real path
// real that the shell itself lists or stats: any step's allowance, but
// secret and protected only at a place a question named (Step.Reals), as
// for a redirection (the thirtieth red team's: a glob over a planted link
// to ~/.ssh listed the store under an approval to read known_hosts).
func (x *run) allowedAtPath(real string) gate.Effects {
	x.mu.Lock()
	defer x.mu.Unlock()
	allowed := x.allowedAt(x.cur.start, false)
	if !slices.Contains(x.judgedReals(x.cur.start, false), real) {
		allowed = x.autoNow.Union(allowed.Without(gate.Secret).Without(gate.Protected))
	}
	return allowed
}

// judgedReals are the real paths the steps at step named when judged:
// its own, or, for a command no step holds, the running pipeline's.
func (x *run) judgedReals(step int, inStep bool) []string {
	if inStep {
		return x.sc.Steps[step].Reals
	}
	var judged []string
	for i := x.cur.start; i < x.cur.end && i < len(x.sc.Steps); i++ {
		judged = append(judged, x.sc.Steps[i].Reals...)
	}
	return judged
}

// refuse records the runtime refusal at step (the first one wins), stops
// the rest of the pipeline, and is the error that halts the interpreter.
func (x *run) refuse(step int, actual string, effs, allowed gate.Effects) error {
	x.mu.Lock()
	if x.changed == nil {
		x.changed = &changedError{step: step, judged: x.sc.Steps[step], actual: actual,
			effects: effs, approved: allowed}
	}
	err := x.changed
	x.mu.Unlock()
	x.killGroups()
	return err
}

// judge is the gate's judgement of an argv as it runs, in dir with the
// shell's variables: the words as data (gate.ClassifyArgv), nothing
// expanded, parsed or globbed again.
func (x *run) judge(args []string, dir string, env expand.Environ) gate.Step {
	// ReadDir: a step that follows links under a tree is walked again as
	// it runs.
	sh := gate.Shell{Policy: x.policy, Dir: dir, Env: envMap(env), ReadDir: os.ReadDir, PathSeen: x.pathSeen}
	st, ok := sh.ClassifyArgv(args)
	if !ok {
		return everything(gate.Visible(strings.Join(args, " ")))
	}
	if x.blind != nil {
		st.Effects = x.blind(st.Effects)
	}
	if x.confine.unconfined() && startsProgram(st, true) {
		// what runs is judged as what starts, after every alias, trap
		// and function: a program no sandbox confines has every reach
		// (the thirteenth red team's trap 'perl …' ERR and alias cd=perl
		// started one under a builtin's name, judged exec only)
		st.Effects = gate.Unconfined(st.Effects)
	}
	return st
}

// everything is a step the gate could not judge: every effect.
func everything(text string) gate.Step {
	var e gate.Effects
	for _, f := range gate.AllEffects() {
		e = e.With(f)
	}
	return gate.Step{Text: text, Effects: e}
}

// open is the open handler: each file the shell itself opens (a
// redirection, source), judged by the path policy as the real path it
// resolves to now, and opened there.
func (x *run) open(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
	hc := interp.HandlerCtx(ctx)
	if f, err, ok := x.openStd(hc, path, flag); ok {
		return f, err
	}
	rp := x.policy.Resolve(hc.Dir, path)
	if f, err, ok := x.openStd(hc, rp.Path, flag); ok {
		// A link to a stream's alias (/proc/self/fd/0): opened in this
		// process it would be the server's own stream.
		return f, err
	}
	a := gate.ReadAccess
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_APPEND|os.O_CREATE|os.O_TRUNC) != 0 {
		a = gate.WriteAccess
	}
	v := x.policy.JudgeReal(rp, a, x.gate.auto())
	x.mu.Lock()
	step, judged := x.redirStep(rp.Path, a)
	allowed := x.allowedAt(step, true)
	if !judged {
		// a path no redirection of the pipeline was judged to open for
		// this access (a link an earlier step re-pointed, a directory
		// a cd through a new link or a pushd reached): what the auto set
		// holds, and what the pipeline's steps were approved for but
		// secret and protected, which are for the places they were
		// asked about only, as a grant is (the twenty-seventh red
		// team's: the first step's approval to read one secret opened
		// another; the twenty-eighth's: a read's approval let another
		// stage write the file)
		allowed = x.autoNow.Union(x.allowedAt(step, false).Without(gate.Secret).Without(gate.Protected))
	}
	halted := x.changed != nil || x.stopped != ""
	x.mu.Unlock()
	if halted {
		return nil, errHalted
	}
	if path != "/dev/null" && !v.Effects.SubsetOf(allowed) {
		return nil, x.refuse(step, a.String()+" "+gate.Visible(rp.Native()), v.Effects, allowed)
	}
	target, open := rp.Native(), openReal
	if rp.Looped || path == "/dev/null" {
		target, open = path, os.OpenFile
		if path == "/dev/null" {
			target = os.DevNull // NUL on Windows
		} else if !filepath.IsAbs(target) {
			target = filepath.Join(hc.Dir, target)
		}
	}
	f, err := open(target, flag, perm)
	if pe, ok := err.(*os.PathError); ok {
		pe.Path = path
	}
	if err != nil {
		return nil, err
	}
	return f, nil
}

// stat is the stat handler: the file tests ([[ -e ]], test -s, -r, -nt)
// and cd's check. A name a read of would need what the running pipeline
// was not approved for (a secret place no question named: the narrowing
// of readDir) is not there, whether it is or not: the tests told a real
// key behind a planted link from a missing one, every question denied
// (the thirtieth red team's). A directory is so too, but for cd's own
// check (a cd, pushd or popd the exec middleware runs: cdCheck): cd ~/.ssh
// runs unasked, what it reads there judged by its own steps, where
// [[ -d L/work ]] told a directory the store holds from a missing one
// (the thirty-first red team's). The answer is about the real path
// judged, stat'ed with no link followed on the way (statReal): a link a
// background program flipped between the judgement and a second
// resolution by name landed the stat on the key (the thirty-first red
// team's race). A test that does not follow the last link (-L, -h) is
// judged, and answered, at that entry: its directory's real path and its
// name.
func (x *run) stat(ctx context.Context, name string, follow bool) (fs.FileInfo, error) {
	dir := interp.HandlerCtx(ctx).Dir
	var rp gate.RealPath
	if follow || !hasEntryName(name) {
		follow = true
		rp = x.policy.Resolve(dir, name)
	} else {
		rp = x.entryOf(dir, name)
	}
	if x.unseen(rp) {
		fi, err := statReal(rp, name, follow)
		if err != nil || !fi.IsDir() || ctx.Value(cdCheck{}) == nil {
			return nil, &os.PathError{Op: "stat", Path: name, Err: fs.ErrNotExist}
		}
		return fi, nil
	}
	return statReal(rp, name, follow)
}

// access is the access handler ([[ -r ]], -w, -x, and cd's check of its
// directory), as stat: of the real path judged.
func (x *run) access(ctx context.Context, name string, mode interp.AccessMode) error {
	rp := x.policy.Resolve(interp.HandlerCtx(ctx).Dir, name)
	if x.unseen(rp) {
		fi, err := statReal(rp, name, true)
		if err != nil || !fi.IsDir() || ctx.Value(cdCheck{}) == nil {
			return &os.PathError{Op: "access", Path: name, Err: fs.ErrNotExist}
		}
	}
	return accessReal(ctx, rp, name, mode)
}

// cdCheck marks the context of a cd, pushd or popd the exec middleware
// runs (changesDir): their stat and access of the directory are cd's own.
type cdCheck struct{}

// changesDir tells whether a builtin's argv runs cd, pushd or popd, also
// through builtin or command.
func changesDir(argv []string) bool {
	for len(argv) > 0 && (argv[0] == "builtin" || argv[0] == "command") {
		argv = argv[1:]
		for len(argv) > 0 && strings.HasPrefix(argv[0], "-") && argv[0] != "-" {
			argv = argv[1:]
		}
	}
	return len(argv) > 0 && isDirChange(argv[0])
}

// isDirChange tells the builtins that change the shell's directory.
func isDirChange(name string) bool { return name == "cd" || name == "pushd" || name == "popd" }

// hasEntryName tells whether the absolute name ends in an entry's name
// (not "/", ".", ".." or a trailing separator, which an lstat follows
// as a stat does).
func hasEntryName(name string) bool {
	if name == "" || os.IsPathSeparator(name[len(name)-1]) {
		return false
	}
	base := name[lastSeparator(name)+1:]
	return base != "." && base != ".."
}

// lastSeparator is the index of the last path separator in name, or -1.
func lastSeparator(name string) int {
	for i := len(name) - 1; i >= 0; i-- {
		if os.IsPathSeparator(name[i]) {
			return i
		}
	}
	return -1
}

// entryOf is the real path of name's last entry itself, its last link
// not followed: its directory resolved (never cleaned by text first: L/..
// is where L leads, then up), and its name.
func (x *run) entryOf(dir, name string) gate.RealPath {
	i := lastSeparator(name)
	parent := name[:i]
	if parent == "" || parent[len(parent)-1] == ':' {
		parent = name[:i+1] // the root, or a volume's
	}
	rp := x.policy.Resolve(dir, parent)
	rp.Path = pathpkg.Join(rp.Path, name[i+1:])
	rp.Spelled = ""
	return rp
}

// unseen reports whether the real path is not to be seen by the running
// pipeline: a read of it would need what it was not approved for there
// (readDir's narrowing).
func (x *run) unseen(rp gate.RealPath) bool {
	v := x.policy.JudgeReal(rp, gate.ReadAccess, x.gate.auto())
	return !v.Effects.SubsetOf(x.allowedAtPath(rp.Path))
}

// readDir is the read-dir handler: the listing a glob makes, in eukhe's
// own process, of a directory judged by the path policy as the real path
// it resolves to now and opened there, within what the running pipeline
// may do. A listing no one approved (of a secret place reached through a
// link an earlier step planted) is refused, and the glob matches nothing:
// the names the place holds never reach a step's words, an echo or a
// loop's variable (the twenty-eighth red team's), nor whether a pattern
// matched.
func (x *run) readDir(ctx context.Context, path string) ([]fs.DirEntry, error) {
	hc := interp.HandlerCtx(ctx)
	rp := x.policy.Resolve(hc.Dir, path)
	v := x.policy.JudgeReal(rp, gate.ReadAccess, x.gate.auto())
	allowed := x.allowedAtPath(rp.Path)
	if rp.Looped || !v.Effects.SubsetOf(allowed) {
		return nil, &os.PathError{Op: "open", Path: path, Err: fs.ErrPermission}
	}
	f, err := openReal(rp.Native(), os.O_RDONLY, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(-1)
	// sorted by name, as os.ReadDir gives them: the glob keeps this order
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// redirStep is the step of the running pipeline whose redirection was
// judged to open the real path for that access (a write where a write
// was judged: a step approved to read a file does not lend it to
// another's write, the twenty-eighth red team's), else the pipeline's
// first step, where a refusal is reported. Called with x.mu held.
func (x *run) redirStep(real string, a gate.Access) (step int, judged bool) {
	want := gate.Read
	if a == gate.WriteAccess {
		want = gate.Write
	}
	for i := x.cur.start; i < x.cur.end && i < len(x.sc.Steps); i++ {
		for _, p := range x.sc.Steps[i].Parts {
			if p.Redirected != "" && p.Redirected == real && p.Own.Has(want) {
				return i, true
			}
		}
	}
	return x.cur.start, false
}

// openStd opens the names of the shell's standard streams as the
// script's own streams (a dup, since the shell closes what it opened),
// and refuses the names of the server's other descriptors: they are not
// the script's. ok is false for any other path. The names are Unix's,
// and the gate's (gate.StreamFD), on every system: filepath.Clean made
// /dev/stdout \dev\stdout on Windows, which no case here named, so the
// step the gate judged a stream's was refused there as a write of a
// rooted path.
func (x *run) openStd(hc interp.HandlerContext, path string, flag int) (io.ReadWriteCloser, error, bool) {
	clean := pathpkg.Clean(filepath.ToSlash(path))
	fd := -1
	switch clean {
	case "/dev/stdin":
		fd = 0
	case "/dev/stdout":
		fd = 1
	case "/dev/stderr":
		fd = 2
	case "/dev/tty":
		return nil, &os.PathError{Op: "open", Path: path, Err: syscall.ENXIO}, true
	}
	for _, dir := range []string{"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/",
		"/proc/" + strconv.Itoa(os.Getpid()) + "/fd/"} {
		if rest, ok := strings.CutPrefix(clean, dir); ok {
			n, err := strconv.Atoi(rest)
			if err != nil || n > 2 {
				return nil, &os.PathError{Op: "open", Path: path, Err: syscall.EACCES}, true
			}
			fd = n
		}
	}
	if fd < 0 {
		return nil, nil, false
	}
	var stream any
	switch fd {
	case 0:
		stream = hc.Stdin
	case 1:
		stream = hc.Stdout
	case 2:
		stream = hc.Stderr
	}
	f, ok := stream.(*os.File)
	if !ok || f == nil {
		null, err := os.OpenFile(os.DevNull, flag&^(os.O_CREATE|os.O_TRUNC|os.O_APPEND), 0)
		return null, err, true
	}
	dup, err := dupFile(f)
	return dup, err, true
}
