package agent

import (
	"errors"

	"github.com/eukhe/eukhe/agent/urls"
)

// The helpers of the URL tests that stayed in package agent (memory://,
// agent://, ssh://); package urls' own tests have the same ones.
// ssh_run_test.go has urlDeadline and urlWrite.

func urlKind(err error) string {
	var u *urls.Error
	if errors.As(err, &u) {
		return u.Kind
	}
	return ""
}

// walkModel is S7.6 written as a depth count over the segments: the names
// the path ends at, or escaped when the depth goes below the root at any
// point.
func walkModel(segs []string) (names []string, escaped bool) {
	for _, s := range segs {
		switch s {
		case "", ".":
		case "..":
			if len(names) == 0 {
				return nil, true
			}
			names = names[:len(names)-1]
		default:
			names = append(names, s)
		}
	}
	return names, false
}
