package discovery

import (
	"errors"
	"net"
	"os"
	"sync"
	"time"
)

// Finder is Find for a caller that looks again and again for the same
// directory's editor (a headless eukhe mcp at each tools/call): when the
// last look found no server of the kind at all and the directory has not
// changed since (its modification time, which every Listen, Close and
// stale removal changes), it answers ErrNone from one stat instead of
// reading every session's file. It still looks in full every Recheck, for
// file systems whose times are coarse. A server that was found but did
// not answer is looked for again at once.
type Finder struct {
	Place

	Recheck time.Duration // 0: DefaultRecheck

	mu    sync.Mutex
	stamp time.Time // the directory's time at the last look that found none
	at    time.Time // when that look was
}

// DefaultRecheck is how often a Finder looks in full even when the
// directory seems unchanged.
const DefaultRecheck = time.Second

// Find is f.Place.Find(path), skipped when nothing can have changed.
func (f *Finder) Find(path string) (net.Conn, Entry, error) {
	fi, err := os.Lstat(f.Dir)
	if err != nil {
		return nil, Entry{}, err
	}
	every := f.Recheck
	if every <= 0 {
		every = DefaultRecheck
	}
	f.mu.Lock()
	same := !f.at.IsZero() && fi.ModTime().Equal(f.stamp) && time.Since(f.at) < every
	f.mu.Unlock()
	if same {
		return nil, Entry{}, ErrNone
	}
	at := time.Now()
	conn, e, n, err := f.Place.find(path)
	f.mu.Lock()
	if n == 0 && errors.Is(err, ErrNone) {
		f.stamp, f.at = fi.ModTime(), at
	} else {
		f.at = time.Time{}
	}
	f.mu.Unlock()
	return conn, e, err
}
