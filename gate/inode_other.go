//go:build !unix

package gate

import "os"

func (osFS) Inode(string) (Inode, bool)     { return Inode{}, false }
func (osFS) DirDev(string) (uint64, bool)   { return 0, false }
func (osFS) Names(string) ([]string, error) { return nil, nil }

// dirChanged is the directory's modification time outside Unix (a
// Windows directory's time moves when an entry is added).
func dirChanged(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.ModTime().UnixNano()
}
