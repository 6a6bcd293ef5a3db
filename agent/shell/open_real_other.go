//go:build !linux

package shell

import (
	"context"
	"io/fs"
	"os"

	"github.com/eukhe/eukhe/gate"
	"mvdan.cc/sh/v3/interp"
)

// openReal opens the real path the open handler judged (by path: only
// Linux has openat2 here).
func openReal(target string, flag int, perm os.FileMode) (*os.File, error) {
	return os.OpenFile(target, flag, perm)
}

// statReal stats the real path the stat handler judged, by path (no
// openat2 here: a link swapped after the judgement is followed); with
// follow false, rp is the entry itself.
func statReal(rp gate.RealPath, name string, follow bool) (fs.FileInfo, error) {
	target := rp.Native()
	if rp.Looped || rp.Problem != "" {
		target = name
	}
	var fi fs.FileInfo
	var err error
	if follow {
		fi, err = os.Stat(target)
	} else {
		fi, err = os.Lstat(target)
	}
	if pe, ok := err.(*os.PathError); ok {
		pe.Path = name
	}
	return fi, err
}

// accessReal is the interpreter's access check of the real path judged.
func accessReal(ctx context.Context, rp gate.RealPath, name string, mode interp.AccessMode) error {
	target := rp.Native()
	if rp.Looped || rp.Problem != "" {
		target = name
	}
	return interp.DefaultAccessHandler()(ctx, target, mode)
}
