package confine

import "slices"

// Narrow is what of entries stays covered (hidden: the secret ones;
// read-only: the protected ones) when a question approved the effect at
// the real paths named only, as a program's own words named them: an
// entry at or below a named path is dropped (the question named it, or a
// directory that holds it); an entry that holds a named path gives way to
// its own entries, each narrowed the same way, so that everything in it
// the named paths do not hold stays covered; every other entry stays.
// readDir lists a directory's entries; a directory it cannot list (or
// that it refuses to, as one holding a symbolic link, which a mount
// cannot cover) stays covered whole, and the named path below it with it:
// the approved step then fails, never reaches more. A question approved
// to read ~/.ssh/known_hosts lent the whole store to the program that
// read it, and one to write .git/config every hook (the thirty-first red
// team's). It is pure given readDir.
func Narrow(entries []Entry, named []string, readDir func(dir string) ([]Entry, error)) []Entry {
	var out []Entry
	var visit func(e Entry)
	visit = func(e Entry) {
		holds := false
		for _, n := range named {
			if under(e.Path, n) {
				return // named, or held by a named directory
			}
			if under(n, e.Path) {
				holds = true
			}
		}
		if !holds || !e.Dir {
			out = append(out, e)
			return
		}
		kids, err := readDir(e.Path)
		if err != nil {
			out = append(out, e)
			return
		}
		for _, k := range kids {
			visit(k)
		}
	}
	for _, e := range entries {
		visit(e)
	}
	return out
}

// Covered tells whether p is at or below one of entries.
func Covered(entries []Entry, p string) bool {
	for _, e := range entries {
		if under(p, e.Path) {
			return true
		}
	}
	return false
}

// GivenWay are the directories Narrow opened for the named paths, by
// depth: from each entry of entries that holds a named path it uncovered
// (narrowed no longer covers it) down to that path's directory. Each of
// them shows the named paths now, and its own entries stay covered, but
// the directory itself could take any new name a program makes (an
// authorized_keys in a store narrowed to known_hosts, a hooks directory
// in a .git narrowed to its config: the thirty-second red team's): a
// sandbox that can show a directory from another place shows each of
// them from a private copy (agent/shell's shadows), and keeps of it only
// the named paths. It is pure.
func GivenWay(entries, narrowed []Entry, named []string) []string {
	var out []string
	for _, n := range named {
		if Covered(narrowed, n) {
			continue
		}
		for _, e := range entries {
			if !e.Dir || n == e.Path || !under(n, e.Path) {
				continue
			}
			for d := parentOf(n); under(d, e.Path); d = parentOf(d) {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
				if d == e.Path {
					break
				}
			}
		}
	}
	return sortedByDepth(out)
}
