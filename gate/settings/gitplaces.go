package settings

import (
	"os"
	"path/filepath"
	"slices"
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
//   - every core.hooksPath they name (relative: in each root, where the
//     hooks run).
//
// They are read once, as the places are gathered; a config the user
// changes later is read at the next session. A file that cannot be read
// or is larger than 1 MiB adds nothing of its own.
func GitPlaces(roots []string, home string, env map[string]string) []string {
	places, _ := gitPlacesRead(roots, home, env)
	return places
}

// gitPlacesRead is GitPlaces and every file it read or looked for.
func gitPlacesRead(roots []string, home string, env map[string]string) (places, read []string) {
	g := gitPlaces{home: home, seen: map[string]bool{}}
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
	for _, f := range user {
		g.add(f)
		g.config(f, roots, 0)
	}
	for _, root := range roots {
		gitdir, common := gitDirs(root)
		if gitdir == "" {
			continue
		}
		if gitdir != filepath.Join(root, ".git") {
			g.add(gitdir)
		}
		if common != gitdir {
			g.add(common)
		}
		g.config(filepath.Join(common, "config"), []string{root}, 0)
		g.config(filepath.Join(gitdir, "config.worktree"), []string{root}, 0)
		g.seen[filepath.Join(gitdir, "commondir")] = true
	}
	for _, root := range roots {
		g.seen[filepath.Join(root, ".git")] = true
	}
	for f := range g.seen {
		read = append(read, f)
	}
	return g.out, read
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
			g.add(h)
			continue
		}
		for _, r := range roots {
			g.add(filepath.Join(r, h))
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

func (g *gitPlaces) tilde(p string) string {
	if rest, ok := strings.CutPrefix(p, "~/"); ok && g.home != "" {
		return filepath.Join(g.home, rest)
	}
	return p
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
