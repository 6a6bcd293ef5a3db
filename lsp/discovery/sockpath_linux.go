package discovery

// maxSocketPath is the longest path a Unix socket can have on Linux.
const maxSocketPath = 107

// shortDir leaves the directory as it is on Linux: a path too long for a
// socket is refused by ListenEntry with a message naming XDG_RUNTIME_DIR.
func shortDir(dir string) string { return dir }
