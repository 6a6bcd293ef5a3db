package gate

import (
	"os"
	"strings"

	"golang.org/x/sys/windows"
)

// osPath is a path in the gate's form ("/C:/a") as Windows opens it.
func osPath(p string) string { return nativeFromGate(p) }

// readlinkOS is a link's target in the gate's form: an absolute target
// made canonical ("C:\a" is "/C:/a"), a relative one with '/'.
func readlinkOS(p string) (string, error) {
	t, err := os.Readlink(osPath(p))
	if err != nil {
		return t, err
	}
	c, problem := WindowsCanonical(t)
	if problem != "" {
		return strings.ReplaceAll(t, `\`, "/"), nil
	}
	return gateFormWindows(c), nil
}

// WindowsNames: the host's file system opens names as Windows does.
func (osFS) WindowsNames() bool { return true }

// LongName expands the short names of the longest existing part of a
// canonical path with GetLongPathNameW; the rest stays as written.
func (osFS) LongName(path string) string {
	parts := strings.Split(path, "/")
	for n := len(parts); n > 0; n-- {
		head := strings.Join(parts[:n], "/")
		if head == "" || strings.HasSuffix(head, ":") {
			break
		}
		long, ok := longPathName(head)
		if !ok {
			continue
		}
		if n == len(parts) {
			return long
		}
		return strings.TrimSuffix(long, "/") + "/" + strings.Join(parts[n:], "/")
	}
	return path
}

// longPathName is GetLongPathNameW of an existing path, with '/'.
func longPathName(p string) (string, bool) {
	in, err := windows.UTF16PtrFromString(strings.ReplaceAll(p, "/", `\`))
	if err != nil {
		return "", false
	}
	buf := make([]uint16, 512)
	for {
		n, err := windows.GetLongPathName(in, &buf[0], uint32(len(buf)))
		if err != nil || n == 0 {
			return "", false
		}
		if int(n) < len(buf) {
			long := windows.UTF16ToString(buf[:n])
			c, problem := WindowsCanonical(long)
			if problem != "" {
				return "", false
			}
			return c, true
		}
		buf = make([]uint16, n)
	}
}
