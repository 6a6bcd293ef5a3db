package protocol

import "encoding/json"

// The discovery socket (README.md "The socket"): the JSON file beside each
// socket, the hello line a connection starts with and its answer, the
// lines an `eukhe approvals` terminal exchanges, and a subagent's question
// relayed to its parent's headless session.

// DiscoveryEntry is the JSON file beside a socket: who listens there and
// for which roots.
type DiscoveryEntry struct {
	PID    int      `json:"pid"`
	Socket string   `json:"socket"`
	Roots  []string `json:"roots"`
	Editor string   `json:"editor"` // the editor's clientInfo.name
	// Kind is "" for an editor's server (a document store that agents
	// attach to) and KindApprovals for a headless `eukhe mcp` session's
	// approvals endpoint, which only `eukhe approvals` attaches to.
	Kind string `json:"kind,omitempty"`
	// Session and Parent name a headless session and its parent.
	Session string `json:"session,omitempty"`
	Parent  string `json:"parent,omitempty"`
}

// KindApprovals marks the approvals endpoint of a headless session.
const KindApprovals = "approvals"

// The hellos (Hello.Eukhe) and the answer that takes one.
const (
	HelloAttach    = "attach"    // an agent's MCP session (editor's server only)
	HelloApprovals = "approvals" // an `eukhe approvals` terminal, or a gateway
	HelloRelay     = "relay"     // a subagent's question (headless endpoint only)
	HelloAttached  = "attached"  // HelloAnswer.Eukhe: the hello was taken
)

// Hello is the first line of a connection to a socket.
type Hello struct {
	Eukhe   string `json:"eukhe"`             // HelloAttach, HelloApprovals or HelloRelay
	Root    string `json:"root,omitempty"`    // attach: the agent's workspace root
	Parent  string `json:"parent,omitempty"`  // attach: the parent session (G5)
	Gateway bool   `json:"gateway,omitempty"` // approvals: a gateway asks no one
	// Question is a relay's question; Hops counts the relays it took, so
	// a chain of parents that loops through processes ends.
	Question *RelayQuestion `json:"question,omitempty"`
	Hops     int            `json:"hops,omitempty"`
}

// HelloAnswer is the line that answers a hello: {"eukhe": "attached"}
// (with the session an attach made), or an error, after which the
// connection closes. The editor's server answers an approvals hello with
// nothing; a headless endpoint answers it once the terminal is counted.
type HelloAnswer struct {
	Eukhe   string `json:"eukhe,omitempty"`
	Session string `json:"session,omitempty"`
	Error   string `json:"error,omitempty"`
}

// TerminalLine is a line sent to an `eukhe approvals` terminal: an
// eukhe/approve (ApproveParams) or eukhe/approvalSettled
// (ApprovalSettledParams) without JSON-RPC's envelope.
type TerminalLine struct {
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
}

// TerminalAnswer is a terminal's line answering a question: one of the
// Answer* words.
type TerminalAnswer struct {
	ID     string `json:"id"`
	Answer string `json:"answer"`
}

// RelayQuestion is a subagent's question relayed to its parent's headless
// session. Its keys are spelt as the gate's question's Go fields, as they
// always were on this wire.
type RelayQuestion struct {
	ID      string `json:"ID"`
	Session string `json:"Session"`
	Agent   string `json:"Agent"` // the asking subagent
	What    string `json:"What"`  // the step as it runs, escaped, or "write /real/path"
	// Effects is the set of all the step's effects as bits: read 1,
	// write 2, exec 4, net 8, outside 16, protected 32, secret 64.
	Effects uint8  `json:"Effects"`
	Step    int    `json:"Step"`
	Cell    bool   `json:"Cell,omitempty"` // an ipython cell's question
	Cwd     string `json:"Cwd"`
	// Reals are the real paths the step named when it was judged: a grant
	// the parent keeps for this question covers these only.
	Reals []string `json:"Reals,omitempty"`
}

// RelayAnswer is the line that answers a relayed question: approve, deny,
// unanswered or gateway_refused.
type RelayAnswer struct {
	Answer string `json:"answer"`
}
