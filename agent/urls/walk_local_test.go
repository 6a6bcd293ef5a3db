package urls

import (
	"errors"
	"strings"
	"testing"
)

// TestWalkLocalWindowsSpellings: on Windows a backslash divides a path as
// '/' does, so "\.." and "a\..\..\x" climb above the root; a drive
// ("C:"), a stream ("x:s"), a device (CON, nul.txt) and a part of only
// dots and spaces are refused, whatever the host the test runs on. On
// other systems the same paths are names.
func TestWalkLocalWindowsSpellings(t *testing.T) {
	for _, c := range []struct {
		path          string
		windows, unix string // the names joined by '|', "!climbs" or "!name"
	}{
		{`\..`, "!climbs", `\..`},
		{`a\..\..\x`, "!climbs", `a\..\..\x`},
		{`a/..\..`, "!climbs", `a|..\..`},
		{`a\..\b`, "b", `a\..\b`},
		{`a\b/c`, "a|b|c", `a\b|c`},
		{`\\server\share\x`, "server|share|x", `\\server\share\x`},
		{`C:`, "!name", "C:"},
		{`C:\Windows\win.ini`, "!name", `C:\Windows\win.ini`},
		{`c:x`, "!name", "c:x"},
		{`src/a.go:stream`, "!name", "src|a.go:stream"},
		{`.git::$INDEX_ALLOCATION/config`, "!name", ".git::$INDEX_ALLOCATION|config"},
		{`\\?\C:\x`, "!name", `\\?\C:\x`},
		{`CON`, "!name", "CON"},
		{`docs/nul.txt`, "!name", "docs|nul.txt"},
		{`.. `, "!name", ".. "},
		{`...`, "!name", "..."},
		{`CON/..\..`, "!climbs", `CON|..\..`}, // a climb is said before a bad name
		{`a.go`, "a.go", "a.go"},
	} {
		for _, os := range []struct {
			windows bool
			want    string
		}{{true, c.windows}, {false, c.unix}} {
			names, err := walkLocal(c.path, os.windows)
			got := strings.Join(names, "|")
			switch {
			case errors.Is(err, errClimbs):
				got = "!climbs"
			case err != nil:
				got = "!name"
			}
			if got != os.want {
				t.Errorf("walkLocal(%q, windows=%v) = %q (%v), want %q", c.path, os.windows, got, err, os.want)
			}
		}
	}
}
