package urls

// windowsNames: the names of a local path are Windows names (walkLocal).
const windowsNames = true

// climbNote is said after a climb with "..": a backslash divides there.
const climbNote = " (a backslash divides a path as '/' does on Windows)"
