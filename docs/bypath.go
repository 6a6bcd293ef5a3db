package docs

import "errors"

// The one default of each capability, for a store or publisher that
// really cannot do better (a test's store in memory, a publisher that
// only lands bytes). The disk and the editor store never use them: their
// reads of a judged path follow no link, their walks read through a Tree.
// A type that embeds a default and the Disk does not compile (the method
// is ambiguous), so a default cannot hide the disk's own by accident.

// Paths is what any store can do: act by path.
type Paths interface {
	Read(path string) (Snapshot, error)
	List(dir string) ([]Entry, error)
	Stat(path string) (Stat, error)
}

// ByPath gives a store that can only act by path the rest of Store: the
// no-follow reads are reads by path (a link swapped in after the gate's
// judgment is followed), a walk reads by path (a link is still never
// followed as it is listed), and a batch writes nothing early. Embed it
// with Paths set to the store itself.
type ByPath struct{ Paths Paths }

// ReadNoLinks reads by path.
func (b ByPath) ReadNoLinks(path string) (Snapshot, error) { return b.Paths.Read(path) }

// ListNoLinks lists by path.
func (b ByPath) ListNoLinks(dir string) ([]Entry, error) { return b.Paths.List(dir) }

// OpenTree opens none: ErrNoTree makes the walk read by path.
func (ByPath) OpenTree(string, bool) (Tree, error) { return nil, ErrNoTree }

// Begin writes nothing early.
func (ByPath) Begin([]string) Batch { return NoBatch }

// ErrNoTree is OpenTree of a store that walks by path (ByPath).
var ErrNoTree = errors.New("this store has no trees: a walk reads by path")

// PlainPublisher gives a Publisher that only lands bytes the rest of
// Publisher: no refusal of its own, nothing prepared early, no file
// vouched for (the engine reads each one for its check).
type PlainPublisher struct{}

// Check refuses nothing.
func (PlainPublisher) Check(*Pending) string { return "" }

// PrepareEarly prepares nothing.
func (PlainPublisher) PrepareEarly([]*Pending) {}

// Unchanged vouches for nothing.
func (PlainPublisher) Unchanged(string, Stamp) (Stat, bool) { return Stat{}, false }
