//go:build !windows

package transcript

import "testing"

// renamesOverOpen: rename(2) replaces an open file on every Unix.
func renamesOverOpen(*testing.T) (bool, string) { return true, "" }
