package gate

import (
	"slices"
	"strings"
)

// The targets of the links that lie in protected places (the
// thirty-first red team's): a link in a protected place passes its class
// to the paths resolved through it (RealPath.Via, viaClass), but the
// target named by its own path has no Via. A repository's .git/hooks
// linked to ../githooks, or one hook linked to scripts/pre-commit.sh,
// makes githooks/pre-commit a hook git runs; ~/.config/nvim linked to
// the workspace's nvim2 makes nvim2/init.lua Neovim's init. So the real
// target of such a link is a protected entry of the policy:
//
//   - found when the policy is made, and again whenever SetMoreRules
//     gives the git places anew (settings.GitWatch stamps every hooks
//     directory, so a hook linked during the session gives it): the
//     links directly in each Tree rule's place and in its hooks
//     directory (learnLinksIn);
//   - learned on the way, as learnSecret is for secret places: a path
//     resolved through such a link has the link's target learned for the
//     rest of the session (learnProtected), and the links after it on the
//     way are protected by their own paths (re-pointing one would move
//     what the protected link reaches);
//   - the home's dot-links, as linkedDots finds them when the policy is
//     made, each named as that part of the home (a DotRule).
//
// A target that is or holds a workspace root is never protected whole
// (the whole workspace would ask): only what the link makes reachable
// beside the workspace is (ReachBelow), and the git hook names directly
// in the target (a hooks directory linked to the root itself runs
// ./pre-commit). A target that is the file system's root gives nothing:
// its paths are judged by Via alone (Wine's dosdevices/z: links there).

// GitHookNames are the hooks git runs by name from a hooks directory.
var GitHookNames = []string{"applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit",
	"pre-merge-commit", "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase",
	"post-checkout", "post-merge", "pre-push", "pre-receive", "update", "proc-receive",
	"post-receive", "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
	"post-rewrite", "sendemail-validate", "fsmonitor-watchman", "p4-changelist",
	"p4-prepare-changelist", "p4-post-changelist", "p4-pre-submit", "post-index-change"}

// maxReach bounds the entries ReachBelow gives for a target above a
// root; past it the rest of the target is judged by Via alone.
const maxReach = 4096

// ReachBelow are the paths a link to target makes reachable that a
// policy with these roots (real paths) can hold as entries without
// holding a root whole: the target itself when it neither is nor holds
// a root; when it holds one, each entry of each directory from the target
// down to the root's parent but the ones on the way to a root (listed
// with names now, at most maxReach); none when it is a root (the caller
// adds the hook names: reachHooks). The file system's root gives none.
func ReachBelow(names func(dir string) ([]string, error), roots []string, target string) []string {
	if target == "/" || target == "" {
		return nil
	}
	holds := func(p string) bool {
		return slices.ContainsFunc(roots, func(r string) bool { return under(r, p) })
	}
	if !holds(target) {
		return []string{target}
	}
	if names == nil {
		return nil
	}
	var out []string
	for next := []string{target}; len(next) > 0 && len(out) < maxReach; {
		d := next[0]
		next = next[1:]
		if slices.Contains(roots, d) {
			continue
		}
		list, err := names(d)
		if err != nil {
			continue
		}
		for _, n := range list {
			e := joinMount(d, n)
			switch {
			case slices.Contains(roots, e):
			case holds(e):
				next = append(next, e)
			default:
				out = append(out, e)
			}
			if len(out) >= maxReach {
				break
			}
		}
	}
	return out
}

// reachHooks are the git hook names directly in target, when target is
// or holds a root (ReachBelow gave no more of it than its entries that
// exist now): a hooks directory linked to the workspace root runs its
// ./pre-commit.
func reachHooks(roots []string, target string) []string {
	return reachLoads(roots, target, GitHookNames)
}

// reachLoads are the names of loads directly in target, when target is
// or holds a root (ReachBelow gave no more of it than its entries that
// exist now): what the program that reads the link's place loads from it
// (a hooks directory's hooks, an editor's init and plugin directories).
func reachLoads(roots []string, target string, loads []string) []string {
	if target == "/" || len(loads) == 0 || !slices.ContainsFunc(roots, func(r string) bool { return under(r, target) }) {
		return nil
	}
	var out []string
	for _, h := range loads {
		if e := joinMount(target, h); !slices.Contains(roots, e) {
			out = append(out, e)
		}
	}
	return out
}

