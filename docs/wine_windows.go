package docs

import (
	"sync"

	"golang.org/x/sys/windows"
)

// underWine tells whether this program runs under Wine, whose ntdll.dll
// exports wine_get_version (Windows' own has no such export). Wine keeps
// files on a Unix file system and answers some questions about them
// otherwise than Windows does; the answers eukhe relies on are kept
// apart here (fileID, sameID) rather than guessed at elsewhere.
var underWine = sync.OnceValue(func() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
})
