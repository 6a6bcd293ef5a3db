package gate

import (
	"os"
	"sync"

	"golang.org/x/sys/windows"
)

// underWine tells whether this program runs under Wine, whose ntdll.dll
// exports wine_get_version (Windows' own has no such export), as
// docs/wine_windows.go tells it.
var underWine = sync.OnceValue(func() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
})

// hostHomes are the homes of this system that no variable of the user's
// environment names but whose stores are the user's: under Wine, the
// Unix user's home (WineUnixHome), where Wine links the profile's
// Documents and Desktop and which every Windows program reaches on Z:.
// On Windows itself none.
func hostHomes() []string {
	if !underWine() {
		return nil
	}
	if h, ok := WineUnixHome(os.Getenv("WINEHOMEDIR")); ok {
		return []string{h}
	}
	return nil
}
