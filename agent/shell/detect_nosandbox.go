//go:build !linux

package shell

// sandboxHint is what the refusal under shell.confinement "require" adds
// when no sandbox works: nothing to install here (bubblewrap and Landlock
// are Linux's); the Why says what this system lacks.
const sandboxHint = ""
