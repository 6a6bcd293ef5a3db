package lsp

import (
	"fmt"

	lsproto "go.lsp.dev/protocol"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/protocol"
)

// What reaches the editor unasked: settings events and report_issue rows.

// settingsEvent shows a settings file's problem in the editor: an invalid
// file is an Error (the last good settings stay in force), an ignored key
// (a gate in a project file) or a removed file a Warning. A file that
// loaded is only logged.
func (s *Server) settingsEvent(e settings.Event) {
	s.problems.note(e)
	if e.Level == settings.Info {
		s.logf("settings: %s", e)
		return
	}
	typ, tail := lsproto.MessageTypeWarning, ""
	if e.Level == settings.Error {
		typ, tail = lsproto.MessageTypeError, " The last good settings stay in force."
	}
	pos := e.File
	if e.Line > 0 {
		pos = fmt.Sprintf("%s:%d:%d", e.File, e.Line, e.Col)
	}
	client, _, life, ok := s.editor()
	if !ok {
		s.logf("settings: %s", e)
		return
	}
	if err := client.ShowMessage(life, &lsproto.ShowMessageParams{Type: typ,
		Message: fmt.Sprintf("eukhe settings %s: %s.%s", pos, e.Message, tail)}); err != nil {
		s.logf("settings: %s", e)
	}
}

// toolIssue forwards a report_issue row: eukhe/toolIssue to a client that
// implements it, window/logMessage to any other.
func (s *Server) toolIssue(is agent.Issue) {
	client, conn, life, ok := s.editor()
	if !ok {
		s.logf("report_issue from session %s on %s: %s", is.Session, is.Tool, is.Description)
		return
	}
	if s.capabilities().implements(protocol.MethodToolIssue) {
		_ = notify(life, conn, protocol.MethodToolIssue, protocol.ToolIssueParams{Session: is.Session, Tool: is.Tool, Description: is.Description})
		return
	}
	_ = client.LogMessage(life, &lsproto.LogMessageParams{Type: lsproto.MessageTypeWarning,
		Message: fmt.Sprintf("eukhe: an agent (session %s) reports tool %s: %s", is.Session, is.Tool, is.Description)})
}
