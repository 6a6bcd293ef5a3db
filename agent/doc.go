// Package agent keeps the tool surface of S7: sessions, the fixed roster,
// the schemas the session sends, dyn and the tools behind it (MCP servers'
// tools, host tools, report_issue), the internal URLs of read, and the MCP
// server binding that `eukhe mcp` runs. It wires the gate into docs: the
// documents gate (G1.6, G1.7) is a docs.PathGuard here (guard.go). A
// tool call's context goes first into the docs tool and from there into
// the guard, which keeps none of its own: a call the client cancels
// (notifications/cancelled) withdraws the gate's question and stops a
// grep or glob walk at its next file.
//
// Sub-packages: shell (the runner and its sandbox), attach (eukhe mcp's
// link to the editor's server: attach, failover, late attach), roots (the
// workspace root from the client's roots), approvals (the `eukhe
// approvals` terminal), transcript (each session's calls log and its
// reading; its laws are in agent/transcript/doc.go). cmd/eukhe wires
// them; it decides nothing. urls (the internal URLs of read: repo://,
// skill://, mcp://, and the rejections of every scheme; its laws are in
// agent/urls/doc.go) is wired by the session here.
//
// Progress (progress.go): a call's progress sink rides in its context
// (docs.WithProgress). The MCP binding sets one for a tools/call whose
// _meta carries a progressToken; the editor's server sets one for its
// eukhe/tool requests and, through SetProgressWatch, joins one to every
// call of an agent attached to it. grep and glob report the files their
// walk got to (docs), bash the step the gate asks about or runs (its text
// as the gate shows it, its number among the script's steps) and the
// lines of output so far (bash_progress_says), every interval
// (Options.ProgressEvery, else EUKHE_PROGRESS_EVERY, else 100 ms for walks
// and DefaultBashProgressEvery for bash), never faster; a call shorter
// than one interval reports nothing, and without a sink nothing is
// computed. An MCP client is sent a report only when its count passed the
// last one sent (mcp_progress_increases: a walk's files, bash's report
// number, so a silent build still shows it runs). A bash call that
// becomes a job stops reporting when the call returns (its last report
// names the job); a bash {job} call reports while it waits for the job.
//
// Where each law lives:
//
//   - A tool call's result (result.go): Result holds how it ended as data
//     (Outcome: done, partial, job, not applied, refused, bad arguments,
//     failed, timed out, cancelled, with the refused step's effects and
//     reason, the edit's refused section, the job, the dropped bytes) and
//     what it shows as Parts (text, images). Result.Text is the one
//     renderer of what the model and the transcript read; mcp_result.go
//     the one place MCP content is made (an image is image content).
//     TestGolden (testdata/golden) keeps each outcome's text byte for byte.
//   - S7.1 roster_fixed, roster_sent_fixed: roster.go (Roster.Apply refuses
//     every change once Fix ran, with the typed *RosterFixed; Fix builds
//     each schema once); server.go sends the fixed roster in its order with
//     listChanged false. The roster (specs.go) is read, edit, write, grep,
//     glob, bash, ipython, dyn; bash declares gate.BashRunner and ipython
//     gate.CellRunner, so the gate's registry covers every runner (G4
//     gate_covers_every_runner).
//   - The ipython tool (S7 item 8, G4 ipython_gated_each_call and the
//     cell_* laws): ipython.go, over agent/shell's kernel (Runner.Cell).
//     A cell's kernel functions run the roster's handlers with the cell's
//     context marked gate.InCell (no question; what needs one raises
//     EukheError); the rows a cell's read() gets count as seen (S8.8).
//   - S7.3 schema_has_intent, schema_versioned, schema_keeps_params,
//     schema_build_idempotent: schema.go (Build), over an ordered JSON
//     object (object.go) so a schema goes on the wire as built.
//   - S7.2 dyn_reaches_joined, dyn_drops_quit: surface.go (Join, Quit) and
//     dyn.go (the dyn tool: list, run); clients.go runs mcp/SERVER/TOOL
//     through the go-sdk client, one connection per configured server,
//     stopped and restarted after a crash or a timeout.
//   - S7.4 report_issue: dyn.go and report.go (a display-only row of type
//     eukhe.tool_issue in the session's JSONL log, and Host.Issue for the
//     editor; the call's result only acknowledges).
//   - S7.5, S7.6, S7.9 internal URLs (path_rejects_escape,
//     path_resolves_inside): package agent/urls (its doc.go holds the
//     laws and their files); read hands every path holding "://" to the
//     session's urls.Reader (session.go wires it). What it needs from
//     here is passed in: Clients is its ResourceSource (mcp://), the
//     sshReader of ssh.go and ssh_run.go its SSH (ssh://, S7.9), the
//     transcriptURLs of memory.go its Memory (memory://, agent://).
//   - G5 routing: a session's chain is its own sink, then its parent's up
//     to the root (host.go, Host.Attach). A link's clients are asked by
//     the one approval broker (broker.go, Broker over Client: Ask,
//     Settled): every client that can be asked now gets the question at
//     once, the first answer wins, the others' asks are cancelled and each
//     is told how it settled (Settlement); no answer within the timeout
//     (settings.DefaultApprovalTimeout unless the settings say) or the
//     step ending is unanswered; "allow for this session" is granted there
//     only, in Grants. The clients: the agent's MCP client (Elicitor), an
//     `eukhe approvals` terminal (Terminal), the editor (package lsp), a
//     parent session in another process (cmd/eukhe, ClientSink).
//     Headless, the session's own sink is its approvals endpoint
//     (terminals.go, Terminals, a Broker): `eukhe approvals` terminals on
//     the session's discovery socket, eukhe/approve out (ApproveParamsOf),
//     answers in (ReplyOfWire), eukhe/approvalSettled to the losers
//     (SettledParamsOf); gateways are counted (the gateway rule). The
//     terminal's connection (terminal.go) is the editor server's too; the
//     terminal's own side, `eukhe approvals`, is agent/approvals. A
//     parent session running headless in another process is reached
//     through its endpoint (Headless.Remote; the endpoint's Relay asks
//     that session's chain, Headless.RelayTo), so a subagent's question
//     reaches its root's clients there too. The lines are package protocol's (Hello,
//     RelayQuestion, RelayAnswer, TerminalLine, TerminalAnswer). Unanswered, the model gets
//     gate.RefusalHinted with what works now (askers.go AnswerHint: the
//     client's window, else `eukhe approvals` in a terminal in the root).
//   - The agent's own MCP client (elicit.go, askers.go): when it declared
//     elicitation, a question also goes to it as elicitation/create
//     (ElicitForm: the step escaped, its effects, why it asks, the asking
//     agent; one enum field whose first value, deny, is also its default;
//     "allow for this session" only where route.SessionGrantable). accept with allow
//     runs; decline, cancel, an error, any other content and the approval
//     timeout deny (ElicitVerdict). Each link of the host's chain is
//     wrapped (withClients): the elicitors of the sessions at or below a
//     link join its clients unless a link above has interactive clients
//     (the editor, terminals), where they join that link's Broker
//     (AskWith), so one race asks them all; a losing elicitation's
//     context is cancelled (the SDK sends notifications/cancelled).
//     approval.elicitation false never sends one.
//   - DESIGN §11 memory:// and agent:// (memory.go, over the session's
//     transcript: package transcript, whose doc.go holds the log's laws):
//     each call gets an id (cN) and its whole result (Result.Whole when a
//     bound cut it) is kept in <state>/eukhe/sessions/<id>/ beside the
//     session's log: the last 200 calls or 64 MiB. A cut bash output
//     names memory://cN at its cut (the shell writes a random token there
//     that the session replaces with the id); a cut read gets a notice
//     naming it. memory://cN is rendered as rows like a read (selectors
//     page it, cN/K is one line; rows are not edit anchors). agent://S is
//     S's transcript when this session is on S's parent chain (each
//     transcript's meta.json names its parent). Both walk with
//     urls.WalkPath (S7.6). A call in which the user allowed a secret keeps
//     a note instead of its result (the link that gave the answer marks
//     the call's context; a secret allowed in a job after its call
//     returned withholds later job results too).
//
// One session builder: every way of running a tool is
// an agent Session with the documents gate and the shell gate over the
// host's policy and the user's settings. OpenLocal (local.go) builds the
// host of a root no editor serves, for `eukhe mcp` and `eukhe tool`; the
// editor's server opens its sessions on its own Host, `eukhe/tool` too;
// Session.Call (call.go) runs a roster tool by name with the handler MCP
// runs. Headless no client answers: a question is unanswered, refused.
//
// Sessions: each MCP connection is one Session (session.go) with its own
// docs.Session (seen lines), its own docs.Tools over the host's store, its
// gate chain and its MCP clients. Document calls of one session run one at
// a time (docs.Session is one agent's state). The Host interface is the
// seam to the editor: Headless keeps documents on disk; the editor's
// server implements Host with its buffers and dialogs.
//
// Chosen where the seed is silent:
//
//   - A declared i is moved first with its own schema and dropped from
//     required; a title that is not v<N> is replaced; a schema without
//     "type" gets "type": "object" first.
//   - Arguments are decoded strictly: an unknown parameter or a wrong type
//     is a tool error naming the parameter and what the tool takes; each
//     tool bounds its arguments' size (64 KiB for read, grep, glob; 32 MiB
//     for edit, write and dyn).
//   - stdio (stdio.go): a line that is not one JSON-RPC message gets a
//     JSON-RPC error and the session stays up (the SDK's own stdio
//     transport ends the session); at the end of input every call read is
//     answered before the session ends.
//   - dyn lists report_issue first, then host tools by name, then each
//     server's tools; a server that cannot be listed is a notice. dyn's
//     output is bounded like a read.
//   - A host tool cannot be named report_issue or mcp/…; a join of a name
//     already joined replaces it.
//   - The parent session comes from --parent, or from initialize's _meta
//     "eukhe/parent" (or capabilities.experimental.eukhe.parent).
//   - Elicitation is sent only to a client that completed the initialize
//     handshake with the capability (protocol up to 2025-11-25, which
//     every client that elicits speaks today). A client on the stateless
//     2026-07-28 protocol is never sent one: there a question would be an
//     input request of the call (SEP-2322), not built yet.
//   - The agent's client, under an editor, is asked beside the editor and
//     the terminals (not before them, as the nearest session would be):
//     the user answers wherever they look.
//   - A transcript directory left by an earlier session of the same id is
//     emptied when the session opens; transcripts are not removed when a
//     session ends (a parent may read a subagent's after it ended:
//     transcript.Open, Transcript.Close). They
//     and the session logs are removed SessionKeep (14 days) after their
//     last write, at most once a day, by the first session a long-lived
//     process (not a one-shot eukhe tool call) opens in that state
//     directory (prune.go), unless a session still holds the transcript
//     (an open transcript keeps a lock on its directory).
//   - A session keeps its root when the client's roots change
//     (package roots): it asks the client's roots again (roots/list) and its
//     next tool result says once, in one line, what they are now, the root
//     it still serves and how to serve the new one (restart the MCP
//     server, or --root): rootsnote.go, tested with the Go SDK's client
//     (cmd/eukhe mcp_roots_test.go).
//   - memory:// and agent:// of a session opened without a log path, or
//     opened OneShot (a one-shot `eukhe tool` call), is the rejection
//     scheme, saying that it keeps no transcript.
package agent
