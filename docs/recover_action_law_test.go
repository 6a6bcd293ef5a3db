package docs

import (
	"maps"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

// A journal file of any kind (edit, create, move, bare move; with or
// without its temp files), any direction, and what may be at its paths
// now: its old bytes, its new bytes, other bytes or nothing.
type actionCase struct {
	jf    journalFile
	back  bool
	world map[string]string // path → digest; absent: no file
}

const otherBytes = "other"

func drawActionCase(rt *rapid.T) actionCase {
	jf := journalFile{Name: "f", Path: "/r/a", Old: "old", New: "new", Mode: 0o644}
	switch rapid.IntRange(0, 2).Draw(rt, "kind") {
	case 1:
		jf.Create, jf.Old = true, ""
	case 2:
		jf.Dest = "/r/d/b"
	}
	target := jf.Path
	if jf.Dest != "" {
		target = jf.Dest
	}
	if rapid.Bool().Draw(rt, "temp") {
		jf.Temp = "/r/.t-" + target[len("/r/"):]
	} else if jf.Dest != "" {
		jf.New = jf.Old // a bare move: its bytes are the source's
	}
	if !jf.Create && rapid.Bool().Draw(rt, "backTemp") {
		jf.BackT = "/r/.b-a"
	}
	c := actionCase{jf: jf, back: rapid.Bool().Draw(rt, "back"), world: map[string]string{}}
	for _, p := range []string{jf.Path, jf.Dest} {
		if p == "" {
			continue
		}
		if d := rapid.SampledFrom([]string{"", "old", "new", otherBytes}).Draw(rt, "at "+p); d != "" {
			c.world[p] = d
		}
	}
	// A temp file holds its bytes, or is gone (or was never written).
	if jf.Temp != "" && rapid.Bool().Draw(rt, "temp there") {
		c.world[jf.Temp] = jf.New
	}
	if jf.BackT != "" && rapid.Bool().Draw(rt, "backTemp there") {
		c.world[jf.BackT] = jf.Old
	}
	return c
}

func (c actionCase) seen() seen {
	s := seen{}
	s.src, s.srcOK = c.world[c.jf.Path]
	if c.jf.Dest != "" && !c.jf.Create {
		s.dst, s.dstOK = c.world[c.jf.Dest]
	}
	return s
}

// run carries out a on a model of the disk as act does on the disk: a
// source that does not hold its digest, or a link onto a name that is
// taken, stops it there (false).
func run(a action, world map[string]string) (map[string]string, bool) {
	w := maps.Clone(world)
	if a.why != "" {
		return w, true
	}
	if a.from != noSource {
		if w[a.fromPath] != a.fromDigest {
			return w, false
		}
		if a.land == linkAt {
			if _, taken := w[a.at]; taken {
				return w, false
			}
			w[a.at] = a.fromDigest
		} else {
			w[a.at] = a.fromDigest
			delete(w, a.fromPath)
		}
	}
	if a.remove != "" {
		delete(w, a.remove)
	}
	return w, true
}

// Recovery's action names only the change's own paths, and bytes the
// journal does not name (a later writer's) are never removed nor
// replaced, whatever the action and whether it stops half way; an
// action that stops half way has changed nothing.
func TestLaw_recovery_action_never_loses_other_bytes(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := drawActionCase(rt)
		a := recoveryAction(c.jf, c.back, c.seen())
		own := []string{c.jf.Path, c.jf.Dest, c.jf.Temp, c.jf.BackT}
		for _, p := range a.paths() {
			if !slices.Contains(own, p) {
				rt.Fatalf("action %+v names %s, no path of the change", a, p)
			}
		}
		after, ok := run(a, c.world)
		for p, d := range c.world {
			if d == otherBytes && after[p] != otherBytes {
				rt.Fatalf("%s held other bytes, the action %+v left %q", p, a, after[p])
			}
		}
		if !ok && !maps.Equal(after, c.world) {
			rt.Fatalf("a stopped action changed %v to %v", c.world, after)
		}
		if a.why != "" && (a.from != noSource || a.remove != "") {
			rt.Fatalf("a refusal acts: %+v", a)
		}
	})
}

// An action that is not refused and runs through leaves the file as the
// journal's direction says (forward: the new bytes at the target; back:
// the old bytes at the path, the created file and the destination gone),
// and never removes the last copy of the bytes it keeps.
func TestLaw_recovery_action_ends_as_the_journal_says(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		c := drawActionCase(rt)
		a := recoveryAction(c.jf, c.back, c.seen())
		after, ok := run(a, c.world)
		if a.why != "" || !ok {
			return
		}
		jf := c.jf
		src, srcOK := after[jf.Path]
		dst, dstOK := after[jf.Dest]
		if jf.Dest == "" {
			dst, dstOK = "", false
		}
		switch {
		case jf.Create && !c.back:
			if src != jf.New {
				rt.Fatalf("created forward: %v", after)
			}
		case jf.Create:
			if srcOK {
				rt.Fatalf("created, back: %v", after)
			}
		case jf.Dest != "" && !c.back:
			if dst != jf.New || src == jf.Old {
				rt.Fatalf("moved forward: %v (from %v, action %+v)", after, c.world, a)
			}
		case jf.Dest != "":
			if src != jf.Old || dstOK {
				rt.Fatalf("moved back: %v (from %v, action %+v)", after, c.world, a)
			}
		case !c.back:
			if src != jf.New {
				rt.Fatalf("edited forward: %v", after)
			}
		default:
			if src != jf.Old {
				rt.Fatalf("edited back: %v", after)
			}
		}
	})
}
