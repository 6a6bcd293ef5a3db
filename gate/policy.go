package gate

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Class is what a real path is to the policy (G1.2). The first that
// applies wins: Secret, Protected, Inside, Outside.
type Class uint8

// The four classes.
const (
	ClassInside Class = iota
	ClassOutside
	ClassProtected
	ClassSecret
)

func (c Class) String() string {
	switch c {
	case ClassInside:
		return "inside"
	case ClassOutside:
		return "outside"
	case ClassProtected:
		return "protected"
	case ClassSecret:
		return "secret"
	}
	return fmt.Sprintf("class(%d)", uint8(c))
}

// RuleKind is how a protected rule covers paths (G1.3).
type RuleKind uint8

// The three rule kinds.
const (
	// DirRule covers a directory and each entry directly in it.
	DirRule RuleKind = iota + 1
	// TreeRule covers a path and everything below it.
	TreeRule
	// NamedRule covers every path with a part of this name, looking only at
	// the part of the path below its workspace root (the whole path when no
	// root holds it).
	NamedRule
	// EndRule covers every directory whose path ends with Name (one or
	// more parts: "bin", "node_modules/.bin") and each entry directly in
	// it: a relative PATH entry, which names such a directory wherever
	// the user's shell is (fourth red team). It is the gate's alone: the
	// sandbox does not rename such directories a process makes (every
	// build's bin/ would go), it drops relative entries from a child's
	// PATH instead.
	EndRule
	// DotRule covers every entry directly in Path whose name starts with
	// "." and everything below it, except the places of HomeWritable;
	// with a Name, Path is that part of the home moved elsewhere by the
	// environment (CARGO_HOME=/opt/cargo for .cargo: MovedHomes), and
	// covers Path and what DotCovers covers below Name:
	// the home's configuration, whatever program reads it (the fifth red
	// team found a dozen startup files no list named: a .pth file in
	// site-packages, ~/.bash_aliases, Neovim's site plugins, starship's
	// prompt commands, Gradle's init scripts, …).
	DotRule
)

// HomeWritable are the places below the home's dot-entries that tools
// write in their normal work (caches, downloaded packages, state), left
// to the outside effect: a step allowed to write outside writes them
// unasked, so every build under that auto set does not ask. Where the
// seed is silent we chose this knowing its cost: a cache holds code a
// later build runs (an unpacked crate's build.rs, a jar, a pre-commit
// environment in ~/.cache), so a step allowed outside can plant there.
// A user who wants that guarded leaves outside out of the auto set: then
// a program writes the home only in shell.writableDirs. A program a
// login, a shell, an editor or git runs by itself is never here.
var HomeWritable = []string{".npm", ".cargo/registry", ".cargo/git", ".m2/repository",
	".gradle/caches", ".gradle/daemon", ".pnpm-store",
	".bun/install/cache", ".yarn/berry/cache", ".local/share/pnpm/store", ".rustup/downloads",
	".rustup/tmp", ".nuget/packages", ".node-gyp", ".conda/pkgs", ".ivy2/cache",
	".composer/cache", ".bundle/cache",
	// ~/.cache by the tools that keep data there (the seventh red team
	// found a shell's prompt code, a shell's plugins and keymaps, compinit's
	// dump in others: a cache not named here is covered)
	// (the eighth found programs in some named whole: corepack's package
	// managers in .cache/node, poetry's virtualenvs, uv's tool
	// environments, torch.hub's code: only their data parts are named)
	".cache/go-build", ".cache/pip", ".cache/pypoetry/cache", ".cache/pypoetry/artifacts",
	".cache/uv/wheels-v5", ".cache/uv/simple-v16", ".cache/uv/simple-v15", ".cache/uv/sdists-v9",
	".cache/uv/built-wheels-v3", ".cache/yarn", ".cache/pnpm",
	".cache/node-gyp", ".cache/ms-playwright", ".cache/puppeteer", ".cache/Cypress", ".cache/bazel",
	".cache/ccache", ".cache/sccache", ".cache/golangci-lint", ".cache/staticcheck", ".cache/gopls",
	".cache/deno", ".cache/typescript", ".cache/mypy", ".cache/ruff", ".cache/black", ".cache/pylint",
	".cache/jedi", ".cache/clangd", ".cache/electron", ".cache/electron-builder",
	".cache/zig", ".cache/huggingface/hub", ".cache/matplotlib", ".cache/fontconfig",
	".cache/mesa_shader_cache", ".cache/composer", ".cache/coursier", ".cache/JetBrains",
	".cache/google-chrome", ".cache/chromium", ".cache/mozilla", ".cache/thumbnails", ".cache/vscode-cpptools",
	".cache/prisma", ".cache/turbo", ".cache/nx", ".cache/esbuild", ".cache/bun", ".cache/buf",
	".cache/helm", ".cache/terraform", ".cache/tflint", ".cache/trivy", ".cache/shellcheck",
	// the locks and scratch the same tools keep beside their caches
	".cargo/.package-cache", ".cargo/.package-cache-mutate", ".cargo/.global-cache", ".gradle/.tmp",
	".gradle/notifications", ".gradle/kotlin", ".docker/buildx",
	// history and state files, data no program runs
	".wget-hsts", ".lesshst", ".python_history", ".node_repl_history", ".sqlite_history",
	".psql_history", ".bash_history", ".zsh_history", ".rediscli_history", ".mysql_history",
	// perf's build-id cache: hard links (or copies) of the binaries it
	// profiled, read for their symbols, never run; as configuration, its
	// links to a binary outside made every step allowed outside refused
	".debug"}

