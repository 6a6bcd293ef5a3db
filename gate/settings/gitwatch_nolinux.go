//go:build !linux

package settings

import "os"

// sysStamp is nothing more where the system gives no inode.
func sysStamp(os.FileInfo) any { return nil }
