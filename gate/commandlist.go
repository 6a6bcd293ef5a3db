package gate

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// CommandList is the names of the programs in a PATH's absolute
// directories: what the user's shell runs when a word names a command.
// Two judgments ask it, and this is the one list both keep: the gate's
// (a file named like a command, where every directory may be on PATH, is
// protected: Policy.isCommandName) and the sandbox's (an entry of a
// relative PATH directory named like a command shadows it:
// agent/shell's pathShadow).
//
// It keeps the law that a command installed during the session is known
// from the next look on (go install, pip install --user, apt: the
// seventeenth red team's). A look stamps each directory (a stat,
// following links: a PATH entry may be one) with its identity and its
// status change time, which no one can set back as a modification time
// can be (an install that keeps times: the eighteenth red team's), and
// lists every directory again when a stamp moved, when a directory
// appeared or went, or when one's change time fell within changedSlack
// of the last listing (racy: a change later in its clock tick keeps the
// time). How often to look is the caller's: the gate at most every
// commandsFresh for a name it does not know, the sandbox before every
// process.
type CommandList struct {
	dirs  []string // the absolute directories, in PATH order, each once
	names func(dir string) ([]string, error)

	mu      sync.Mutex
	listed  bool
	stamps  []dirStamp // each directory's, as listed
	racy    bool
	checked time.Time // when the stamps were last looked at
	has     map[string]bool
	folded  map[string]bool // foldName of each name
	// unlisted are the directories that could not be listed (another
	// user's 0711 tools, a 0111 one): their programs run by name all the
	// same (execve needs search only), so a name is looked up in each
	// (the twentieth red team's: their commands were none)
	unlisted []string
}

// dirStamp is a directory's identity and status change time (nanoseconds;
// on systems without one, its modification time); the zero stamp when
// it is no directory (dirStampOf).
type dirStamp struct {
	dev, ino uint64
	changed  int64
}

// NewCommandList is the list of the commands in dirs' absolute
// directories (a relative one names a directory wherever the shell is,
// not one list), read from the OS. Nothing is listed before the first
// Look.
func NewCommandList(dirs []string) *CommandList {
	return newCommandList(dirs, entryNames)
}

// entryNames are the names of the entries of the directory dir, as the
// system lists them.
func entryNames(dir string) ([]string, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.Readdirnames(-1)
}

// newCommandList is NewCommandList listing each directory with names (a
// policy's file system: tests give it another).
func newCommandList(dirs []string, names func(string) ([]string, error)) *CommandList {
	c := &CommandList{names: names}
	for _, d := range dirs {
		if filepath.IsAbs(d) && !slices.Contains(c.dirs, d) {
			c.dirs = append(c.dirs, d)
		}
	}
	return c
}

// Look brings the list up to date, unless it was looked at within maxAge
// (0: look now): it stamps each directory and lists them all again when
// the list is racy or a stamp moved. It reports whether it listed them
// (the names may have changed).
func (c *CommandList) Look(maxAge time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.look(maxAge)
}

func (c *CommandList) look(maxAge time.Duration) bool {
	if c.listed && maxAge > 0 && time.Since(c.checked) < maxAge {
		return false
	}
	stamps := make([]dirStamp, len(c.dirs))
	for i, d := range c.dirs {
		stamps[i] = dirStampOf(d)
	}
	c.checked = time.Now()
	if c.listed && !c.racy && slices.Equal(c.stamps, stamps) {
		return false
	}
	listed := time.Now().UnixNano()
	c.listed, c.stamps, c.racy = true, stamps, false
	c.has, c.folded, c.unlisted = map[string]bool{}, map[string]bool{}, nil
	for _, s := range stamps {
		c.racy = c.racy || s.changed > listed-int64(changedSlack) // a change later in its tick keeps the time
	}
	for i, d := range c.dirs {
		ns, err := c.names(d)
		if err != nil && stamps[i] != (dirStamp{}) {
			c.unlisted = append(c.unlisted, d) // there, and not to be listed
		}
		for _, e := range ns {
			c.has[e] = true
			c.folded[foldName(e)] = true
		}
	}
	return true
}

// Is tells whether name is a command, compared exactly or, with fold, as
// the gate folds names (foldName: a case-insensitive volume's). A name it
// knows is answered at once; one it does not costs a look when the last
// was more than maxAge ago.
func (c *CommandList) Is(name string, fold bool, maxAge time.Duration) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	known := func() bool { return c.has[name] || fold && c.folded[foldName(name)] }
	if c.listed && known() {
		return true
	}
	c.look(maxAge)
	return known() || inDirs(c.unlisted, name)
}

// InUnlisted tells whether name is a program of a PATH directory that
// could not be listed at the last look (a stat of the name in each).
func (c *CommandList) InUnlisted(name string) bool {
	c.mu.Lock()
	dirs := c.unlisted
	c.mu.Unlock()
	return inDirs(dirs, name)
}

// inDirs reports whether one of dirs holds an entry name that is no
// directory (a program, or what may become one).
func inDirs(dirs []string, name string) bool {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return false
	}
	for _, d := range dirs {
		// the entry itself, as a listing counts it: a dangling link may
		// come to lead to a program (the twenty-first red team's)
		if fi, err := os.Lstat(filepath.Join(d, name)); err == nil && !fi.IsDir() {
			return true
		}
	}
	return false
}

// Names are the commands as last listed (nil before the first Look): a
// set the list never changes (a new listing makes a new one), so a
// caller may keep and read it without the list's lock.
func (c *CommandList) Names() map[string]bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.has
}

// Dirs are the absolute directories the list lists, in PATH order.
func (c *CommandList) Dirs() []string { return slices.Clone(c.dirs) }
