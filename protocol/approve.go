package protocol

import "encoding/json"

// The eukhe/* methods of approvals, issues and host tools: the contract the server and the VS Code and Neovim clients share.
const (
	// Server → client request: ask the user about one gated step or
	// document access. Result: ApproveResult. A client that does not
	// implement it is asked with window/showMessageRequest instead.
	MethodApprove = "eukhe/approve"
	// Server → client notification: a question was settled elsewhere (an
	// answer from another client, the step ended, a timeout); drop it,
	// shown or queued.
	MethodApprovalSettled = "eukhe/approvalSettled"
	// Server → client notification: an agent reported a tool that failed
	// or did not do what it says (report_issue); show it to the user.
	MethodToolIssue = "eukhe/toolIssue"
	// Client → server requests: the editor lends a tool to the agents
	// (reached through dyn), and takes it back.
	MethodJoinTool = "eukhe/joinTool"
	MethodQuitTool = "eukhe/quitTool"
	// Server → client request: run a tool the client joined.
	MethodRunTool = "eukhe/runTool"
)

// The answers to eukhe/approve.
const (
	AnswerApprove        = "approve"
	AnswerDeny           = "deny"
	AnswerApproveSession = "approve_session" // this exact step, in this directory, for the session
)

// ApproveParams is one question. Text is the step exactly as it would run
// (control, bidi and invisible characters escaped); the dialog shows it
// whole, names the asking agent, and never defaults to yes.
type ApproveParams struct {
	ID      string   `json:"id"`
	Session string   `json:"session"`
	Agent   string   `json:"agent,omitempty"` // the asking subagent, "" for the session's own agent
	Text    string   `json:"text"`            // "rm -rf build" or "write /real/path"
	Cwd     string   `json:"cwd,omitempty"`
	Effects []string `json:"effects"`        // in the order read, write, exec, net, outside, protected, secret
	Step    int      `json:"step"`           // the step's number in its script, 0 for a document access or a cell
	Cell    bool     `json:"cell,omitempty"` // an ipython cell: text is its code, run as one step with the effect exec
	Offers  []string `json:"offers"`         // the answers the dialog may offer, deny first (the one a client pre-selects): deny, approve, and approve_session unless protected or secret
	// Deadline is when the question, unanswered, is denied (the server's
	// approval.timeoutSeconds from when it asked), RFC 3339; "" when the
	// server does not say. A dialog shows it; it never decides.
	Deadline string `json:"deadline,omitempty"`
}

// ApproveResult is the user's answer; anything but approve or
// approve_session (a dismissed dialog included) is a denial.
type ApproveResult struct {
	Answer string `json:"answer"`
}

// ApprovalSettledParams names a question that no longer waits.
type ApprovalSettledParams struct {
	ID     string `json:"id"`
	Answer string `json:"answer,omitempty"` // how it was settled, when known: approve, deny, unanswered
	// Reason says why, when it was not a client's answer: "timed out
	// after 120 s".
	Reason string `json:"reason,omitempty"`
}

// ToolIssueParams is a report_issue row (S7.4).
type ToolIssueParams struct {
	Session     string `json:"session"`
	Tool        string `json:"tool"`
	Description string `json:"description"`
}

// JoinToolParams lends an editor tool to the agents; they reach it as
// dyn's NAME.
type JoinToolParams struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"inputSchema"`
}

// QuitToolParams takes a tool back; agents can no longer reach it.
type QuitToolParams struct {
	Name string `json:"name"`
}

// RunToolParams runs a joined tool for an agent.
type RunToolParams struct {
	Name      string          `json:"name"`
	Session   string          `json:"session"`
	Arguments json.RawMessage `json:"arguments"`
}

// RunToolResult is the tool's text and whether it failed.
type RunToolResult struct {
	Text    string `json:"text"`
	IsError bool   `json:"isError,omitempty"`
}
