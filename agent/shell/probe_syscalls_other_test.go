//go:build !linux

package shell

// probeSyscalls probes nothing where there is no seccomp filter to probe
// (the Unix-socket filter is Linux's: confine_seccomp_linux.go).
func probeSyscalls() {}
