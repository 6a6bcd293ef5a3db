//go:build !linux || !amd64

package shell

// x32Socket: there is no x32 ABI off Linux on amd64.
func x32Socket() (uintptr, bool) { return 0, false }