// path2 is rel below the part of the home part names ("" the home).
func path2(part, rel string) string {
	if part == "" {
		return rel
	}
	return part + "/" + rel
}

// HomeNeverWritable are places inside HomeWritable that a shell or git
// runs code from by itself (the sixth red team's notes): zsh's
// powerlevel10k instant prompt, sourced by every zsh, and pre-commit's
// hook environments, run at every commit. They stay covered.
var HomeNeverWritable = []string{".cache/p10k-", ".cache/pre-commit", ".cache/gitstatus"}

// DotCovers reports whether a path below the home (rel, relative to it)
// is covered by a DotRule on the home.
func DotCovers(rel string) bool {
	if !strings.HasPrefix(rel, ".") || rel == "." || rel == ".." || strings.HasPrefix(rel, "../") {
		return false
	}
	for _, n := range HomeNeverWritable {
		if strings.HasPrefix(rel, n) {
			return true
		}
	}
	for _, w := range HomeWritable {
		if rel == w || strings.HasPrefix(rel, w+"/") {
			return false
		}
	}
	return true
}

// Rule is one protected rule: Path for DirRule and TreeRule, Name for
// NamedRule and EndRule.
type Rule struct {
	Kind RuleKind
	Path string
	Name string
}

// Policy judges real paths: the workspace roots, the secret entries and the
// protected rules, all made real when the policy starts (G1.2-G1.4), and
// the process entries every policy holds (proc.go). It is
// pure once built; Resolve is the one place it touches a filesystem.
type Policy struct {
	fs FS
	// links keeps the walks of protected places outside the roots a
	// write's other names are looked for in (LinksProtected), as a
	// session's sandbox keeps its own (links_tops.go)
	links LinkCache
	// gateFiles are the user settings files (Places.GateFiles), as
	// written and real: a write to a directory above one is secret
	gateFiles []string
	// gateSpelled are the user settings files as written, resolved
	// again at most every gateRecheck (gateFilesNow) into gateNow
	gateSpelled []string
	gateNow     atomic.Pointer[gateResolved]
	roots       []string
	secrets     []string
	rules       []Rule
	// entries are the concrete protected and secret paths; an ancestor of
	// one is Protected.
	entries []string
	// more are protected rules that can grow during a session (the git
	// places a changed git config names: SetMoreRules), swapped whole.
	more atomic.Pointer[moreRules]
	// mounted are the secret entries' and rules' other paths in the
	// mount table (addMountNames), made again when the table changes
	// (mounts): swapped whole.
	mounted atomic.Pointer[mountedNames]
	mounts  *mountWatch
	// near is told each path before it is judged for a write (SetNear).
	near atomic.Pointer[func(path string)]
	// pathDirs are the Places' PathDirs: eukhe's PATH and what the
	// user's shells add to it.
	pathDirs []string
	// pathUnknown: a shell of the user's did not say its PATH in time
	// (Places.PathUnknown)
	pathUnknown bool
	// commands are the names of the programs in the absolute pathDirs,
	// listed at first need and again when a directory changed
	// (isCommandName, CommandList), made at first need
	commands     *CommandList
	commandsOnce sync.Once
	// linkKeep are the secret places whose files' other names are
	// eukhe's own (its state: a journal's names of workspace files), not
	// searched by ClassWrite.
	linkKeep []string
	// learned are secret entries learned during the session: the real
	// targets of symlinks that lie in a secret place, once a path was
	// resolved through one (viaClass), swapped whole under learnMu.
	learned atomic.Pointer[[]string]
	learnMu sync.Mutex
	// learnedP are the protected rules learned during the session: what
	// the links that lie in a protected place reach (learnProtected,
	// learnLinksIn: linktargets.go), swapped whole under learnMu.
	learnedP atomic.Pointer[learnedRules]
	// linkLooks are the stamps of the directories learnLinksIn looked in
	// (dirStamp), so that LearnLinks lists only those changed since
	linkLooks sync.Map
}