// linkLoads are what a program loads from the place of a link at v
// that lies in a protected place, as reachLoads gives them for a target
// that is or holds a root: a hooks directory's hooks (v is .git/hooks or
// a hooks path), a known dot-directory's loads (dotLoads, by the part of
// the home dot names v as), else none (a link in a PATH directory, or a
// dot-directory no table knows, to the workspace root: a write of its
// ./update is no hook's; the thirty-second red team's).
func linkLoads(v, dot string, isDot bool) []string {
	if isDot {
		return dotLoads[dot]
	}
	if lastPart(v) == "hooks" {
		return GitHookNames
	}
	return nil
}

// dotLoads are the entries a program loads code or settings from, by
// the home-relative name of its configuration directory: a workspace
// that is that directory (~/.config/nvim linked to the dotfiles
// repository the agent works on) keeps these protected, not the rest
// of it (the thirty-second red team's: init.lua was plain).
var dotLoads = map[string][]string{
	".config/nvim":  nvimLoads,
	".vim":          vimLoads,
	".config/vim":   vimLoads,
	".emacs.d":      emacsLoads,
	".config/emacs": emacsLoads,
	".config/fish":  {"config.fish", "conf.d", "functions", "completions", "fish_variables"},
	".config/helix": {"config.toml", "languages.toml", "runtime", "themes"},
	".config/git":   {"config", "attributes", "ignore", "hooks"},
	".oh-my-zsh":    {"oh-my-zsh.sh", "custom", "plugins", "themes", "lib", "tools"},
	".config/zsh":   {".zshrc", ".zshenv", ".zprofile", ".zlogin", ".zlogout"},
	// the thirty-fourth red team's: startup code by its own path
	".ipython":       {"profile_default", "extensions"},
	".jupyter":       {"jupyter_notebook_config.py", "jupyter_server_config.py", "jupyter_lab_config.py", "custom", "nbconfig"},
	".config/direnv": {"direnvrc", "direnv.toml", "config.toml", "lib"},
	".config/tmux":   {"tmux.conf", "plugins"},
	".tmux":          {"plugins"},
	".bash_it":       {"bash_it.sh", "custom", "enabled", "plugins", "aliases", "completion", "lib", "themes"},
}

var (
	nvimLoads = []string{"init.lua", "init.vim", "lua", "plugin", "after", "ftplugin", "ftdetect",
		"indent", "syntax", "colors", "autoload", "pack", "queries", "compiler", "keymap", "lsp",
		"rplugin", "spell", "parser"}
	vimLoads = []string{"vimrc", "gvimrc", "plugin", "after", "autoload", "ftplugin", "ftdetect",
		"indent", "syntax", "colors", "pack", "compiler", "keymap", "spell"}
	emacsLoads = []string{"init.el", "early-init.el", "init.elc", "early-init.elc", "custom.el",
		"lisp", "site-lisp", "elpa", "straight", "eln-cache"}
)

// namesOf is fsys's directory listing, nil when it lists none.
func namesOf(fsys FS) func(string) ([]string, error) {
	if l, ok := fsys.(InodeFS); ok {
		return l.Names
	}
	return nil
}

// learnedRules are the protected rules learned during the session
// (learnProtected), with their concrete paths; never shrinking.
type learnedRules struct {
	rules   []Rule
	entries []string
	// targets are the links learned and the target each had
	targets map[string]string
}

// learnProtected makes what the symlink at v, which lies in a protected
// place (protectsByRule), reaches a protected entry for the rest of the
// session: its real target (ReachBelow, and reachHooks), named as the
// same part of the home when a DotRule covers v, and each link after v on
// the way, by its own path. A link whose target did not change since it
// was last learned costs a resolution.
func (p *Policy) learnProtected(v string) {
	target := Resolve(p.fs, "/", v)
	if target.Looped || target.Path == v {
		return
	}
	if l := p.learnedP.Load(); l != nil && l.targets[v] == target.Path {
		return
	}
	dot, isDot := p.dotName(v)
	reach := append(ReachBelow(namesOf(p.fs), p.roots, target.Path), reachLoads(p.roots, target.Path, linkLoads(v, dot, isDot))...)
	if !isDot && slices.Contains(p.pathDirs, parentOf(v)) && p.fs.Kind(target.Path) == KindDir {
		// PATH runs a PATH directory's own entries only: a directory
		// linked into one is no program, and what it holds is no
		// command (the link itself stays protected by its place; the
		// thirty-second red team's: every note in scripts/ asked)
		reach = nil
	}
	var rs []Rule
	for _, e := range reach {
		if isDot {
			rel := ""
			if e != target.Path {
				rel = strings.TrimPrefix(e, strings.TrimSuffix(target.Path, "/")+"/")
			}
			rs = append(rs, Rule{Kind: DotRule, Path: e, Name: relJoin(dot, rel)})
			continue
		}
		rs = append(rs, Rule{Kind: TreeRule, Path: e})
	}
	for _, w := range target.Via {
		// a link after v on the way, by its own path (a real path never
		// passes a link, so the rule covers the link alone): re-pointing
		// it moves what v reaches
		if w != v && !slices.ContainsFunc(p.roots, func(r string) bool { return under(r, w) }) {
			rs = append(rs, Rule{Kind: TreeRule, Path: w})
		}
	}
	p.learnMu.Lock()
	defer p.learnMu.Unlock()
	now := p.learnedP.Load()
	next := &learnedRules{targets: map[string]string{v: target.Path}}
	if now != nil {
		next.rules, next.entries = slices.Clip(now.rules), slices.Clip(now.entries)
		for k, t := range now.targets {
			if k != v {
				next.targets[k] = t
			}
		}
	}
	for _, r := range rs {
		if slices.Contains(next.rules, r) {
			continue
		}
		next.rules = append(next.rules, r)
		if r.Kind != DotRule {
			next.entries = appendNew(next.entries, r.Path)
		}
	}
	p.learnedP.Store(next)
}

