package settings

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/eukhe/eukhe/gate"
)

// GitPlaces are the places outside a root's .git where git finds what it
// runs for the roots (the third red team), each protected like .git:
//
//   - the real git directory of a root whose .git is a file (a linked
//     worktree, a repository made with --separate-git-dir), and its
//     common directory (the main repository's .git): their hooks and
//     config are the root's;
//   - the user's git config (~/.gitconfig, $XDG_CONFIG_HOME/git);
//   - every file those configs and the roots' include (include.path,
//     includeIf.*.path, followed as git follows them), whatever its
//     condition;
//   - every core.hooksPath they name (relative: in each root's work tree,
//     where the hooks run: the root, or the directory above it whose .git
//     git finds, whose git directory is protected too).
//
// They are read once, as the places are gathered; a config the user
// changes later is read at the next session. A file that cannot be read
// or is larger than 1 MiB adds nothing of its own.
func GitPlaces(roots []string, home string, env map[string]string) []string {
	places, _, _ := gitPlacesRead(roots, home, env, nil)
	return places
}

// gitPlacesRead is GitPlaces, with the repositories of extra (found
// since) among those below the roots, and every file it read or looked
// for, and the work trees whose config it read.
func gitPlacesRead(roots []string, home string, env map[string]string, extra []string) (places, read, trees []string) {
	g := gitPlaces{home: home, seen: map[string]bool{}}
	// Each root's work tree: the root, or the directory above it that
	// holds the .git git finds from it (a package of a monorepo: the
	// fourth red team's); a relative core.hooksPath is taken there.
	var tops []string
	for _, r := range roots {
		top := workTree(r)
		for d := r; ; d = filepath.Dir(d) {
			g.seen[filepath.Join(d, ".git")] = true // a .git made there later changes the places
			if d == top || d == filepath.Dir(d) {
				break
			}
		}
		if !slices.Contains(tops, top) {
			tops = append(tops, top)
		}
	}
	xdg := env["XDG_CONFIG_HOME"]
	if !filepath.IsAbs(xdg) && home != "" {
		xdg = filepath.Join(home, ".config")
	}
	var user []string
	if home != "" {
		user = append(user, filepath.Join(home, ".gitconfig"))
	}
	if filepath.IsAbs(xdg) {
		user = append(user, filepath.Join(xdg, "git", "config"))
		g.add(filepath.Join(xdg, "git"))
	}
	// the environment's: the global and system files it names instead
	// (GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM, the older GIT_CONFIG), and the
	// git directory it names for every repository (GIT_DIR,
	// GIT_COMMON_DIR) — the fourth red team's
	for _, k := range []string{"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM", "GIT_CONFIG"} {
		if v := g.tilde(env[k]); filepath.IsAbs(v) && v != "/dev/null" {
			user = append(user, v)
		}
	}
	for _, f := range user {
		g.add(f)
		g.config(f, tops, 0)
	}
	g.envConfig(env, tops)
	for _, k := range []string{"GIT_DIR", "GIT_COMMON_DIR"} {
		if v := g.tilde(env[k]); v != "" {
			for _, r := range roots {
				if !filepath.IsAbs(v) {
					v = filepath.Join(r, v)
				}
				g.add(v)
				g.config(filepath.Join(v, "config"), tops, 0)
			}
		}
	}
	// the repositories below the roots (a nested clone, a vendored one):
	// their own config names hooks and includes too (fourth red team)
	for _, n := range append(nestedRepos(roots, maxNestedWalk), extra...) {
		if !slices.Contains(tops, n) {
			tops = append(tops, n)
		}
	}
	for _, top := range tops {
		gitdir, common := gitDirs(top)
		if gitdir == "" {
			continue
		}
		if !slices.Contains(roots, top) || gitdir != filepath.Join(top, ".git") {
			g.add(gitdir) // not the root's own .git (a rule of its own)
		}
		if common != gitdir {
			g.add(common)
		}
		// a hook linked there during the session changes the hooks
		// directory (or the link that is it): the policy then learns
		// its target (gate: learnLinksIn, the thirty-first red team's)
		g.watchHooks(filepath.Join(gitdir, "hooks"))
		g.watchHooks(filepath.Join(common, "hooks"))
		g.config(filepath.Join(common, "config"), []string{top}, 0)
		g.config(filepath.Join(gitdir, "config.worktree"), []string{top}, 0)
		g.seen[filepath.Join(gitdir, "commondir")] = true
	}
	for f := range g.seen {
		read = append(read, f)
	}
	return g.out, read, tops
}

type gitPlaces struct {
	home string
	seen map[string]bool
	out  []string
}

func (g *gitPlaces) add(p string) {
	if p = filepath.Clean(p); filepath.IsAbs(p) && p != "/" && !slices.Contains(g.out, p) {
		g.out = append(g.out, p)
	}
}

// addHooks adds a core.hooksPath; one named "_" is husky's (husky
// installed in any directory D sets D/_, whose hooks run D/<hook>: the
// fifth red team's .config/husky), so its parent too.
func (g *gitPlaces) addHooks(h string) {
	g.add(h)
	g.watchHooks(h)
	if filepath.Base(filepath.Clean(h)) == "_" {
		g.add(filepath.Dir(filepath.Clean(h)))
	}
}