// learnSecret makes the real target of the symlink at v, which lies in a
// secret place, a secret entry for the rest of the session: a step that
// entered it through the link (cd ~/.ssh/keys, where keys links to a
// dotfiles directory) then judges what it names there by real path, where
// the link's Via is no longer on the way (the thirtieth red team's). The
// policy learns the targets of the links a secret directory holds when
// it is made (linkedOutOf); this is the same for a link made later.
func (p *Policy) learnSecret(v string) {
	target := Resolve(p.fs, "/", v)
	if target.Looped || target.Path == v {
		return
	}
	// a target that is or holds a root: what the link makes reachable
	// beside the workspace, each entry now (ReachBelow; the thirty-first
	// red team's ~/.ssh/keys linked to /data, which holds the workspace
	// and a key beside it); the workspace itself is judged by Via alone
	var fresh []string
	secrets := p.allSecrets()
	for _, e := range ReachBelow(namesOf(p.fs), p.roots, target.Path) {
		n := namesAt(p.fs, e)
		if !slices.ContainsFunc(secrets, func(s string) bool { return n.below(e, s) }) {
			fresh = append(fresh, e) // not a secret place already
		}
	}
	if len(fresh) == 0 {
		return
	}
	p.learnMu.Lock()
	defer p.learnMu.Unlock()
	var now []string
	if l := p.learned.Load(); l != nil {
		now = *l
	}
	next := slices.Clip(now)
	for _, e := range fresh {
		next = appendNew(next, e)
	}
	if len(next) != len(now) {
		p.learned.Store(&next)
	}
}

// SetNear has f told each real path before the policy judges a write of
// it (ClassWrite), and each directory Near is given: the edge that finds what the
// rules of the start could not know (a repository made below a root
// during the session, whose config names hooks: settings.GitWatch), and
// gives it with SetMoreRules before the judgment goes on.
func (p *Policy) SetNear(f func(path string)) { p.near.Store(&f) }

// Near tells the SetNear function of path (a directory a process found a
// .git in).
func (p *Policy) Near(path string) {
	if f := p.near.Load(); f != nil {
		(*f)(path)
	}
}

// moreRules are the rules SetMoreRules gave, with their concrete paths.
type moreRules struct {
	rules   []Rule
	entries []string
}

// SetMoreRules makes these Dir and Tree rules protected too, in addition
// to the policy's own (which never shrink), each path in its written and
// real form as NewPolicy makes them. The set replaces the last one given.
func (p *Policy) SetMoreRules(rules []Rule) {
	m := &moreRules{}
	start := newMemoFS(p.fs)
	for _, r := range rules {
		if r.Kind == NamedRule {
			continue
		}
		w := cleanAbs("/", policyPath(p.fs, r.Path))
		for _, e := range treeRuleForms(start, p.roots, r.Kind, w, Resolve(start, "/", w).Path) {
			if !slices.ContainsFunc(m.rules, func(x Rule) bool { return x.Path == e && x.Kind == r.Kind }) {
				m.rules = append(m.rules, Rule{Kind: r.Kind, Path: e})
			}
			m.entries = appendNew(m.entries, e)
		}
	}
	p.more.Store(m)
	rules, _ = p.allRules()
	p.learnLinksIn(rules)
}

// allRules are the policy's rules and the ones SetMoreRules gave, and
// their concrete paths.
func (p *Policy) allRules() ([]Rule, []string) {
	rules, entries := p.rules, p.entries
	if mn := p.mountNamesNow(); mn != nil {
		rules, entries = append(slices.Clip(rules), mn.rules...), append(slices.Clip(entries), mn.entries...)
	}
	if m := p.more.Load(); m != nil {
		rules, entries = append(slices.Clip(rules), m.rules...), append(slices.Clip(entries), m.entries...)
	}
	if l := p.learnedP.Load(); l != nil {
		rules, entries = append(slices.Clip(rules), l.rules...), append(slices.Clip(entries), l.entries...)
	}
	return rules, entries
}

// allSecrets are the secret entries, and their other paths in the mount
// table as it is now.
func (p *Policy) allSecrets() []string {
	s := p.secrets
	if mn := p.mountNamesNow(); mn != nil && len(mn.secrets) > 0 {
		s = append(slices.Clip(s), mn.secrets...)
	}
	if l := p.learned.Load(); l != nil {
		s = append(slices.Clip(s), *l...)
	}
	return s
}

