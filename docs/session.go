package docs

import (
	"cmp"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/cespare/xxhash/v2"
)

// VersionsKept is how many seen versions a session keeps per file: the last
// 8 digests (S8.3, DESIGN.md §3.1).
const VersionsKept = 8

// Version is one version of a file that this session saw: its full digest,
// a hash of each line (so a stale edit can be rebased through a line diff
// without keeping the text), and the lines whose rows reached the model.
type Version struct {
	Digest Digest
	Lines  []uint64 // xxh64 of each line's text, in order
	Seen   LineSet
}

// Session is one agent session's document state: for each file (by absolute
// path), the versions it saw, oldest first.
type Session struct {
	Files map[string][]*Version
	// Landed keys the sections this session's edits landed (LandedKey),
	// newest last, at most LandedKept: a retry of one with its old tag
	// is already in the file (S8.2), whatever changed since.
	Landed []uint64

	lines int               // line hashes held, over every version kept
	used  map[string]uint64 // each file's last Saw (a tick)
	tick  uint64
}

// LinesKept bounds the line hashes a session keeps over all its files
// (8 bytes each: 16 MiB). Past it, the files it saw least recently are
// forgotten whole, down to nine tenths of it: an edit of one then asks to
// read it again, as an edit of a file never read does. A session's
// memory then follows what it works on, not every file it ever saw.
var LinesKept = 2 << 20

// LandedKept is how many landed sections a session remembers.
const LandedKept = 256

// LandedKey names one section as it was sent: its file, the version its
// tag names, and its ops.
func LandedKey(path string, d Digest, ops []Op) uint64 {
	h := xxhash.New()
	fmt.Fprintf(h, "%s\x00%016x", path, uint64(d))
	for _, o := range ops {
		fmt.Fprintf(h, "\x00%d %d %d %d", o.Kind, o.A, o.B, len(o.Lines))
		for _, l := range o.Lines {
			h.WriteString("\x00" + l)
		}
	}
	return h.Sum64()
}

// DidLand records a section that landed.
func (s *Session) DidLand(key uint64) {
	s.Landed = append(s.Landed, key)
	if len(s.Landed) > LandedKept {
		s.Landed = s.Landed[len(s.Landed)-LandedKept:]
	}
}

// HasLanded tells whether this session's edit of that section landed.
func (s *Session) HasLanded(key uint64) bool {
	for _, k := range s.Landed {
		if k == key {
			return true
		}
	}
	return false
}

// NewSession starts an empty session.
func NewSession() *Session { return &Session{Files: map[string][]*Version{}} }

// LineHashes hashes each line's text of a projection.
func LineHashes(p Projection) []uint64 {
	h := make([]uint64, len(p.Lines))
	for i, l := range p.Lines {
		h[i] = xxhash.Sum64(p.Src[l.Start:l.End])
	}
	return h
}

// Saw records that the session saw the file at path with these bytes (a
// read, a grep, its own write or edit) and returns that version; the
// version moves to the newest place. Seen lines are added by the caller.
func (s *Session) Saw(path string, p Projection, d Digest) *Version {
	return s.SawWith(path, d, func() []uint64 { return LineHashes(p) })
}

// SawWith is Saw with the line hashes given (grep hashes the lines of the
// bytes it searched); lines runs only for a version new to the session.
func (s *Session) SawWith(path string, d Digest, lines func() []uint64) *Version {
	s.touch(path)
	vs := s.Files[path]
	for i, v := range vs {
		if v.Digest == d {
			vs = append(append(vs[:i:i], vs[i+1:]...), v)
			s.Files[path] = vs
			return v
		}
	}
	v := &Version{Digest: d, Lines: lines()}
	vs = append(vs, v)
	s.lines += len(v.Lines)
	if len(vs) > VersionsKept {
		for _, old := range vs[:len(vs)-VersionsKept] {
			s.lines -= len(old.Lines)
		}
		vs = vs[len(vs)-VersionsKept:]
	}
	s.Files[path] = vs
	if s.lines > LinesKept {
		s.shed(path)
	}
	return v
}

func (s *Session) touch(path string) {
	if s.used == nil {
		s.used = map[string]uint64{}
	}
	s.tick++
	s.used[path] = s.tick
}

