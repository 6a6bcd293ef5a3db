//go:build !linux

package shell

import (
	"errors"

	"github.com/eukhe/eukhe/gate/confine"
)

// shadows are bubblewrap's (shadow_linux.go); no other system shows a
// directory from a copy.
type shadows struct{ mounts []confine.Mount }

func shadowRoot(map[string]string) (string, error) {
	return "", errors.New("no sandbox here shows a directory from a copy")
}

func makeShadows(string, []string, []string, func(string) bool, func(string) bool) (*shadows, error) {
	return nil, errors.New("no sandbox here shows a directory from a copy")
}

func (sh *shadows) settle(string) []string { return nil }