// NewPolicy is a policy over fsys with these roots, secret entries and
// protected rules. Each path is made absolute and real; the written form
// is kept too, so a link made later does not hide an entry.
func NewPolicy(fsys FS, roots, secrets []string, rules []Rule) *Policy {
	return newPolicy(fsys, roots, secrets, rules, nil)
}

// newPolicy is NewPolicy knowing the PATH directories first, which the
// links it looks for depend on (a directory linked into one holds no
// command).
func newPolicy(fsys FS, roots, secrets []string, rules []Rule, pathDirs []string) *Policy {
	p := &Policy{fs: fsys, pathDirs: pathDirs}
	start := newMemoFS(fsys) // the entries resolved as one snapshot, each lookup once
	both := func(path string) []string {
		w := cleanAbs("/", policyPath(fsys, path))
		r := Resolve(start, "/", w).Path
		if r == w {
			return []string{w}
		}
		return []string{w, r}
	}
	for _, r := range roots {
		// A root is only its real path: a written form through a link
		// would make the link's other side Inside.
		p.roots = appendNew(p.roots, Resolve(start, "/", cleanAbs("/", policyPath(fsys, r))).Path)
	}
	secrets = append(slices.Clip(secrets), linkedOutOf(fsys, secrets)...)
	for _, s := range append(append([]string(nil), procEntries...), secrets...) {
		for _, e := range both(s) {
			p.secrets = appendNew(p.secrets, e)
			p.entries = appendNew(p.entries, e)
		}
	}
	for _, r := range rules {
		if r.Kind == NamedRule || r.Kind == EndRule {
			p.rules = append(p.rules, r)
			continue
		}
		w := cleanAbs("/", policyPath(fsys, r.Path))
		for _, e := range treeRuleForms(start, p.roots, r.Kind, w, Resolve(start, "/", w).Path) {
			p.rules = append(p.rules, Rule{Kind: r.Kind, Path: e, Name: r.Name})
			if r.Kind != DotRule {
				p.entries = appendNew(p.entries, e)
			}
		}
		if r.Kind == DotRule && r.Name == "" {
			p.rules = append(p.rules, linkedDots(fsys, start, cleanAbs("/", policyPath(fsys, r.Path)), p.roots, p.pathDirs)...)
		}
	}
	if fsys == OS {
		p.mounts = newMountWatch() // before the table is read: a mount in between is seen
		p.addMountNames(mountTable())
	}
	p.learnLinksIn(p.rules)
	return p
}

// mountedNames are the other paths the mount table shows the policy's
// secret entries and rules at.
type mountedNames struct {
	secrets, entries []string
	rules            []Rule
	// table is the mount table they were made from; gateFiles the user
	// settings files' other paths in it, made at first use (the policy
	// learns its settings files after the table is first read)
	table     []mount
	gateOnce  sync.Once
	gateFiles []string
}

// addMountNames gives each secret entry and each protected rule with a
// path the other paths the mount table shows it at (mounts.go): a secret
// entry's other path, or the other path of a part of it, is secret; a
// tree's is the tree; a dot-rule's is the same part of the home (Name);
// a directory rule's other path, not its parts' (it covers only the
// entries directly in it). The names replace those of an earlier table.
func (p *Policy) addMountNames(mounts []mount) {
	mn := &mountedNames{table: mounts}
	if len(mounts) >= 2 {
		for _, s := range p.allSecrets() {
			for _, n := range placeMountNames(mounts, s, true) {
				if !slices.Contains(p.secrets, n.Path) {
					mn.secrets = appendNew(mn.secrets, n.Path)
				}
				mn.entries = appendNew(mn.entries, n.Path)
			}
		}
		for _, r := range p.rules {
			if r.Kind == NamedRule || r.Kind == EndRule {
				continue
			}
			for _, n := range placeMountNames(mounts, r.Path, r.Kind != DirRule) {
				switch {
				case r.Kind == DotRule:
					mn.rules = append(mn.rules, Rule{Kind: DotRule, Path: n.Path, Name: relJoin(r.Name, n.Rel)})
				case r.Kind == TreeRule || n.Rel == "":
					mn.rules = append(mn.rules, Rule{Kind: r.Kind, Path: n.Path, Name: r.Name})
					mn.entries = appendNew(mn.entries, n.Path)
				}
			}
		}
	}
	p.mounted.Store(mn)
}

