package urls

import "fmt"

// The rejections of S7.5, S7.6 and S7.9: an Error's Kind.
const (
	KindScheme           = "scheme"            // unknown scheme, or one this server does not serve
	KindEscapes          = "escapes"           // a path above its root, lexically or by a symlink
	KindNotAllowed       = "not_allowed"       // an ssh host or an MCP server the settings do not name
	KindArguments        = "arguments"         // a malformed URL: host charset, missing name
	KindHost             = "host"              // ssh: unknown host, no connection, host key unknown or changed
	KindAuth             = "auth"              // ssh: the host refused each key
	KindNotFound         = "not_found"         // no such file or resource
	KindIsDirectory      = "is_directory"      // ssh: a directory, not a file
	KindPermissionDenied = "permission_denied" // the file cannot be read by this user
	KindBinary           = "binary"            // not UTF-8 text, or a NUL byte
	KindTimeout          = "timeout"           // the read did not fill the cap by the deadline
	KindIO               = "io"                // no ssh on PATH, or another failure
)

// Error is a read of a URL that was rejected or failed: Kind is one of
// the Kind constants, URL the URL as the model wrote it, Msg what happened
// and what to do next.
type Error struct {
	Kind string
	URL  string
	Msg  string
}

func (e *Error) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.URL, e.Kind, e.Msg)
}

// Errorf is the Error of kind for the URL raw, its message formatted.
func Errorf(kind, raw, format string, a ...any) *Error {
	return &Error{Kind: kind, URL: raw, Msg: fmt.Sprintf(format, a...)}
}

// SSHOff is the rejection of every ssh:// read while no host is allowed
// (S7.9.1): the setting ssh.hosts is empty, or no ssh reader is wired.
func SSHOff(raw string) *Error {
	return Errorf(KindNotAllowed, raw, "ssh:// reads are off: the setting ssh.hosts is empty. Only the user can allow a host, by adding it to ssh.hosts in the user settings.json (a project's settings cannot)")
}
