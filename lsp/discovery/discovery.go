// Package discovery is how `eukhe mcp` and `eukhe approvals` find the
// editor's eukhe server for a directory (DESIGN.md §7): a per-user
// directory, a Unix socket per server in it, and beside each socket a JSON
// file naming the server's pid, socket, workspace roots and editor.
//
// What it keeps, and where:
//
//   - The directory (Dir): $XDG_RUNTIME_DIR/eukhe, else /tmp/eukhe-<uid>,
//     mode 0700. A directory not owned by the user, or open to anyone else,
//     is refused: another user could plant a server there. On macOS a
//     directory too long for a socket path (104 bytes) gives way to
//     /tmp/eukhe-<uid>; on Windows the default is
//     %LOCALAPPDATA%\eukhe\run and only the user's own profile holds it
//     (dir_windows.go says what is and is not checked there).
//   - Listen: a socket of mode 0600 and its JSON file, written whole
//     (temp + rename) once the socket listens; Close removes both.
//   - Find: the live editor's server whose root holds a directory, the
//     deepest root winning. A file whose pid is dead or whose socket
//     refuses is stale: it and its socket are removed.
//   - Every entry is signed with the user's discovery key, which only
//     eukhe reads (sign.go); an entry whose MAC does not verify is no
//     server's, wherever it lies — a directory named as another eukhe's
//     socket directory and an entry in it can be made by an agent's
//     step, but not signed (TestLaw_only_a_signed_entry_is_a_server).
//   - The signature binds the socket's path, not who listens there: every
//     dial goes through Dial, which asks the kernel who answers (peer.go:
//     SO_PEERCRED, LOCAL_PEERPID) and refuses a process that is not the
//     entry's or a user that is not this one; Find's error then says
//     another program took the socket's path
//     (TestLaw_a_server_is_the_process_its_entry_names).
//   - A headless `eukhe mcp` publishes its session as an approvals
//     endpoint (Kind "approvals", with its session and parent): Find never
//     returns one (it is no document store); FindApprovals dials every one
//     whose root holds a directory, for `eukhe approvals`; FindSession
//     dials one session's, where a subagent in another process relays its
//     questions (G5).
//
// It imports protocol (the JSON file's type), gate (the entry's name)
// and internal/userkey (the key): the CLI's start-up path imports it.
package discovery

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/internal/userkey"
	"github.com/eukhe/eukhe/protocol"
)

// Entry is one server's JSON file, as package protocol defines it.
type Entry = protocol.DiscoveryEntry

// ErrNone is Find's error when no live server serves the directory. When
// a live server's socket is answered by another process (Dial), Find's
// error wraps ErrNone and says so: errors.Is(err, ErrNone) holds.
var ErrNone = errors.New("no editor's eukhe server serves this directory")

// Dir is the per-user directory for env ("NAME" → value), made when
// missing, refused when another user owns it or its mode lets anyone else
// in.
func Dir(env map[string]string) (string, error) {
	dir := defaultDir(env)
	if rt := env["XDG_RUNTIME_DIR"]; filepath.IsAbs(rt) {
		dir = filepath.Join(rt, "eukhe")
	}
	dir = shortDir(dir)
	if err := makeDir(dir); err != nil {
		return "", fmt.Errorf("the eukhe socket directory %s: %v", dir, err)
	}
	return dir, Check(dir)
}

// Check refuses a directory that is not a directory, not the user's own,
// or open to the group or others.
func Check(dir string) error {
	fi, err := os.Lstat(dir)
	if err != nil {
		return fmt.Errorf("the eukhe socket directory %s: %v", dir, err)
	}
	switch {
	case !fi.IsDir():
		return fmt.Errorf("the eukhe socket directory %s is not a directory; remove it", dir)
	case !ownedByUser(fi):
		return fmt.Errorf("the eukhe socket directory %s is not yours; remove it or set XDG_RUNTIME_DIR", dir)
	case !private(fi):
		return fmt.Errorf("the eukhe socket directory %s has mode %o; it must be 0700 (chmod 700 it)", dir, fi.Mode().Perm())
	}
	return nil
}

// Place is a socket directory (Dir) and the directory of the key that
// signs its entries (KeyDir, sign.go).
type Place struct {
	Dir, KeyDir string
}

// Open is the Place for env ("NAME" → value): Dir's directory, made when
// missing, and KeyDir's.
func Open(env map[string]string) (Place, error) {
	dir, err := Dir(env)
	return Place{Dir: dir, KeyDir: KeyDir(env)}, err
}

// Listener is one server's socket and JSON file.
type Listener struct {
	net.Listener
	Entry Entry
	file  string
}

// Listen makes a socket in p's directory and, once it listens, the JSON
// file naming it, signed.
func (p Place) Listen(roots []string, editor string) (*Listener, error) {
	return p.ListenEntry(Entry{Roots: roots, Editor: editor})
}