// gateFileMountNames are the user settings files' other paths in the
// mount table as it is now: the home bound at a second path, or
// ~/.config/eukhe bound into the workspace, shows the settings file
// there too, and a step that makes it there makes the file eukhe reads
// (the fifteenth red team's).
func (p *Policy) gateFileMountNames() []string {
	mn := p.mountNamesNow()
	if mn == nil || len(mn.table) < 2 || len(p.gateFiles) == 0 {
		return nil
	}
	mn.gateOnce.Do(func() {
		for _, f := range p.gateFiles {
			for _, n := range placeMountNames(mn.table, f, false) {
				if n.Rel == "" && !slices.Contains(p.gateFiles, n.Path) {
					mn.gateFiles = appendNew(mn.gateFiles, n.Path)
				}
			}
		}
	})
	return mn.gateFiles
}

// mountNamesNow are the mount names, made again first when the mount
// table changed since they were made.
func (p *Policy) mountNamesNow() *mountedNames {
	if mounts, ok := p.mounts.changed(); ok {
		p.addMountNames(mounts)
	}
	return p.mounted.Load()
}

// linkedDots are DotRules for the home's configuration reached through a
// link to a directory elsewhere (~/.cache -> /scratch/me/cache,
// ~/.local/share/nvim -> /data/nvim): a path through one resolves out of
// the home, so the link's real directory is covered as that part of the
// home, as a part MovedHomes names is (the seventh and eighth red teams').
// The covered dot-directories are looked into level by level (every
// entry at one depth before any deeper: the bound cuts the deepest
// first), maxLinkedDotsDepth levels, at most maxLinkedDotsLook entries,
// when the policy is made (the file system must list: InodeFS, the OS).
// Four levels were too few: a dotfiles manager links
// ~/.local/share/nvim/site/pack/mine, six down (the tenth red team's);
// ten cost a third of a second at each policy's making on a developer's
// home (its caches fill the bound), so six.
func linkedDots(fsys FS, start FS, home string, roots, pathDirs []string) []Rule {
	lister, ok := fsys.(InodeFS)
	if !ok {
		return nil
	}
	var rs []Rule
	budget := maxLinkedDotsLook
	// extra is how many levels past maxLinkedDotsDepth a directory's
	// entries are looked at: a Vim or Neovim package directory (pack)
	// holds its plugins three levels down (pack/NAME/start/PLUGIN), and
	// Neovim's own is at ~/.local/share/nvim/site/pack, so a plugin linked
	// as eukhe's README says is eight parts below the home (the fifteenth
	// red team's)
	type level struct {
		dir, rel string
		extra    int
	}
	next := []level{{home, "", 0}}
	for depth := 0; len(next) > 0 && budget > 0; depth++ {
		this := next
		next = nil
		for _, l := range this {
			if depth > maxLinkedDotsDepth+l.extra {
				continue
			}
			names, kinds, err := namesKinds(lister, l.dir)
			if err != nil {
				continue
			}
			files := 0
			for i, n := range names {
				if kinds[i] == KindFile {
					// no link and no directory: it costs only its share
					// of the listing (a shallow directory of many files,
					// ~/.vscode's extensions, spent the whole budget
					// before the link five levels down: the fourteenth
					// red team's)
					if files++; files%linkedDotsFilesPerLook == 0 {
						budget--
					}
					continue
				}
				r := path2(l.rel, n)
				if l.rel == "" && (!strings.HasPrefix(n, ".") || n == "." || n == "..") || !DotCovers(r) && !writableBelow(r) {
					// not configuration: skipped at a file's cost (the
					// agent's 20,001 directories made in the home spent
					// the budget: the sixteenth red team's)
					if files++; files%linkedDotsFilesPerLook == 0 {
						budget--
					}
					continue
				}
				if budget--; budget < 0 {
					break
				}
				p := filepath.Join(l.dir, n)
				kind := kinds[i]
				if kind == KindMissing {
					kind = start.Kind(p)
				}
				switch kind {
				case KindLink:
					real := Resolve(start, "/", p).Path
					if slices.Contains(pathDirs, l.dir) && start.Kind(real) == KindDir {
						// PATH runs a PATH directory's own entries only:
						// a directory linked into one holds no command
						continue
					}
					if real != p && real != "/" && DotCovers(r) {
						// a target that is or holds a root: what the
						// link reaches beside the workspace (ReachBelow)
						for _, e := range append(ReachBelow(lister.Names, roots, real), reachLoads(roots, real, dotLoads[r])...) {
							rel := ""
							if e != real {
								rel = strings.TrimPrefix(e, real+"/")
							}
							rs = append(rs, Rule{Kind: DotRule, Path: e, Name: relJoin(r, rel)})
						}
					}
				case KindDir:
					extra := l.extra
					if n == "pack" {
						extra = max(extra, depth+packDepth-maxLinkedDotsDepth)
					}
					next = append(next, level{p, r, extra})
				}
			}
		}
	}
	return rs
}

