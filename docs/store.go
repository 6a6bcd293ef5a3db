package docs

import (
	"errors"
	"io/fs"
	"time"
)

// Stat is what a Store knows of a path besides its bytes.
type Stat struct {
	Exists bool
	Dir    bool
	Mode   fs.FileMode
	Size   int64
	MTime  time.Time
	// Links is the file's number of names (hard links); 0 when the store
	// does not know it (an editor's buffer).
	Links uint64
}

// Snapshot is a path's current bytes. Release hands a pooled buffer back;
// Data must not be used after it.
type Snapshot struct {
	Data []byte
	Stat Stat
	// In says where the bytes are held when that is not the disk, for
	// messages: "in the editor" for an open document's text.
	In string
	// Stamp is what the disk read saw of the file (stamp.go); zero for
	// bytes from anywhere else.
	Stamp  Stamp
	pooled *[]byte // the read pool's buffer that holds Data, if any
}

// Release returns the snapshot's buffer to its pool.
func (s *Snapshot) Release() {
	if s.pooled != nil {
		putPooled(&readPool, s.pooled, s.Data)
		s.pooled = nil
	}
	s.Data = nil
}

// Entry is one directory entry.
type Entry struct {
	Name string
	Dir  bool // a directory, or a symlink to one
	Link bool // a symbolic link (a walk does not follow it)
}

// Change is one file of a checked change set (S8.1): what the edit was
// applied to, and what it publishes.
type Change struct {
	Path   string
	Create bool        // the path must not exist
	Old    []byte      // otherwise: the bytes on disk must be exactly these
	New    []byte      // the new content; nil leaves the content as it is
	Mode   fs.FileMode // for a created file
	MoveTo string      // "" or a destination that must not exist (S8.4)
	// Still, when set, runs under the writer's lock before anything is
	// written: the documents gate's re-resolution (G1.7). An error is a
	// conflict; nothing is written.
	Still func() error
	// Rebase, when set, makes the change anew over the bytes the file
	// holds under the writer's lock when they are not Old: the same rebase
	// as a stale tag's (rebase.go). An error is a conflict (a line the
	// change stands on changed); nothing is written. Unset, changed bytes
	// are a conflict. A nil New leaves the content as it is now.
	Rebase func(cur []byte) (New []byte, err error)
	// OldDigest and NewDigest, when Digested, are DigestOf(Old) and
	// DigestOf(New) (of Old for a nil New) as the caller made them: the
	// commit's journal uses them instead of hashing the bytes again. A
	// change the commit rebases is hashed anew.
	OldDigest, NewDigest Digest
	Digested             bool
	// OldStamp, when settled, is the Stamp of the disk read that gave Old:
	// a publisher that can (Publisher.Unchanged) then vouches for the file
	// under the lock without reading it again.
	OldStamp Stamp
	// Begun is the batch Store.Begin gave for this commit, or nil: the
	// store that began it takes the temp files written early (Batch.Write)
	// and its journal; any other store ignores it. A wrapper passes the
	// changes on as they are (Begun with Still and Rebase): the disk's
	// commit without its open batch would wait on the batch's own journal.
	Begun Batch
}

// Target is where the change lands: the move's destination, else its path.
func (c Change) Target() string {
	if c.MoveTo != "" {
		return c.MoveTo
	}
	return c.Path
}

// Fate is what a commit did with one change.
type Fate uint8

const (
	Untried  Fate = iota // not written: the check failed or an earlier file failed
	Landed               // its new content is on disk
	Failed               // its publish failed; its old content is on disk
	Restored             // it landed, then a later failure put its old bytes back
	// Unconfirmed: an editor took it and has not shown it yet (the user
	// typing over its didChange): it may land later. Never reported as
	// not applied; the agent is told to read again before editing again.
	Unconfirmed
)

// Outcome is one change's fate, with a warning for a landed write (a
// directory sync that failed, a move whose source stays) and the error of a
// failed publish or restore.
type Outcome struct {
	Fate    Fate
	Warning string
	Err     error
	Rebased bool // the file had changed on other lines; the change was made anew over them
}

// Conflict is a check that failed before anything was written: the change
// whose file changed, or whose move destination exists.
type Conflict struct {
	Index int
	Why   string
}

// Committed is the result of Store.Commit.
type Committed struct {
	Conflict  *Conflict  // set: nothing was written
	Outcomes  []Outcome  // one per change, in order
	Recovered []Recovery // interrupted commits finished before this one (journal.go)
}

// Store is where documents live (DESIGN.md §4): the disk, or an editor's
// open buffers over the disk. Every capability is a method every store
// has, so a wrapper that embeds a Store (or the Disk) forwards all of
// them, and the compiler makes a new store say what it does. A store that
// can only act by path embeds ByPath (bypath.go) for the no-follow reads,
// the walk and the batch; the disk and the editor store do not.
type Store interface {
	// Read gives a path's current bytes; a missing path is a Snapshot with
	// Stat.Exists false and no error. A directory has no Data.
	Read(path string) (Snapshot, error)
	// List gives a directory's entries, sorted by name.
	List(dir string) ([]Entry, error)
	// Stat tells what a path is without reading it; a missing path has
	// Exists false and no error.
	Stat(path string) (Stat, error)

	// ReadNoLinks is Read of a path none of whose parts may be a symbolic
	// link (the disk: openat2 with RESOLVE_NO_SYMLINKS). The gate gives a
	// real path, which has no link; reading it so makes the read land on
	// exactly the file judged, even when a part was swapped for a link
	// since (ErrLinkBelow).
	ReadNoLinks(path string) (Snapshot, error)
	// ListNoLinks is List of such a directory.
	ListNoLinks(dir string) ([]Entry, error)
	// OpenTree opens dir for a walk that reads below it without following
	// any link (below.go); with real set, dir is a real path the gate
	// judged, and a link on it (made since) is ErrLinkBelow. Any other
	// error makes the walk read by path (ByPath's, or a kernel without
	// openat2).
	OpenTree(dir string, real bool) (Tree, error)

	// Commit locks every path of the change set in one order, checks each
	// (bytes as expected, or rebased; destinations free), and only then
	// publishes in order, stopping at the first failure (S8.1). A change
	// it rebased comes back with the Old it checked and the New it wrote.
	// A change whose Begun is a batch this store began uses what the
	// batch wrote; a wrapper that changes Commit passes the changes on as
	// they are, and so keeps the batch.
	Commit(changes []Change) Committed
	// Begin begins a commit of the files at paths (every path and move
	// destination the changes will name) before its changes are all made
	// (batch.go). NoBatch when the store writes nothing early.
	Begin(paths []string) Batch
}

// ErrNotExist is the error of a path that is not there.
var ErrNotExist = fs.ErrNotExist

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
