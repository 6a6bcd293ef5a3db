package confine

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
