package docs

import (
	"context"
	"fmt"
)

// The edit tool's first two steps: the plan (pure: which files each
// section names) and the judgment of each path by the guard (the gate).

// planEdit is an edit's plan: each section staged with its file, a move's
// destination and the names the reply shows (a section's name is "a" or
// "a -> b": staged.name). A path
// A path that is a URL, or a file named twice, stops the plan at that section:
// err says so, and planned holds the sections before it (each still to
// be judged before the error is told, as the sections are in order).
func planEdit(secs []Section, abs, display func(string) string) (planned []*staged, err error) {
	claimed := map[string]int{}
	claim := func(p string, at int) error {
		if prev, ok := claimed[p]; ok {
			return fmt.Errorf("patch line %d: %s is already named at patch line %d; put all of a file's ops in one section. Nothing was written", at, display(p), prev)
		}
		claimed[p] = at
		return nil
	}
	for _, sec := range secs {
		for _, p := range []string{sec.Path, sec.Move} {
			if IsURL(p) {
				return planned, fmt.Errorf("patch line %d: %s is a URL; edit changes files by path (read takes URLs). Nothing was written", sec.At, p)
			}
		}
		s := &staged{sec: sec, abs: abs(sec.Path)}
		s.shown = display(s.abs)
		if err := claim(s.abs, sec.At); err != nil {
			return planned, err
		}
		if sec.Move != "" {
			s.dest = abs(sec.Move)
			s.destShown = display(s.dest)
			if err := claim(s.dest, sec.At); err != nil {
				return planned, err
			}
		}
		planned = append(planned, s)
	}
	return planned, nil
}

// editTarget is a planned section whose paths the guard allowed: the
// real path it judged, and the checks that the paths still resolve there
// under the writer's lock.
type editTarget struct {
	s      *staged
	real   string
	checks []func() error
}

// judgeEdit asks the guard for each planned path, in order (a question
// may go to the user); the first refusal is the edit's reply.
func (t *Tools) judgeEdit(ctx context.Context, planned []*staged) ([]editTarget, error) {
	var ts []editTarget
	for _, s := range planned {
		real, err := t.allow(ctx, s.abs, WriteAccess)
		if err != nil {
			return nil, err
		}
		checks := []func() error{t.still(s.abs, real)}
		if s.dest != "" {
			realDest, err := t.allow(ctx, s.dest, WriteAccess)
			if err != nil {
				return nil, err
			}
			checks = append(checks, t.still(s.dest, realDest))
		}
		ts = append(ts, editTarget{s, real, checks})
	}
	return ts, nil
}

// beginEdit begins a commit of several files: the store's journal first,
// then each file's new bytes written as soon as they are made (the
// disk's; a store that writes nothing early gives NoBatch). One file: nil.
func (t *Tools) beginEdit(ts []editTarget) Batch {
	if len(ts) <= 1 {
		return nil
	}
	var paths []string
	for _, tg := range ts {
		paths = append(paths, tg.s.abs)
		if tg.s.dest != "" {
			paths = append(paths, tg.s.dest)
		}
	}
	return t.Store.Begin(paths)
}