// maxLinkedDotsDepth bounds how deep below the home linkedDots looks:
// the entries of six levels.
const maxLinkedDotsDepth = 5

// maxLinkedDotsLook bounds the entries linkedDots looks at: each
// directory or link, and each linkedDotsFilesPerLook other entries a
// directory lists (the file system says their kind: they are listed, not
// looked at).
const maxLinkedDotsLook = 20000

const linkedDotsFilesPerLook = 16

// packDepth is how many levels below a package directory (pack) its
// plugins are: pack/NAME/start/PLUGIN.
const packDepth = 3

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// Roots are the real workspace roots.
func (p *Policy) Roots() []string { return append([]string(nil), p.roots...) }

// PathDirs are the PATH directories the policy protects (Places.PathDirs):
// eukhe's own PATH and the entries the user's shells add to it.
func (p *Policy) PathDirs() []string { return append([]string(nil), p.pathDirs...) }

// Resolve is the real path of path relative to the absolute directory dir.
// A symlink on the way that lies in a secret place has its target learned
// as a secret entry (learnSecret): a cd through it leaves the step in a
// directory whose paths no longer pass the link.
func (p *Policy) Resolve(dir, path string) RealPath {
	r := Resolve(p.fs, dir, path)
	for _, v := range r.Via {
		if p.classOf(RealPath{Path: v}, false) == ClassSecret {
			p.learnSecret(v)
		} else if p.protectsByRule(v, namesAt(p.fs, v)) {
			p.learnProtected(v) // the same for a protected place
		}
	}
	return r
}

// ResolveLink is Resolve for a path a command acts on as a link when it
// is one, as lstat does (rm, unlink, mv's sources, a link ln -n
// replaces): a symlink as its last part is the link itself, not
// followed; every part above it is followed as Resolve follows it. A
// path whose last part is "", "." or ".." (a trailing slash makes rm go
// into a link), or names no link, is Resolve's; so is every path on a
// Windows volume (its last link followed: judged by its target, which
// only asks more).
func (p *Policy) ResolveLink(dir, path string) RealPath {
	if wn, ok := p.fs.(WindowsNamer); ok && wn.WindowsNames() {
		return p.Resolve(dir, path)
	}
	i := strings.LastIndexByte(path, '/')
	last := path[i+1:]
	if last == "" || last == "." || last == ".." {
		return p.Resolve(dir, path)
	}
	parent := "."
	if i == 0 {
		parent = "/"
	} else if i > 0 {
		parent = path[:i]
	}
	pr := p.Resolve(dir, parent)
	if pr.Looped || pr.Problem != "" || pr.Spelled != "" {
		return p.Resolve(dir, path)
	}
	link := pr.Path + "/" + last
	if pr.Path == "/" {
		link = "/" + last
	}
	if p.fs.Kind(link) != KindLink {
		return p.Resolve(dir, path)
	}
	return RealPath{Path: link, Via: pr.Via}
}

// Class is the class of a resolved path (G1.2). A looped path is never
// Inside. The path's parts are compared with the secret entries and the
// protected rules as its volume compares names (namesAt: case-folded
// where it folds; a Windows short name as any name it could be), and a
// path Resolve could not place (RealPath.Problem: a Windows device name,
// a drive-relative path) is never Inside: a device is Protected, any
// other Secret (it may name anything). A path with a final path that is
// not its spelling (RealPath.Spelled: finalname.go) is classed by its
// final path, and Secret or Protected when its spelling is
// (ClassOfIdentity). A path resolved through a symlink that lies in a
// secret or protected place is that place's entry, whatever the link's
// target (RealPath.Via, ClassOfIdentity): ~/.ssh/config linked out to a
// dotfiles repository, read as L/config where L links to ~/.ssh, is the
// store's file; a policy knows the targets of the links a secret
// directory holds when it is made (linkedOutOf), and a link made later
// is judged here by where the walk found it.
func (p *Policy) Class(r RealPath) Class { return p.classAs(r, true) }

// classAs is Class, with the protected rules asked or not (a read's
// effects do not depend on them: readClass).
func (p *Policy) classAs(r RealPath, protected bool) Class {
	c := p.classOf(r, protected)
	if r.Spelled != "" {
		c = ClassOfIdentity(p.classOf(RealPath{Path: r.Spelled, Looped: r.Looped}, protected), c)
	}
	for _, v := range r.Via {
		if c == ClassSecret {
			break
		}
		c = ClassOfIdentity(p.viaClass(v, protected), c)
	}
	return c
}

