//go:build !linux

package gate

// mountTable is empty off Linux: macOS's bind-like mounts (nullfs) and
// Windows' junctions and subst drives are not read here (guide/platforms.md).
func mountTable() []mount { return nil }
