package docs

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// keepOld gives the file a change replaces or moves a second name beside
// its target (the file, or a move's destination) before anything of the
// commit is published: a temp name this writer
// locks, which keeps its old bytes for a restore. A hard link takes no new
// space, so a restore after a failed publish needs none either, even on
// a disk that has filled up meanwhile (a double fault). Where the file
// system makes no hard link of it (no links, another user's file under
// fs.protected_hardlinks, not a regular file, another program's lock on
// it), the old bytes are copied to the temp name instead, now, while a
// failure still fails the edit cleanly.
func (d *Disk) keepOld(p *Pending) error {
	if err := d.fault("keep", p.Real); err != nil {
		return err
	}
	// beside the target: a move's source is gone once it lands, and a
	// name left there would be swept by no later write. A second name of
	// a file a write would not run unasked (protected, secret: the
	// recovery judge says so) would be a name the sandbox neither hides
	// nor binds read-only: such a file's old bytes are copied instead.
	if d.Judge != nil && d.Judge(p.Real) != "" {
		t, err := d.writeTemp(p.Target(), p.Old, p.Mode)
		if err != nil {
			return err
		}
		p.kept, p.Kept = t, t.path
		return nil
	}
	if t := d.linkOld(p.Real, p.Target()); t != nil {
		p.kept, p.Kept = t, t.path
		return nil
	}
	t, err := d.writeTemp(p.Target(), p.Old, p.Mode)
	if err != nil {
		return err
	}
	p.kept, p.Kept = t, t.path
	return nil
}

// linkOld makes a second name of the regular file at real, a temp name
// of target beside it, and locks it (shared: the file is also the
// target, which no eukhe locks itself; a sweep's exclusive lock then
// fails, so it is left); nil when it could not.
func (d *Disk) linkOld(real, target string) *tempFile {
	dir, name := filepath.Split(target)
	for {
		path := filepath.Join(dir, TempName(name, d.pid, int(d.n.Add(1))))
		err := os.Link(real, path)
		if errors.Is(err, fs.ErrExist) {
			continue // a name of ours a crash left: take the next
		}
		if err != nil {
			return nil
		}
		f, err := openFile(path, os.O_RDONLY|oNoFollow|oNonBlock, 0)
		if err == nil {
			if st, serr := f.Stat(); serr == nil && st.Mode().IsRegular() &&
				lockFile(f, lockSh|lockNB) == nil && sameFile(f, path) {
				return &tempFile{path: path, f: f, durable: true, linked: true}
			}
			f.Close()
		}
		// Only this process makes names with its pid: the name is ours.
		unlink(path)
		return nil
	}
}

// dropKept removes the kept second name of a change (its restore will not
// be needed, or is done).
func (d *Disk) dropKept(p *Pending) {
	t := p.kept
	p.kept, p.Kept = nil, ""
	if t == nil {
		return
	}
	if t.path != "" && d.fault("discard", t.path) != nil {
		t.path = "" // a crash: the name stays, as it would
	}
	t.discard()
}
