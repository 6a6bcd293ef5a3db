package gate

import (
	"fmt"
	"time"
)

// The home's configuration is searched whole for files with other names
// (a plugin of Neovim four levels into ~/.local, a team's hook shared by
// ln: the eighth red team's), and it can be large (~/.vscode's
// extensions, ~/.local/share's tools). A session's processes would each
// walk it again; the walk of a protected place outside the roots is kept
// for topsFresh instead, and used while each file it found still has the
// same number of names.
//
// What that leaves: a file of the home's configuration that gets another
// name within topsFresh of the last walk is not known to have one until
// the next. A step cannot make such a name: the place is read-only in
// its sandbox, and a hard link out of a read-only mount (bubblewrap) or
// a place without Landlock's refer right fails (EXDEV). So only the user,
// or a step the user allowed protected, makes one, and the next walk
// finds it.
const topsFresh = time.Minute

// That leaves one case the kept walk cannot see by itself: a file with one
// name when the walk was made, which the user then links elsewhere (ln
// ~/.aws/credentials ~/dotfiles/aws_credentials), read or written by its
// new name within the minute: the walk met no such file with two names,
// and stillNamed checks only those it met. The link sets the file's
// change time (ctime), so a look for the other names of a file changed
// after the walk began walks again (the eleventh red team's).

// keepWalkFloor is how many entries a walk must look at to be kept: a
// small place (~/.ssh, ~/.aws, where the secrets are) is walked again
// each time, so a name the user links to one of its files is known at
// the next step, not a minute later (the fourteenth red team's: a hard
// link of ~/.aws/credentials made in the workspace after the kept walk).
const keepWalkFloor = 1000

// changedSlack is how much earlier than a walk a file's change time must
// be for the walk to know it: file systems keep times coarsely (a tick
// of the kernel's clock; whole seconds on HFS+, the oldest that has hard
// links).
const changedSlack = time.Second

// linkedFile is a regular file with more than one name, as a walk met it.
type linkedFile struct {
	path string
	in   Inode
}

// topWalk is one walk of a protected place.
type topWalk struct {
	at       time.Time
	files    []linkedFile
	complete bool
	cost     int // entries looked at
}

// walkTop is the files with other names at or below top (depth levels of
// directories; -1 all), and whether the walk was complete, taking what
// it looks at from budget. A place outside the roots is walked through
// the cache (a nil cache walks each time); one inside them each time (a
// step may change the roots).
//
// changed, when not 0, is the status change time of the file whose names
// are looked for (Inode.Changed): a kept walk that began before it (less
// changedSlack) may not know a name made since, so the place is walked
// again.
func (c *LinkCache) walkTop(fsys InodeFS, top string, depth int, roots []string, budget *int, changed int64) (files []linkedFile, complete bool, blind string) {
	cacheable := c != nil && !underAny(top, roots)
	key := topKey(top, depth)
	if files, complete, ok := c.kept(fsys, top, depth, roots, budget, changed); ok {
		return files, complete, ""
	}
	before := *budget
	complete, blind = linkWalk(fsys, top, depth, nil, nil, budget, func(p string, in Inode) bool {
		files = append(files, linkedFile{p, in})
		return true
	})
	// a walk that met a directory it could not read is not kept (the
	// user's chmod that opens it is no change the kept walk would see)
	if cacheable && blind == "" && before-*budget >= keepWalkFloor {
		c.topsMu.Lock()
		if c.tops == nil {
			c.tops = map[string]topWalk{}
		}
		c.tops[key] = topWalk{at: time.Now(), files: files, complete: complete, cost: before - *budget}
		c.topsMu.Unlock()
	}
	return files, complete, blind
}

// kept is the walk of top kept by the cache, when it may be used (see
// walkTop), its cost taken from budget; ok false: there is none.
func (c *LinkCache) kept(fsys InodeFS, top string, depth int, roots []string, budget *int, changed int64) (files []linkedFile, complete, ok bool) {
	if c == nil || underAny(top, roots) {
		return nil, false, false
	}
	c.topsMu.Lock()
	w, ok := c.tops[topKey(top, depth)]
	c.topsMu.Unlock()
	if ok && time.Since(w.at) < topsFresh && w.at.UnixNano() > changed+int64(changedSlack) && w.cost <= *budget && stillNamed(fsys, w.files) {
		*budget -= w.cost
		return w.files, w.complete, true
	}
	return nil, false, false
}

func topKey(top string, depth int) string { return fmt.Sprintf("%s\x00%d", top, depth) }

// stillNamed reports whether each file is still where the walk met it,
// the same file with the same number of names.
func stillNamed(fsys InodeFS, files []linkedFile) bool {
	for _, f := range files {
		if in, ok := fsys.Inode(f.path); !ok || !in.sameNames(f.in) {
			return false
		}
	}
	return true
}

func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if under(p, d) {
			return true
		}
	}
	return false
}
