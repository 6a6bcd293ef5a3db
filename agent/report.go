package agent

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// IssueType is the custom type of a report_issue row (S7.4).
const IssueType = "eukhe.tool_issue"

// Issue is one report_issue row: display-only — the user sees it, the
// model's context never gets it back.
type Issue struct {
	Type        string    `json:"type"`
	Display     bool      `json:"display"`
	Time        time.Time `json:"time"`
	Session     string    `json:"session"`
	Tool        string    `json:"tool"`
	Description string    `json:"description"`
}

// SessionLog is a session's JSONL log under the user's state directory:
// $XDG_STATE_HOME/eukhe/sessions/<id>.jsonl (default ~/.local/state). It
// holds the display-only rows.
type SessionLog struct {
	Path string
	mu   sync.Mutex
}

// SessionLogPath is where session id's log lives for this environment
// ("NAME" → value). A relative XDG_STATE_HOME is ignored, as the XDG spec
// says.
func SessionLogPath(env map[string]string, id string) string {
	state := env["XDG_STATE_HOME"]
	if !filepath.IsAbs(state) {
		state = filepath.Join(env["HOME"], ".local", "state")
	}
	return filepath.Join(state, "eukhe", "sessions", id+".jsonl")
}

// SessionsDir is the directory of the session logs and transcripts for
// this environment (package transcript reads the transcripts there).
func SessionsDir(env map[string]string) string {
	return filepath.Dir(SessionLogPath(env, "x"))
}

// Append writes one row as a line.
func (l *SessionLog) Append(row any) error {
	b, err := json.Marshal(row)
	if err != nil {
		return err
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := os.MkdirAll(filepath.Dir(l.Path), 0o700); err != nil {
		return fmt.Errorf("the session log's directory %s: %v", filepath.Dir(l.Path), err)
	}
	f, err := os.OpenFile(l.Path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("the session log %s: %v", l.Path, err)
	}
	_, werr := f.Write(append(b, '\n'))
	cerr := f.Close()
	if werr != nil {
		return fmt.Errorf("the session log %s: %v", l.Path, werr)
	}
	return cerr
}

// reportArgs are report_issue's arguments.
type reportArgs struct {
	I           string `json:"i"`
	Tool        string `json:"tool"`
	Description string `json:"description"`
}

const reportDescription = "Report a tool that failed or did not do what its description says. The user sees the report; nothing comes back to you but an acknowledgement."

const reportSchema = `{"type":"object","properties":{"tool":{"type":"string","description":"The tool's name."},"description":{"type":"string","description":"What went wrong: what you called, what you expected, what happened."}},"required":["tool","description"],"additionalProperties":false}`

// ReportAck is the whole result of a report_issue call.
const ReportAck = "Reported; the user will see it."
