//go:build !windows

package urls

// windowsNames: the names of a local path are Unix names (walkLocal).
const windowsNames = false

// climbNote is said after a climb with "..": nothing more here.
const climbNote = ""