// watchHooks has a hooks directory looked at for changes (GitWatch's
// stamps): the directory, or the link that is it, and its real path (a
// hooks directory linked to ../githooks changes there).
func (g *gitPlaces) watchHooks(h string) {
	h = filepath.Clean(h)
	g.seen[h] = true
	if real, err := filepath.EvalSymlinks(h); err == nil && real != h {
		g.seen[real] = true
	}
}

// maxIncludeDepth is git's own bound on nested includes.
const maxIncludeDepth = 10

// config adds what one config file names, following its includes.
func (g *gitPlaces) config(name string, roots []string, depth int) {
	if depth > maxIncludeDepth || g.seen[name] {
		return
	}
	g.seen[name] = true
	text, ok := smallFile(name)
	if !ok {
		return
	}
	refs := gate.ParseGitConfigRefs(text)
	for _, h := range refs.HooksPaths {
		h = g.tilde(h)
		if filepath.IsAbs(h) {
			g.addHooks(h)
			continue
		}
		for _, r := range roots {
			g.addHooks(filepath.Join(r, h))
		}
	}
	for _, inc := range refs.Includes {
		inc = g.tilde(inc)
		if !filepath.IsAbs(inc) {
			inc = filepath.Join(filepath.Dir(name), inc)
		}
		g.add(inc)
		g.config(filepath.Clean(inc), roots, depth+1)
	}
}

// envConfig adds what GIT_CONFIG_COUNT and its GIT_CONFIG_KEY_n and
// GIT_CONFIG_VALUE_n give (git obeys them as the last config read): a
// core.hooksPath, an include (relative: in each root).
func (g *gitPlaces) envConfig(env map[string]string, roots []string) {
	n, err := strconv.Atoi(env["GIT_CONFIG_COUNT"])
	if err != nil || n <= 0 {
		return
	}
	for i := range min(n, 1000) {
		key := strings.ToLower(env["GIT_CONFIG_KEY_"+strconv.Itoa(i)])
		v := g.tilde(env["GIT_CONFIG_VALUE_"+strconv.Itoa(i)])
		hooks := key == "core.hookspath"
		include := key == "include.path" || strings.HasPrefix(key, "includeif.") && strings.HasSuffix(key, ".path")
		if v == "" || !hooks && !include {
			continue
		}
		add := g.add
		if hooks {
			add = g.addHooks
		}
		if filepath.IsAbs(v) {
			add(v)
			if include {
				g.config(v, roots, 1)
			}
			continue
		}
		for _, r := range roots {
			add(filepath.Join(r, v))
			if include {
				g.config(filepath.Join(r, v), roots, 1)
			}
		}
	}
}

func (g *gitPlaces) tilde(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && g.home != "" {
		return filepath.Join(g.home, rest)
	}
	return p
}

// maxNestedWalk bounds the directories nestedRepos lists: past it, a
// repository deeper in the roots is not found, and its config's hooks
// and includes are not protected (its .git is, by name).
const maxNestedWalk = 20_000

// nestedRepos are the directories below the roots (not the roots) that
// hold a .git, breadth first, listing at most budget directories; a .git
// is not descended into, nor is a link.
func nestedRepos(roots []string, budget int) []string {
	var out []string
	queue := append([]string(nil), roots...)
	for len(queue) > 0 && budget > 0 {
		dir := queue[0]
		queue = queue[1:]
		budget--
		f, err := os.Open(dir)
		if err != nil {
			continue
		}
		des, _ := f.ReadDir(-1)
		f.Close()
		for _, de := range des {
			switch {
			case de.Name() == ".git":
				if !slices.Contains(roots, dir) {
					out = append(out, dir)
				}
			case de.IsDir():
				queue = append(queue, filepath.Join(dir, de.Name()))
			}
		}
	}
	return out
}

// workTree is the directory whose .git git finds from root: root or the
// nearest above it holding a .git; root when there is none.
func workTree(root string) string {
	for d := root; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if d == filepath.Dir(d) {
			return root
		}
	}
}

// gitDirs are a root's git directory and common directory: .git itself
// when it is a directory, else the one its "gitdir:" line names; the
// common directory is the one the git directory's commondir file names,
// or the git directory.
func gitDirs(root string) (gitdir, common string) {
	dot := filepath.Join(root, ".git")
	fi, err := os.Lstat(dot)
	switch {
	case err != nil:
		return "", ""
	case fi.IsDir():
		gitdir = dot
	case fi.Mode().IsRegular():
		text, ok := smallFile(dot)
		rest, found := strings.CutPrefix(strings.TrimSpace(text), "gitdir:")
		if !ok || !found {
			return "", ""
		}
		gitdir = strings.TrimSpace(rest)
		if !filepath.IsAbs(gitdir) {
			gitdir = filepath.Join(root, gitdir)
		}
	default:
		return "", ""
	}
	gitdir, common = filepath.Clean(gitdir), filepath.Clean(gitdir)
	if text, ok := smallFile(filepath.Join(gitdir, "commondir")); ok {
		c := strings.TrimSpace(text)
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitdir, c)
		}
		common = filepath.Clean(c)
	}
	return gitdir, common
}

// smallFile is a regular file's text when it is at most 1 MiB.
func smallFile(name string) (string, bool) {
	fi, err := os.Stat(name)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > 1<<20 {
		return "", false
	}
	b, err := os.ReadFile(name)
	return string(b), err == nil
}
