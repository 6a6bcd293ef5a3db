package docs

import (
	"context"
	"fmt"
)

// WriteArgs are the write tool's arguments: a path and its whole new text.
type WriteArgs struct {
	Path    string `json:"path"`
	Content string `json:"content"`
}

// KeepStyle is what a whole-file write keeps of the file it replaces
// (lines_write_keeps): the file's BOM, and its first line ending for every
// ending of the new text. It warns iff both texts have endings and the new
// text's differ from the file's.
func KeepStyle(old Projection, content []byte) (out []byte, warn string) {
	np := Scan(content) // its own BOM, if any, is not text
	body := content[bomLen(np):]
	want := old.FirstEnding()
	out = make([]byte, 0, len(content)+len(np.Lines)+3)
	if old.BOM {
		out = append(out, BOM...)
	}
	if !old.HasEndings() {
		return append(out, body...), ""
	}
	differ := false
	for _, l := range np.Lines {
		text := np.Src[l.Start:l.End]
		out = append(out, text...)
		if l.Ending != NoEnding {
			differ = differ || l.Ending != want
			out = append(out, separator(text, want)...)
		}
	}
	if differ {
		warn = fmt.Sprintf("the content had %s line endings; they were written as the file's %s", other(want), want)
	}
	return out, warn
}

func bomLen(p Projection) int {
	if p.BOM {
		return len(BOM)
	}
	return 0
}

func other(e Ending) string {
	if e == LF {
		return "CRLF"
	}
	return "LF"
}

// MayReplace is the rule of S8.3 (write_never_loses_unseen,
// write_writes_seen): a write replaces an existing file only when its bytes
// are a version this session saw.
func MayReplace(exists bool, seen bool) bool { return !exists || seen }

// Write is the write tool (S8.3). A path this session saw that is gone
// now is not created again silently: the first write is refused, saying
// the file was moved or deleted, and a write after that refusal creates
// it (a new file needs a path that did not exist when last seen). A
// read-only file is refused by the commit's check (commit.go).
func (t *Tools) Write(ctx context.Context, a WriteArgs) Result {
	if a.Path == "" {
		return failed("write needs a path and the whole new content: {\"path\": \"notes.md\", \"content\": \"...\"}")
	}
	if IsURL(a.Path) {
		return failed("NOT written: %s is a URL; write creates or replaces a file by path (read takes URLs)", a.Path)
	}
	abs := t.Abs(a.Path)
	shown := t.Display(abs)
	real, err := t.allow(ctx, abs, WriteAccess)
	if err != nil {
		return refused("NOT written: ", err)
	}
	snap, err := t.readReal(real)
	defer snap.Release()
	if err != nil {
		return failed("NOT written: %s cannot be read to check it: %v", shown, err)
	}
	if snap.Stat.Dir {
		return failed("NOT written: %s is a directory", shown)
	}
	content := []byte(a.Content)
	var warns []string
	change := Change{Path: abs, New: content, Still: t.still(abs, real)}
	if !snap.Stat.Exists {
		if len(t.Session.Files[abs]) > 0 {
			// Seen, and gone now: another program moved or deleted it.
			// Writing would bring back a file someone took away; the
			// refusal shows its absence, so writing again creates it.
			t.Session.Forget(abs)
			return notWritten("%s is gone: this session read it, and it was moved or deleted since. Find where it went (glob) before writing it elsewhere; to create %s anew, write it again.", shown, shown)
		}
		change.Create = true
	} else {
		d := DigestOf(snap.Data)
		if !MayReplace(true, t.Session.Knows(abs, d) != nil) {
			why := "this session has not read it"
			if len(t.Session.Files[abs]) > 0 {
				why = "it changed since this session last saw it"
			}
			return notWritten("%s exists and %s, so writing would lose what is there. Read it first, then write.", shown, why)
		}
		change.Old, change.OldStamp = snap.Data, snap.Stamp
		if enc := Encoding(snap.Data); enc != "" {
			warns = append(warns, fmt.Sprintf("the old file was %s, not UTF-8; it is UTF-8 now", enc))
		} else {
			var w string
			change.New, w = KeepStyle(Scan(snap.Data), content)
			if w != "" {
				warns = append(warns, w)
			}
		}
	}
	if ctx.Err() != nil {
		return cancelled("write", shown, "nothing was written")
	}
	// From here the commit runs to its end whatever happens to ctx: a
	// cancelled call never leaves a half-applied commit.
	res := t.Store.Commit([]Change{change})
	landedAs := fmt.Sprintf("%s#%s", shown, DigestOf(change.New).Tag())
	text, isErr := Reply([]string{shown}, []string{landedAs}, res)
	if !isErr && res.Conflict == nil {
		np := Scan(change.New)
		v := t.Session.Saw(abs, np, DigestOf(change.New))
		v.Seen.AddRange(1, len(np.Lines))
		text = fmt.Sprintf("Wrote %s (%s).", landedAs, Count(len(np.Lines), "line"))
		for _, w := range warns {
			text += "\nwarning: " + w
		}
		if o := res.Outcomes[0]; o.Warning != "" {
			text += "\nwarning: " + o.Warning
		}
	}
	return committed(text+t.recovered(res), isErr, []string{shown}, res)
}
