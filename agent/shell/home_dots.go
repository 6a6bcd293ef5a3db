package shell

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/eukhe/eukhe/gate"
)

// homeDots is what a process found of the home's configuration (the
// policy's DotRule, gate.DotCovers): each covered entry (read-only to a
// process that may not write protected), and the names of each
// directory it listed, so that a covered entry made by the process
// (~/.bash_aliases, ~/.local/lib/…/site-packages/x.pth) is renamed out
// of use after it, as a .git is (the fifth red team's).
type homeDots struct {
	covered  []string
	listed   map[string][]string // directory → its names then
	rel      map[string]string   // directory → its path below its home ("" for the home)
	writable []string            // shell.writableDirs: the user's, never covered
	// links are the links to a directory holding places looked at (a
	// ~/.cache that is a link to a bigger disk): listed at their real
	// path, and each looked at again after the process (lookPlaces), so
	// one swapped for a link elsewhere is renamed out of use.
	links []string
}

// lookHomeDots lists each home for the entries the DotRule covers. A dot
// directory holding a place of gate.HomeWritable (~/.cargo holds
// registry) is not covered whole: its entries are looked at one by one.
// The user's shell.writableDirs below a dot directory (~/.gradle/foo)
// are passed over the same way.
// A part of the home moved elsewhere (CARGO_HOME) is listed as that part.
func lookHomeDots(homes []gate.Rule, writable []string) homeDots {
	h := homeDots{listed: map[string][]string{}, rel: map[string]string{}, writable: writable}
	for _, home := range homes {
		if home.Name != "" && gate.DotCovers(home.Name) && !holdsWritable(home.Name) && !h.isWritable(home.Path) && !h.holdsWritable(home.Path) {
			if _, err := os.Lstat(home.Path); err == nil {
				h.covered = append(h.covered, home.Path) // whole: one mount
			}
			continue
		}
		h.look(home.Path, home.Name)
	}
	return h
}

func (h *homeDots) look(dir, rel string) {
	f, err := os.Open(dir)
	if err != nil {
		return
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	h.listed[dir], h.rel[dir] = names, rel
	for _, n := range names {
		r := n
		if rel != "" {
			r = rel + "/" + n
		}
		p := filepath.Join(dir, n)
		if h.isWritable(p) {
			// the user's, but a place a shell or git runs code from stays
			// covered in it (the seventh red team's ~/.cache named writable)
			switch {
			case neverWritable(r):
				h.covered = append(h.covered, p)
			case holdsNeverWritable(r):
				if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
					h.look(p, r)
				}
			}
			continue
		}
		if !gate.DotCovers(r) && !holdsWritable(r) {
			continue
		}
		if holdsWritable(r) || h.holdsWritable(p) {
			if fi, err := os.Lstat(p); err == nil && fi.IsDir() {
				h.look(p, r)
				continue
			}
			// a link to a directory (~/.cache -> /scratch/me/cache): its
			// places are where the link leads (the seventh red team's)
			if real, err := filepath.EvalSymlinks(p); err == nil && real != p && !slices.Contains(h.links, p) && len(h.links) < 64 {
				if fi, err := os.Stat(real); err == nil && fi.IsDir() {
					h.links = append(h.links, p)
					h.look(real, r)
					continue
				}
			}
		}
		h.covered = append(h.covered, p)
	}
}

// holdsWritable reports whether a place of gate.HomeWritable, or of
// gate.HomeNeverWritable inside one, is below rel: such a directory is
// looked at entry by entry.
func holdsWritable(rel string) bool {
	return slices.ContainsFunc(gate.HomeWritable, func(w string) bool { return strings.HasPrefix(w, rel+"/") }) ||
		slices.ContainsFunc(gate.HomeNeverWritable, func(w string) bool { return strings.HasPrefix(w, rel+"/") })
}

// neverWritable reports whether rel is a place of gate.HomeNeverWritable
// (a prefix, as DotCovers takes it): covered even in a writable directory.
func neverWritable(rel string) bool {
	return slices.ContainsFunc(gate.HomeNeverWritable, func(n string) bool { return strings.HasPrefix(rel, n) })
}

// holdsNeverWritable reports whether a place of gate.HomeNeverWritable is
// below rel.
func holdsNeverWritable(rel string) bool {
	return slices.ContainsFunc(gate.HomeNeverWritable, func(n string) bool { return strings.HasPrefix(n, rel+"/") })
}

// isWritable reports whether p is or is below a writable directory.
func (h homeDots) isWritable(p string) bool {
	return slices.ContainsFunc(h.writable, func(w string) bool { return p == w || strings.HasPrefix(p, w+"/") })
}

// holdsWritable reports whether a writable directory is below p.
func (h homeDots) holdsWritable(p string) bool {
	return slices.ContainsFunc(h.writable, func(w string) bool { return strings.HasPrefix(w, p+"/") })
}

// made are the covered entries that are in a listed directory now and
// were not when it was listed. A new directory that holds a cache place
// (~/.local, made by the process) is looked into the same way, all its
// entries new (the sixth red team's ~/.local/bin/ls).
func (h homeDots) made() []string {
	var out []string
	for dir, before := range h.listed {
		out = h.newIn(out, dir, h.rel[dir], before, 0)
	}
	slices.Sort(out)
	return out
}

// newIn adds the covered entries of dir (rel below its home) not among
// before.
func (h homeDots) newIn(out []string, dir, rel string, before []string, depth int) []string {
	f, err := os.Open(dir)
	if err != nil {
		return out
	}
	names, _ := f.Readdirnames(-1)
	f.Close()
	for _, n := range names {
		if slices.Contains(before, n) || strings.Contains(n, refusedSuffix) {
			continue
		}
		r := n
		if rel != "" {
			r = rel + "/" + n
		}
		p := filepath.Join(dir, n)
		switch {
		case h.isWritable(p) && neverWritable(r):
			out = append(out, p)
		case h.isWritable(p) && holdsNeverWritable(r):
			if fi, err := os.Lstat(p); err == nil && fi.IsDir() && depth < 8 {
				out = h.newIn(out, p, r, nil, depth+1)
			}
		case h.isWritable(p) || !gate.DotCovers(r) && !holdsWritable(r):
		case holdsWritable(r) || h.holdsWritable(p):
			if fi, err := os.Lstat(p); err == nil && fi.IsDir() && depth < 8 {
				out = h.newIn(out, p, r, nil, depth+1)
			} else {
				out = append(out, p)
			}
		default:
			out = append(out, p)
		}
	}
	return out
}
