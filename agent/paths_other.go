//go:build !windows

package agent

// windowsPaths: this system's paths are Unix paths (fileURIPath).
const windowsPaths = false
