package docs

import "io/fs"

// Pending is one change of a commit, checked: its paths resolved through
// symlinks (a symlink's target is written, the link stays), the mode it
// lands with, and what its Publisher prepared.
type Pending struct {
	Change
	Real     string      // the file: Path resolved
	RealDest string      // MoveTo resolved, or ""
	Mode     fs.FileMode // of the file as checked; 0644 for a created one
	Rebased  bool        // the file had changed on lines the edit keeps: New was made anew
	// Staged is the file that holds the prepared bytes (new ones, or with
	// back the old ones), "" when there is none; the journal lists it.
	Staged string
	// Buffer is set by a publisher whose change lands in an editor's
	// buffer, not on disk (in its Check): the intent journal does not
	// list it.
	Buffer bool
	// Kept is the file that keeps the old bytes for a restore, made by
	// Prepare before anything is published ("" when none was needed): a
	// restore then takes no new space (S8.1 after a double fault).
	Kept string

	temp      *tempFile // the disk's prepared file
	revealErr error     // giving the restored file its mode failed
	kept      *tempFile // the disk's second name of the old file (Kept)
	// old holds the file a rename replaces (an O_PATH descriptor, +1; 0
	// for none) until the commit has finished: freeing the replaced
	// file's blocks then happens off the reply's path (Disk.Finish).
	old    int
	landed bool       // published (the disk's Publish of the new bytes)
	early  *earlyTemp // the disk's temp file written during the check
}

// Target is where the new bytes land: the resolved destination, else the
// resolved path.
func (p *Pending) Target() string {
	if p.RealDest != "" {
		return p.RealDest
	}
	return p.Real
}

// named is the name the change set gave the file at a resolved path.
func (p *Pending) named(path string) string {
	if path == p.RealDest {
		return p.MoveTo
	}
	return p.Path
}
