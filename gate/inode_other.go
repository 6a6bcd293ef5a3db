//go:build !unix

package gate

import "os"

func (osFS) Inode(string) (Inode, bool)     { return Inode{}, false }
func (osFS) DirDev(string) (uint64, bool)   { return 0, false }
func (osFS) Names(string) ([]string, error) { return nil, nil }

// dirStampOf is the directory at path's stamp (CommandList) outside
// Unix: its modification time (a Windows directory's time moves when an
// entry is added); the zero stamp when it is no directory.
func dirStampOf(path string) dirStamp {
	fi, err := os.Stat(path)
	if err != nil || !fi.IsDir() {
		return dirStamp{}
	}
	return dirStamp{changed: fi.ModTime().UnixNano()}
}