// shed forgets the files seen least recently, whole, until the session
// holds nine tenths of LinesKept; keep (the file just seen) stays.
func (s *Session) shed(keep string) {
	type file struct {
		path string
		used uint64
	}
	var fs []file
	for p := range s.Files {
		if p != keep {
			fs = append(fs, file{p, s.used[p]})
		}
	}
	slices.SortFunc(fs, func(a, b file) int { return cmp.Compare(a.used, b.used) })
	for _, f := range fs {
		if s.lines <= LinesKept/10*9 {
			return
		}
		s.Forget(f.path)
	}
}

// Knows tells whether the session saw this exact version of path.
func (s *Session) Knows(path string, d Digest) *Version {
	for _, v := range s.Files[path] {
		if v.Digest == d {
			return v
		}
	}
	return nil
}

// ByTag finds the most recent seen version of path whose digest ends in tag.
func (s *Session) ByTag(path string, t Tag) *Version {
	vs := s.Files[path]
	for i := len(vs) - 1; i >= 0; i-- {
		if vs[i].Digest.Tag() == t {
			return vs[i]
		}
	}
	return nil
}

// Forget drops what the session knows of path (a move's source).
func (s *Session) Forget(path string) {
	for _, v := range s.Files[path] {
		s.lines -= len(v.Lines)
	}
	delete(s.Files, path)
	delete(s.used, path)
}

// HeldLines is how many line hashes the session holds (LinesKept bounds
// it).
func (s *Session) HeldLines() int { return s.lines }

// sessionFile is the persisted form of a Session.
type sessionFile struct {
	Files  map[string][]versionFile `json:"files"`
	Landed []string                 `json:"landed,omitempty"`
}

type versionFile struct {
	Digest string   `json:"digest"`
	Lines  []byte   `json:"lines"` // little-endian line hashes
	Seen   [][2]int `json:"seen"`  // runs of seen lines
}

// MarshalJSON persists the session (for `eukhe tool --session FILE`).
func (s *Session) MarshalJSON() ([]byte, error) {
	f := sessionFile{Files: map[string][]versionFile{}}
	for _, k := range s.Landed {
		f.Landed = append(f.Landed, fmt.Sprintf("%016x", k))
	}
	for path, vs := range s.Files {
		for _, v := range vs {
			vf := versionFile{Digest: fmt.Sprintf("%016x", uint64(v.Digest)), Lines: make([]byte, 8*len(v.Lines))}
			for i, h := range v.Lines {
				binary.LittleEndian.PutUint64(vf.Lines[8*i:], h)
			}
			v.Seen.Each(func(a, b int) { vf.Seen = append(vf.Seen, [2]int{a, b}) })
			f.Files[path] = append(f.Files[path], vf)
		}
	}
	return json.Marshal(f)
}

// UnmarshalJSON loads a persisted session.
func (s *Session) UnmarshalJSON(b []byte) error {
	var f sessionFile
	if err := json.Unmarshal(b, &f); err != nil {
		return err
	}
	s.Files = map[string][]*Version{}
	s.Landed, s.lines, s.used = nil, 0, nil
	for _, k := range f.Landed {
		var v uint64
		if _, err := fmt.Sscanf(k, "%016x", &v); err != nil {
			return fmt.Errorf("session file: bad landed edit %q", k)
		}
		s.Landed = append(s.Landed, v)
	}
	for path, vfs := range f.Files {
		for _, vf := range vfs {
			var d uint64
			if _, err := fmt.Sscanf(vf.Digest, "%016x", &d); err != nil {
				return fmt.Errorf("session file: bad digest %q for %s", vf.Digest, path)
			}
			if len(vf.Lines)%8 != 0 {
				return fmt.Errorf("session file: bad line hashes for %s", path)
			}
			v := &Version{Digest: Digest(d), Lines: make([]uint64, len(vf.Lines)/8)}
			for i := range v.Lines {
				v.Lines[i] = binary.LittleEndian.Uint64(vf.Lines[8*i:])
			}
			for _, r := range vf.Seen {
				v.Seen.AddRange(r[0], r[1])
			}
			s.Files[path] = append(s.Files[path], v)
			s.lines += len(v.Lines)
		}
	}
	return nil
}