// entryBase is the name of a server's entries before their suffix
// (.sock, .json, .json.tmp): its PID and 4 random bytes in hex, the form
// gate.DiscoveryEntryName holds and discovery reads.
func entryBase(pid int, random [4]byte) string {
	return fmt.Sprintf("%d-%s", pid, hex.EncodeToString(random[:]))
}

// ListenEntry is Listen for any entry (a headless session's approvals
// endpoint): its PID and Socket are set here.
func (p Place) ListenEntry(e Entry) (*Listener, error) {
	dir := p.Dir
	if err := Check(dir); err != nil {
		return nil, err
	}
	if p.KeyDir == "" {
		return nil, errNoStateDir
	}
	key, err := userkey.Key(p.KeyDir)
	if err != nil {
		return nil, fmt.Errorf("the discovery key %s: %v", filepath.Join(p.KeyDir, userkey.Name), err)
	}
	var b [4]byte
	_, _ = rand.Read(b[:])
	base := filepath.Join(dir, entryBase(os.Getpid(), b))
	sock := base + ".sock"
	if len(sock) > maxSocketPath {
		return nil, fmt.Errorf("the socket path %s is longer than a Unix socket allows (%d bytes); set XDG_RUNTIME_DIR to a shorter directory", sock, maxSocketPath)
	}
	// The directory is 0700, so the moment before the chmod is not open
	// to anyone else (a umask would be the whole process's).
	ln, err := net.Listen("unix", sock)
	if err != nil {
		return nil, fmt.Errorf("listening on %s: %v", sock, err)
	}
	if err := chmodSocket(sock); err != nil {
		ln.Close()
		return nil, fmt.Errorf("the socket %s: %v", sock, err)
	}
	e.PID, e.Socket = os.Getpid(), sock
	l := &Listener{Listener: ln, Entry: e, file: base + ".json"}
	data := signedEntry(key, l.Entry)
	tmp := base + ".json.tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		ln.Close()
		return nil, fmt.Errorf("the discovery file %s: %v", l.file, err)
	}
	if err := os.Rename(tmp, l.file); err != nil {
		os.Remove(tmp)
		ln.Close()
		return nil, fmt.Errorf("the discovery file %s: %v", l.file, err)
	}
	return l, nil
}

// Close stops listening and removes the JSON file and the socket.
func (l *Listener) Close() error {
	os.Remove(l.file)
	err := l.Listener.Close() // removes the socket
	os.Remove(l.Entry.Socket)
	return err
}

// Find dials the live editor's server in p whose root holds path
// (absolute), the deepest root first. A headless session's approvals
// endpoint is never found here: it is no document store. Stale files are
// removed on the way.
func (p Place) Find(path string) (net.Conn, Entry, error) {
	conn, e, _, err := p.find(path)
	return conn, e, err
}

// find is Find that also says how many live servers' files held path.
func (p Place) find(path string) (net.Conn, Entry, int, error) {
	cs, err := p.live(path, "")
	if err != nil {
		return nil, Entry{}, 0, err
	}
	var taken error
	for _, c := range cs {
		conn, err := dial(c)
		if err == nil {
			return conn, c.e, len(cs), nil
		}
		if taken == nil && isNotTheServer(err) {
			taken = err
		}
	}
	if taken != nil {
		// the user's server lives, but another process answers at its
		// socket: say so, not only that none serves
		return nil, Entry{}, len(cs), fmt.Errorf("%w: %w", ErrNone, taken)
	}
	return nil, Entry{}, len(cs), ErrNone
}

// Endpoint is one dialled approvals endpoint.
type Endpoint struct {
	Conn  net.Conn
	Entry Entry
}

// FindApprovals dials every live headless session's approvals endpoint in
// p whose root holds path, oldest file first; skip names sockets already
// dialled. None is an empty list.
func (p Place) FindApprovals(path string, skip map[string]bool) ([]Endpoint, error) {
	cs, err := p.live(path, protocol.KindApprovals)
	if err != nil {
		return nil, err
	}
	var out []Endpoint
	for _, c := range cs {
		if skip[c.e.Socket] {
			continue
		}
		if conn, err := dial(c); err == nil {
			out = append(out, Endpoint{conn, c.e})
		}
	}
	return out, nil
}

// LookupSession finds the live approvals endpoint of headless session id
// without dialling it.
func (p Place) LookupSession(id string) (Entry, string, bool) {
	if Check(p.Dir) != nil {
		return Entry{}, "", false
	}
	key := p.key()
	for _, f := range entries(p.Dir) {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		if e, ok := verifiedEntry(key, data); ok && e.Kind == protocol.KindApprovals && e.Session == id && alive(e.PID) {
			return e, f, true
		}
	}
	return Entry{}, "", false
}

