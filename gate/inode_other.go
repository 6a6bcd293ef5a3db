//go:build !unix

package gate

func (osFS) Inode(string) (Inode, bool)     { return Inode{}, false }
func (osFS) DirDev(string) (uint64, bool)   { return 0, false }
func (osFS) Names(string) ([]string, error) { return nil, nil }
