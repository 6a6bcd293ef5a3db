package settings

import "fmt"

// Level is how much an event matters.
type Level uint8

// The three levels.
const (
	// Info: a file was read and its settings are in force.
	Info Level = iota
	// Warning: something in a file was ignored, or a file went away; the
	// rest is in force.
	Warning
	// Error: a file could not be used; the last good settings stay in
	// force.
	Error
)

func (l Level) String() string {
	switch l {
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "info"
}

// Event tells the user what happened to a settings file: a file that
// loaded, a key that was ignored, a file that is broken (with its line and
// column). No rule is ever dropped without one.
type Event struct {
	Level Level
	// File is the settings file.
	File string
	// Line and Col are 1-based; 0 when the event is about the whole file.
	Line, Col int
	Message   string
	// Removed marks the Warning of a file that went away: none of the
	// file's earlier problems stands any more (a reader that keeps a
	// file's problems, lsp's settingsStatus, drops them on it).
	Removed bool
}

func (e Event) String() string {
	pos := e.File
	if e.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	return fmt.Sprintf("%s: %s: %s", e.Level, pos, e.Message)
}