// FindSession dials the approvals endpoint of headless session id.
func (p Place) FindSession(id string) (net.Conn, Entry, error) {
	e, f, ok := p.LookupSession(id)
	if !ok {
		return nil, Entry{}, ErrNone
	}
	conn, err := dial(cand{e: e, file: f})
	if err == nil {
		return conn, e, nil
	}
	if isNotTheServer(err) {
		return nil, Entry{}, fmt.Errorf("%w: %w", ErrNone, err)
	}
	return nil, Entry{}, ErrNone
}

// key is p's discovery key, never made here: with none, no entry
// verifies.
func (p Place) key() []byte {
	if p.KeyDir == "" {
		return nil
	}
	k, _ := userkey.Existing(p.KeyDir)
	return k
}

// entries are the files of dir named as Listen names an entry
// (gate.DiscoveryEntryName: "<pid>-<8 hex>.json"): only those are read.
// The gate holds a name of this form secret in any directory named as a
// socket directory, an eukhe's started with another XDG_RUNTIME_DIR too;
// a file of another name there (planted by an agent's step, where the
// gate could not tell it from a project's package.json) is no entry.
func entries(dir string) []string {
	names, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	return slices.DeleteFunc(names, func(f string) bool { return !gate.DiscoveryEntryName(filepath.Base(f)) })
}

type cand struct {
	e     Entry
	file  string
	depth int
	mod   time.Time
}

// live are the entries of this kind whose pid lives and whose root holds
// path, deepest root first, then oldest.
func (p Place) live(path, kind string) ([]cand, error) {
	if err := Check(p.Dir); err != nil {
		return nil, err
	}
	key := p.key()
	var cs []cand
	for _, f := range entries(p.Dir) {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		e, ok := verifiedEntry(key, data)
		if !ok || e.Socket == "" {
			// not signed with this user's key: planted, or written by
			// an eukhe with another state directory (or an older one);
			// no server of ours, and not ours to remove
			continue
		}
		if !besideIt(f, e.Socket) {
			// Listen pairs each file with its socket, beside it: an entry
			// naming a socket elsewhere (a workspace's) is no server's
			continue
		}
		if !alive(e.PID) {
			removeStale(f, e)
			continue
		}
		if e.Kind != kind {
			continue
		}
		best := -1
		for _, r := range e.Roots {
			if holds(r, path) && len(r) > best {
				best = len(r)
			}
		}
		if best >= 0 {
			var mod time.Time
			if fi, err := os.Stat(f); err == nil {
				mod = fi.ModTime()
			}
			cs = append(cs, cand{e, f, best, mod})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool {
		if cs[i].depth != cs[j].depth {
			return cs[i].depth > cs[j].depth
		}
		return cs[i].mod.Before(cs[j].mod)
	})
	return cs, nil
}

// besideIt tells whether sock is the socket Listen pairs with file: the
// same name with .sock for .json, in the same directory, however it is
// spelled. The sockets themselves are compared, each resolved as the
// dial resolves it: a spelling whose ".." comes after a link
// (W/l/../D2/x.sock) names on paper the directory it reaches in the
// kernel's walk elsewhere (the thirteenth red team's).
func besideIt(file, sock string) bool {
	want := strings.TrimSuffix(filepath.Base(file), ".json") + ".sock"
	if filepath.Base(sock) != want {
		return false
	}
	a, err1 := os.Stat(filepath.Join(filepath.Dir(file), want))
	b, err2 := os.Stat(sock)
	if err1 == nil && err2 == nil {
		return os.SameFile(a, b)
	}
	// A socket gone (its server closed it; the entry is stale and goes
	// when the dial is refused): its directory, spelled without "..".
	if strings.Contains(sock, "/../") || strings.HasSuffix(sock, "/..") {
		return false
	}
	c, err3 := os.Stat(filepath.Dir(file))
	d, err4 := os.Stat(filepath.Dir(sock))
	return err3 == nil && err4 == nil && os.SameFile(c, d)
}

// dial connects to a candidate (Dial: its own process must answer); a
// socket that refuses is stale and goes. One where another process
// answers stays: the entry's server lives, and it is not ours to remove.
func dial(c cand) (net.Conn, error) {
	conn, err := Dial(c.e)
	if err != nil && (refused(err) || errors.Is(err, os.ErrNotExist)) {
		removeStale(c.file, c.e)
	}
	return conn, err
}

// removeStale removes a dead server's file, and its socket when the socket
// is in the same directory.
func removeStale(file string, e Entry) {
	os.Remove(file)
	if filepath.Dir(e.Socket) == filepath.Dir(file) {
		os.Remove(e.Socket)
	}
}

// holds tells whether root holds path (both absolute and clean).
func holds(root, path string) bool {
	root, path = filepath.Clean(root), filepath.Clean(path)
	if root == path || root == "/" {
		return true
	}
	return strings.HasPrefix(path, root+string(filepath.Separator))
}
