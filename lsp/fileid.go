package lsp

import (
	"os"

	"github.com/eukhe/eukhe/gate"
)

// fileID is a regular file's identity under a path, as lstat gives it.
type fileID struct {
	known    bool // the path holds a regular file whose identity is known
	exists   bool // the path holds an entry of any kind
	dev, ino uint64
	links    uint64
}

// fileIDOf is the identity of the file at path, not following a link.
// Where the system gives no identity (gate.InodeFS), it is not known.
func fileIDOf(path string) fileID {
	var id fileID
	if path == "" {
		return id
	}
	if _, err := os.Lstat(path); err == nil {
		id.exists = true
	}
	if fsys, ok := gate.OS.(gate.InodeFS); ok {
		if in, ok := fsys.Inode(path); ok {
			id.known, id.dev, id.ino, id.links = true, in.Dev, in.Ino, in.Nlink
		}
	}
	return id
}
