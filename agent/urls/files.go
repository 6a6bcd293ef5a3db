package urls

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/eukhe/eukhe/docs"
)

// readRepo is repo://path: a normal read of a file or directory under the
// workspace root.
func (r *Reader) readRepo(ctx context.Context, raw, rest string, bound int) (string, error) {
	return r.readUnder(ctx, raw, r.Root, "the workspace root", rest, bound)
}

// readSkill is skill://name (its SKILL.md), skill://name/path (a file
// under its directory) and skill:// (the skills there are).
func (r *Reader) readSkill(ctx context.Context, raw, rest string, bound int) (string, error) {
	if _, err := walkLocal(rest, windowsNames); errors.Is(err, errClimbs) {
		return "", Errorf(KindEscapes, raw, "the path climbs above the skill directories with \"..\"%s; name a skill: skill://<name> or skill://<name>/<path>", climbNote)
	}
	name, sub, hasSub := strings.Cut(rest, "/")
	if name == "" && !hasSub {
		return r.listSkills(raw)
	}
	if names, err := walkLocal(name, windowsNames); err != nil || len(names) != 1 || names[0] != name {
		why := ""
		if err != nil {
			why = " (" + err.Error() + ")"
		}
		return "", Errorf(KindArguments, raw, "%q is not a skill name%s; the first segment names the skill: skill://<name> or skill://<name>/<path>. Read skill:// for the list", name, why)
	}
	if r.Tools == nil {
		return "", Errorf(KindIO, raw, "this session has no document tools")
	}
	for _, dir := range r.SkillDirs {
		root := filepath.Join(dir, name)
		if st, err := r.Tools.Store.Stat(root); err != nil || !st.Exists || !st.Dir {
			continue
		}
		if strings.Trim(sub, "/") == "" {
			sub = "SKILL.md"
		}
		return r.readUnder(ctx, raw, root, "the directory of skill "+name, sub, bound)
	}
	return "", Errorf(KindNotFound, raw, "no skill %q in %s; read skill:// for the list", name, strings.Join(r.SkillDirs, " or "))
}

// listSkills names every skill, the first directory's where two have one
// of the same name.
func (r *Reader) listSkills(raw string) (string, error) {
	if r.Tools == nil {
		return "", Errorf(KindIO, raw, "this session has no document tools")
	}
	var b strings.Builder
	seen := map[string]bool{}
	for _, dir := range r.SkillDirs {
		es, err := r.Tools.Store.List(dir)
		if err != nil {
			continue // a skill directory that is not there has no skills
		}
		for _, e := range es {
			if e.Dir && !seen[e.Name] {
				seen[e.Name] = true
				fmt.Fprintf(&b, "skill://%s\t%s\n", e.Name, filepath.Join(dir, e.Name))
			}
		}
	}
	if len(seen) == 0 {
		return fmt.Sprintf("[skill://: no skills in %s]\n", strings.Join(r.SkillDirs, " or ")), nil
	}
	return fmt.Sprintf("[skill://: %s; read skill://<name> for one's SKILL.md]\n", docs.Count(len(seen), "skill")) + b.String(), nil
}

// readUnder reads path under root as a normal file read: the lexical walk,
// then the real-path check, then docs' read with the selector, if any.
func (r *Reader) readUnder(ctx context.Context, raw, root, rootName, path string, bound int) (string, error) {
	if r.Tools == nil {
		return "", Errorf(KindIO, raw, "this session has no document tools")
	}
	abs, sel, werr := r.localPath(root, path)
	if werr != nil {
		return "", localErr(raw, rootName, werr)
	}
	if err := realUnder(root, abs); err != nil {
		return "", fileErr(raw, rootName, err)
	}
	t := *r.Tools
	t.Bound = bound
	seen := &readWatch{Store: t.Store}
	t.Store = seen
	res := t.Read(ctx, docs.ReadArgs{Path: abs + sel})
	if res.Failed {
		return "", seen.failure(raw, sel != "", res.Text)
	}
	return res.Text, nil
}

// localPath is the file path names under root, walked by walkLocal, and
// the selector after it (":5-9") when path as a whole names nothing but
// the part before a selector walks: on Windows a ':' is never a plain
// name, so "a.go:5-9" is tried as a.go with a selector there first.
func (r *Reader) localPath(root, path string) (abs, sel string, err error) {
	join := func(names []string) string { return filepath.Join(append([]string{root}, names...)...) }
	names, err := walkLocal(path, windowsNames)
	if errors.Is(err, errClimbs) {
		return "", "", err
	}
	if err == nil {
		abs = join(names)
		if st, serr := r.Tools.Store.Stat(abs); serr != nil || st.Exists {
			return abs, "", nil
		}
	}
	p, _, isSel := docs.SplitSelector(path)
	if !isSel {
		return abs, "", err
	}
	pnames, perr := walkLocal(p, windowsNames)
	switch {
	case perr == nil:
		return join(pnames), path[len(p):], nil
	case err == nil && !errors.Is(perr, errClimbs):
		return abs, "", nil // a missing file, said by the read
	}
	return "", "", perr
}

// localErr is the rejection of a path walkLocal refused: a climb is
// escapes, a drive too (it names another root), any other name Windows
// would not open as itself under the root arguments.
func localErr(raw, rootName string, err error) *Error {
	var bad *badLocalName
	switch {
	case errors.As(err, &bad) && bad.Drive:
		return Errorf(KindEscapes, raw, "%v; name a path under %s with '/' between its parts", err, rootName)
	case errors.As(err, &bad):
		return Errorf(KindArguments, raw, "%v; name the file by its plain name under %s", err, rootName)
	}
	return Errorf(KindEscapes, raw, "the path climbs above %s with \"..\"%s; name a path under it", rootName, climbNote)
}

// readWatch is the Store of one URL read: it notes what docs' read of the
// file met, so that a failed read is typed without looking at the file
// again (and without reaching a file the documents gate refused).
type readWatch struct {
	docs.Store
	read bool
	stat docs.Stat
	err  error
}

func (w *readWatch) Read(path string) (docs.Snapshot, error) {
	snap, err := w.Store.Read(path)
	w.read, w.stat, w.err = true, snap.Stat, err
	return snap, err
}

// ReadNoLinks is the store's read of a real path with no link on the way,
// noted as Read notes. Every other method is the store's own.
func (w *readWatch) ReadNoLinks(path string) (docs.Snapshot, error) {
	snap, err := w.Store.ReadNoLinks(path)
	w.read, w.stat, w.err = true, snap.Stat, err
	return snap, err
}

// failure types a read docs refused; text is docs' own reply, which
// already says what to do next. Past the read of the file, the one
// refusal docs' read has left for a file of at most 4 MiB is that it is
// not UTF-8 text or holds a NUL byte (docs.ReadGate).
func (w *readWatch) failure(raw string, ranged bool, text string) *Error {
	e := &Error{URL: raw, Msg: strings.TrimSpace(text)}
	switch {
	case !w.read:
		e.Kind = KindNotAllowed // the documents gate refused the access
	case w.err != nil && errors.Is(w.err, fs.ErrPermission):
		e.Kind = KindPermissionDenied
	case w.err != nil && isMissing(w.err):
		e.Kind = KindNotFound
	case w.err != nil || w.stat.Dir:
		e.Kind = KindIO
	case !w.stat.Exists:
		e.Kind = KindNotFound
	case !ranged && w.stat.Size > docs.MaxSnapshotFileBytes:
		e.Kind = KindArguments
	default:
		e.Kind = KindBinary
	}
	return e
}
