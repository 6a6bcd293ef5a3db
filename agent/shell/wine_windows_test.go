package shell

import "syscall"

// underWine reports whether the test runs under Wine: its ntdll exports
// wine_get_version, which Windows' does not.
func underWine() bool {
	return syscall.NewLazyDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
}