// dotName is the part of the home a DotRule names v as (".config/nvim"),
// when one covers it.
func (p *Policy) dotName(v string) (string, bool) {
	rules, _ := p.allRules()
	n := namesAt(p.fs, v)
	for _, r := range rules {
		if r.Kind != DotRule {
			continue
		}
		if rest, ok := n.cut(v, r.Path); ok && n.dotCovers(r.Name, rest) {
			return relJoin(r.Name, rest), true
		}
	}
	return "", false
}

// learnLinksIn learns (learnProtected) the links directly in each Tree
// rule's place and in the hooks directory there (a repository's
// .git/hooks, its entries; a core.hooksPath's entries), at most
// maxLinksIn entries looked at. A place that is a link itself is its
// rule's real form already (NewPolicy, SetMoreRules).
func (p *Policy) learnLinksIn(rules []Rule) { p.learnLinksChanged(rules, false) }

// learnLinksChanged is learnLinksIn; with changedOnly, a directory whose
// stamp (its identity and change time: a link made or removed in it
// changes it) is the one it had when last looked in is not listed again.
func (p *Policy) learnLinksChanged(rules []Rule, changedOnly bool) {
	lister, ok := p.fs.(InodeFS)
	if !ok {
		return
	}
	budget := maxLinksIn
	look := func(dir string) {
		if p.fs == OS {
			now := dirStampOf(dir)
			if was, ok := p.linkLooks.Load(dir); changedOnly && ok && now != (dirStamp{}) && was.(dirStamp) == now {
				return
			}
			p.linkLooks.Store(dir, now)
		}
		names, kinds, err := namesKinds(lister, dir)
		if err != nil {
			return
		}
		for i, n := range names {
			if budget--; budget < 0 {
				return
			}
			e := joinMount(dir, n)
			if k := kinds[i]; k == KindLink || k == KindMissing && p.fs.Kind(e) == KindLink {
				p.learnProtected(e)
			}
		}
	}
	for _, r := range rules {
		if r.Kind != TreeRule || budget <= 0 || p.fs.Kind(r.Path) != KindDir {
			continue
		}
		look(r.Path)
		if h := joinMount(r.Path, "hooks"); p.fs.Kind(h) == KindDir {
			look(h)
		}
	}
}

// LearnLinks looks again for the links in the protected places
// (learnLinksIn over every rule, the learned ones too), as a refresh
// does: a process allowed protected may have made one (`ln -s
// ../../scripts/pc.sh .git/hooks/pre-commit`), and the next step that
// writes its target by its own path is writing a hook (the
// thirty-second red team's). Its caller calls it once such a process
// ended.
//
// It lists only the places changed since they were last looked in: it
// runs after every such process, and under the default auto set that is
// every process.
func (p *Policy) LearnLinks() {
	rules, _ := p.allRules()
	p.learnLinksChanged(rules, true)
}

// maxLinksIn bounds the entries learnLinksIn looks at, each time.
const maxLinksIn = 20000

// treeRuleForms are the rules a Tree rule at written path w with real
// path r stands for: both, but when the real path is reached through a
// link and is or holds a root, only what the link makes reachable
// beside the workspace (ReachBelow, reachHooks).
func treeRuleForms(fsys FS, roots []string, kind RuleKind, w, r string) []string {
	if r == w || kind != TreeRule {
		if r == w {
			return []string{w}
		}
		return []string{w, r}
	}
	if !slices.ContainsFunc(roots, func(x string) bool { return under(x, r) }) {
		return []string{w, r}
	}
	return append(append([]string{w}, ReachBelow(namesOf(fsys), roots, r)...), reachHooks(roots, r)...)
}
