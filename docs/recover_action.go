package docs

// The rule of recovery for one file of a journal, as a function of what
// recovery sees there now (recoveryAction), and the executor that carries
// it out through a beneath (finish). The decision does no I/O; the
// executor decides nothing.

// seen is what recovery finds of one file of a journal, now: the digest
// at its path and, for a move, at its destination (ok false: nothing is
// there).
type seen struct {
	src   string
	srcOK bool
	dst   string
	dstOK bool
}

// sourceKind is where the bytes recovery lands come from.
type sourceKind int

const (
	noSource    sourceKind = iota
	fromTemp               // a temp file of the commit, checked to hold the digest
	fromHolding            // the file at the path itself, checked to hold the digest (a bare move)
)

// landKind is how those bytes land.
type landKind int

const (
	linkAt     landKind = iota // linked at the path, which must not exist
	renameOver                 // the temp file renamed over the path
)

// action is what recovery does to one file of a journal: when why is
// set, nothing, and why; else, in order, land the bytes of from at at
// (when from is set), then remove remove (when set). Neither set: the
// file is already as the journal's direction leaves it.
type action struct {
	why string

	from       sourceKind
	fromPath   string
	fromDigest string
	land       landKind
	at         string
	mode       uint32   // given to the landed file (0: none to give)
	touch      []string // paths whose directories change, noted before the landing

	remove string
}

func refuse(why string) action { return action{why: why} }

// paths are every path the action names.
func (a action) paths() []string {
	var out []string
	for _, p := range append([]string{a.fromPath, a.at, a.remove}, a.touch...) {
		if p != "" {
			out = append(out, p)
		}
	}
	return out
}

// recoveryAction is the rule (journal.go) for one file: back says the
// journal is turned back, s what is there now.
func recoveryAction(jf journalFile, back bool, s seen) action {
	switch {
	case jf.Create:
		return createAction(jf, back, s)
	case jf.Dest != "" && back:
		return moveBackAction(jf, s)
	case jf.Dest != "":
		return moveAction(jf, s)
	}
	return editAction(jf, back, s)
}

// createAction: a created file is linked from its temp file forward, and
// removed back while it holds the new bytes.
func createAction(jf journalFile, back bool, s seen) action {
	switch {
	case s.srcOK && s.src == jf.New && !back:
		return action{}
	case !s.srcOK && back:
		return action{}
	case s.srcOK && s.src == jf.New: // back: remove the created file
		return action{remove: jf.Path}
	case s.srcOK:
		return refuse("it holds other bytes now")
	case jf.Temp == "":
		return refuse("its new bytes are lost")
	}
	return action{from: fromTemp, fromPath: jf.Temp, fromDigest: jf.New,
		land: linkAt, at: jf.Path, mode: jf.Mode, touch: []string{jf.Path}}
}

// moveAction: forward, a move links its new bytes (its temp file, or the
// source itself for a bare move) at the destination, then removes the
// source.
func moveAction(jf journalFile, s seen) action {
	switch {
	case s.dstOK && s.dst == jf.New:
		if s.srcOK && s.src == jf.Old {
			return action{remove: jf.Path}
		}
		return action{}
	case s.dstOK:
		return refuse("its destination holds other bytes now")
	case !s.srcOK || s.src != jf.Old:
		return refuse("it holds other bytes now")
	}
	a := action{land: linkAt, at: jf.Dest, mode: modeIf(jf.Temp != "", jf.Mode),
		touch: []string{jf.Dest, jf.Path}, remove: jf.Path}
	if jf.Temp != "" {
		a.from, a.fromPath, a.fromDigest = fromTemp, jf.Temp, jf.New
	} else {
		a.from, a.fromPath, a.fromDigest = fromHolding, jf.Path, jf.Old
	}
	return a
}

// moveBackAction: back, a move links its old bytes at the source when
// they are gone from there, then removes the destination.
func moveBackAction(jf journalFile, s seen) action {
	switch {
	case !s.dstOK && s.srcOK && s.src == jf.Old:
		return action{}
	case s.dstOK && s.dst != jf.New:
		return refuse("its destination holds other bytes now")
	case s.srcOK && s.src != jf.Old:
		return refuse("it holds other bytes now")
	case !s.srcOK && !s.dstOK:
		return refuse("it and its destination are both gone")
	}
	// Here the destination holds the new bytes (the cases above leave no
	// other way).
	a := action{remove: jf.Dest}
	if !s.srcOK {
		if jf.BackT == "" {
			return refuse("it was moved and its old bytes are not kept: it is at its destination")
		}
		a.from, a.fromPath, a.fromDigest = fromTemp, jf.BackT, jf.Old
		a.land, a.at, a.mode, a.touch = linkAt, jf.Path, jf.Mode, []string{jf.Path}
	}
	return a
}

// editAction: an edited file gets the bytes of its direction from the
// temp file that holds them, renamed over it, while it holds the others.
func editAction(jf journalFile, back bool, s seen) action {
	want, have, t := jf.New, jf.Old, jf.Temp
	if back {
		want, have, t = jf.Old, jf.New, jf.BackT
	}
	switch {
	case s.srcOK && s.src == want:
		return action{}
	case !s.srcOK || s.src != have:
		return refuse("it holds other bytes now")
	case t == "" && back:
		return refuse("the edit had landed on it and its old bytes are not kept: it holds the edit")
	case t == "":
		return refuse("its bytes are lost")
	}
	return action{from: fromTemp, fromPath: t, fromDigest: want,
		land: renameOver, at: jf.Path, mode: jf.Mode, touch: []string{jf.Path}}
}
