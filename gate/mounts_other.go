//go:build !linux

package gate

// mountTable is empty off Linux: macOS's bind-like mounts (nullfs) and
// Windows' junctions and subst drives are not read here (guide/platforms.md).
func mountTable() []mount { return nil }

// mountWatch is none off Linux (no mount table is read).
type mountWatch struct{}

func newMountWatch() *mountWatch { return nil }

func (*mountWatch) changed() ([]mount, bool) { return nil, false }