// viaClass is the class a symlink at the real path v gives the paths
// resolved through it: Secret when it lies in a secret place (its
// target is then learned as a secret entry: learnSecret), Protected when
// a protected rule covers it; a link above a protected entry (a
// workspace reached through its link, whose .git is an entry) gives
// nothing, as a path above a protected place is no entry of it.
func (p *Policy) viaClass(v string, protected bool) Class {
	c := p.classOf(RealPath{Path: v}, false)
	if c == ClassSecret {
		p.learnSecret(v)
		return c
	}
	if protected && p.protectsByRule(v, namesAt(p.fs, v)) {
		p.learnProtected(v)
		return ClassProtected
	}
	return c
}

// classOf is Class of r.Path alone; a protected path is Inside or
// Outside by where it is when protected is false.
func (p *Policy) classOf(r RealPath, protected bool) Class {
	path := r.Path
	if r.Problem != "" {
		if r.Problem == ProblemDevice {
			return ClassProtected
		}
		return ClassSecret
	}
	if procExempt(path) {
		return ClassOutside
	}
	n := namesAt(p.fs, path)
	for _, s := range p.allSecrets() {
		if n.below(path, s) {
			return ClassSecret
		}
	}
	for _, g := range p.gateFilesNow() {
		if n.below(path, g) {
			return ClassSecret
		}
	}
	if anyEukheOwn(n, path) {
		// another eukhe's settings file, logins, transcripts or
		// journals: one started where XDG_CONFIG_HOME or XDG_STATE_HOME
		// names another directory (a terminal whose ~/.bashrc sets it,
		// an editor started from the desktop) keeps them there (the
		// fourteenth and fifteenth red teams')
		return ClassSecret
	}
	if protected && p.protectsAs(path, n) {
		return ClassProtected
	}
	if !r.Looped {
		for _, root := range p.roots {
			if under(path, root) {
				return ClassInside
			}
		}
	}
	return ClassOutside
}

// HoldsSecret reports whether the path is a secret entry, is under one, or
// holds one below it (a search or listing of it can reach a secret).
func (p *Policy) HoldsSecret(r RealPath) bool {
	if r.Problem != "" && r.Problem != ProblemDevice {
		return true
	}
	if r.Spelled != "" && p.HoldsSecret(RealPath{Path: r.Spelled}) {
		return true
	}
	for _, v := range r.Via {
		if p.classOf(RealPath{Path: v}, false) == ClassSecret {
			return true // reached through a link in a secret place
		}
	}
	if procExempt(r.Path) {
		return false
	}
	n := namesAt(p.fs, r.Path)
	for _, s := range p.allSecrets() {
		if n.below(r.Path, s) || n.above(r.Path, s) {
			return true
		}
	}
	return false
}

// CwdReach is how much of a directory a step that reads it sees: all of it,
// its entries only (ls without -R), or all but its .git (git's work-tree
// readers: ls-files, grep).
type CwdReach uint8

const (
	CwdAll CwdReach = iota
	CwdEntries
	CwdWorkTree
)

// HoldsSecretIn is HoldsSecret for a step that reads the directory r as
// reach says (red team): a root whose .git/config holds a token
// (Places.CredentialFiles) holds a secret, yet ls lists only its
// entries' names and git ls-files never reads its .git.
func (p *Policy) HoldsSecretIn(r RealPath, reach CwdReach) bool {
	if r.Problem != "" && r.Problem != ProblemDevice {
		return true
	}
	if r.Spelled != "" && p.HoldsSecretIn(RealPath{Path: r.Spelled}, reach) {
		return true
	}
	if procExempt(r.Path) {
		return false
	}
	n := namesAt(p.fs, r.Path)
	for _, s := range p.allSecrets() {
		switch {
		case n.below(r.Path, s):
			return true
		case !n.above(r.Path, s):
		case reach == CwdEntries && !n.same(r.Path, s) && !n.same(r.Path, parentOf(s)):
		case reach == CwdWorkTree && n.above(r.Path+"/.git", s):
		default:
			return true
		}
	}
	return false
}

// protects reports whether a protected rule covers path, or path is an
// ancestor of a protected or secret entry, each part compared exactly.
func (p *Policy) protects(path string) bool { return p.protectsAs(path, names{}) }

// protectsAs is protects with path's parts compared as n says.
func (p *Policy) protectsAs(path string, n names) bool {
	if p.protectsByRule(path, n) {
		return true
	}
	_, entries := p.allRules()
	for _, e := range entries {
		if n.exact() && e != path && under(e, path) || !n.exact() && !n.same(path, e) && n.above(path, e) {
			return true
		}
	}
	return false
}

// protectsByRule is protectsAs by the rules alone: a path a rule covers,
// never one only above a protected entry.
func (p *Policy) protectsByRule(path string, n names) bool {
	rules, _ := p.allRules()
	below := "" // belowRoot(path), once a named rule needs it
	for _, r := range rules {
		switch r.Kind {
		case DirRule:
			if n.same(path, r.Path) || n.same(parentOf(path), r.Path) {
				return true
			}
		case TreeRule:
			if n.below(path, r.Path) {
				return true
			}
		case NamedRule:
			if below == "" {
				below = p.belowRoot(path)
			}
			if hasPart(below, r.Name, n) {
				return true
			}
		case DotRule:
			if rest, ok := n.cut(path, r.Path); ok && n.dotCovers(r.Name, rest) || r.Name != "" && n.same(path, r.Path) {
				return true
			}
		case EndRule:
			if r.Name != "" && (n.endsWith(path, r.Name) || n.endsWith(parentOf(path), r.Name)) {
				return true
			}
			if r.Name == "" && p.isCommandName(filepath.Base(path), n) {
				// every directory may be on PATH ("." or an empty entry,
				// or a shell that did not say its PATH in time): a file
				// named like a command is one the user's shell may run
				// wherever it is (the fifteenth red team's tools/ls)
				return true
			}
		}
	}
	return false
}

// belowRoot is the part of path below the deepest root that holds it, or
// the whole path.
func (p *Policy) belowRoot(path string) string {
	best := ""
	for _, root := range p.roots {
		if under(path, root) && len(root) > len(best) {
			best = root
		}
	}
	if best == "" {
		return path
	}
	return strings.TrimPrefix(path, best)
}

// isCommandName tells whether name is the name of an entry of an
// absolute PATH directory of the policy (a command the user's shell
// finds by name), compared as n compares names (folded as the gate folds
// them: the long s is an s). The directories are listed at first need,
// and again when one changed (a command installed during the session:
// the seventeenth red team's), which costs a stat of each at most every
// commandsFresh where every directory may be on PATH: the policy's
// CommandList, the one list of the commands the sandbox's PATH shadow
// keeps too.
func (p *Policy) isCommandName(name string, n names) bool {
	list := commandNamesOf(p.fs)
	if list == nil {
		return false
	}
	p.commandsOnce.Do(func() { p.commands = newCommandList(p.pathDirs, list) })
	return p.commands.Is(name, !n.exact(), commandsFresh)
}

// commandNamesOf is how fsys lists a PATH directory for isCommandName:
// a commandLister's own listing (the OS on Windows, whose InodeFS lists
// nothing: it keeps no inodes), else an InodeFS's Names; nil when fsys
// can list no directory.
func commandNamesOf(fsys FS) func(string) ([]string, error) {
	if c, ok := fsys.(commandLister); ok {
		return c.CommandNames
	}
	if lister, ok := fsys.(InodeFS); ok {
		return lister.Names
	}
	return nil
}

// commandLister is an FS that lists a PATH directory's commands another
// way than its InodeFS's Names (commandNamesOf).
type commandLister interface {
	CommandNames(dir string) ([]string, error)
}

// commandsFresh is how long a look at the PATH directories' change
// times stands for isCommandName: a name that is a command is known at
// once, one that is not costs a stat of each directory at most this
// often (it was every judgment: a read's path judged as a write too).
const commandsFresh = 100 * time.Millisecond

// PathUnknown tells whether a shell of the user's did not say its PATH
// in time (Places.PathUnknown): any directory may be on it.
func (p *Policy) PathUnknown() bool { return p.pathUnknown }

func parentOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i <= 0 {
		return "/"
	}
	return path[:i]
}

// hasPart reports whether a part of path is name as n compares them; it
// allocates nothing (every read judges its path against each named rule).
func hasPart(path, name string, n names) bool {
	for path != "" {
		var c string
		c, path, _ = strings.Cut(path, "/")
		if c != "" && n.name(c, name) {
			return true
		}
	}
	return false
}

// MatchesName reports whether an entry's name is a protected name: the
// same, or, for a name written "*SUFFIX" (*.code-workspace), one ending
// in SUFFIX.
func MatchesName(entry, name string) bool {
	if suffix, ok := strings.CutPrefix(name, "*"); ok {
		return len(entry) > len(suffix) && strings.HasSuffix(entry, suffix)
	}
	return entry == name
}

// NameIn reports whether an entry's name is one of the protected names.
func NameIn(names []string, entry string) bool {
	for _, n := range names {
		if MatchesName(entry, n) {
			return true
		}
	}
	return false
}
