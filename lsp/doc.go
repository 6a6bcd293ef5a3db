// Package lsp is eukhe's LSP server (`eukhe lsp`), run by the editor: the
// editor becomes the document store of the agent's tools. It translates
// and delegates; every rule of S7, S8 and G* lives in docs, gate and agent.
//
// What it keeps, and where:
//
//   - The connection (server.go): go.lsp.dev/protocol v1.0.1 over
//     go.lsp.dev/jsonrpc2 v1.0.1. Messages run inline on the read loop, in
//     the editor's order (text sync needs it); a method that calls back
//     into the editor releases the loop first (jsonrpc2.Async), so nothing
//     deadlocks and nothing waits behind it. A failing notification is
//     logged, never allowed to end the connection.
//   - Lifecycle (lifecycle.go): the client's capabilities (workspace edits,
//     documentChanges, resource operations, failure handling, showMessage,
//     work-done progress, position encodings, experimental.eukhe: its
//     kind, the eukhe/* methods it implements, checksVersions); utf-8
//     positions when offered, else utf-16 (position.go); incremental sync;
//     shutdown and exit, after which Serve returns at once (a reader
//     blocked on standard input is left to the process's end).
//   - The overlay (overlay.go, text.go, textsync.go): each open document's
//     exact text and version, from didOpen, didChange and didClose, with a
//     line index so a didChange costs one copy of the text's tail.
//     didChange applies in version order, whatever the client's name
//     (sequence.go): a full-text change resets the copy whatever its
//     version; a repeat of the last version applies in arrival order; one
//     that skips ahead is held for the missing versions (gapWait, 500 ms; a
//     read waits meanwhile). A gap never filled is the client's numbering
//     (Neovim's changedtick): it applies, and later gaps at once, unless
//     the client was seen to reorder; then, or when a version comes after
//     a later one, the document is unknown: reads and edits refused,
//     saying how to re-sync, until a full-text change or a didOpen.
//   - The editor Store (store.go, commit.go, publisher.go): reads give an
//     open document's text (unsaved changes included), else the disk's. A
//     commit is docs' commit engine (docs.CommitVia) with the editor's
//     publisher, so the check (bytes as the edit saw them — an open
//     document's text — rebased as a stale tag is, move destinations free,
//     created names free), the order and the restore are docs' only; the
//     publisher adds the editor's own refusals (a move onto an open
//     document, an editor without applyEdit or rename, an unknown document).
//     Open documents are published first (the editor may refuse or not
//     show an edit; the disk is touched only after), and a commit that
//     touches one keeps no intent journal. Open documents get workspace
//     edits with their exact
//     versions and minimal line-range edits (workspace_edit.go, hunks.go)
//     as documentChanges, or as changes (no versions) to a client that did
//     not announce documentChanges (Neovim takes them unannounced),
//     files not open go to the disk writer (docs.Disk), moves of open
//     documents are RenameFile with overwrite false, and no CreateFile is
//     ever sent (a new file is not open: the disk writer creates it).
//   - Landing (apply.go, watch.go, landing.go): applied: true proves
//     nothing, so a document landed iff the overlay, through the didChange
//     that follows, holds the edit: its new text, or that with the user's
//     changes on other lines (holds). The wait is Options.LandingWait while
//     the document is quiet, growing while it changes up to TypingWait;
//     past it the document is docs.Unconfirmed ("not confirmed yet: read
//     it again"), never reported not applied, and followed: when it shows,
//     a lone document's edit is reviewed, and so is one the editor answered
//     applied: true for (it applied it: vim-lsp tells 2.5 s after its
//     answer; never taken back), while one of an edit that did not land
//     whole that the editor did not answer for is put back. The landed
//     documents of one applyEdit a client checks whole (VS Code) answered
//     applied: true are not put back when another of it is not seen yet.
//     Right before each applyEdit every document must
//     still hold the edit's text at its version; a known refusal ends the
//     wait at once. A client that checks every version before applying any
//     (VS Code) gets one applyEdit; any other (Neovim checks only the
//     first document's version) gets one per document, in order, stopping
//     at the first that does not land. A document whose buffer moved on
//     before any of it was applied (the user typed between the check and
//     the apply: VS Code refuses, Neovim skips) is made again over the
//     user's text and sent again (rebase.go, at most maxRebases times);
//     only typing on the edit's own lines refuses it, naming those lines
//     (TestLaw_an_edit_rebased_under_typing_keeps_the_users_lines_and_the_edits).
//     An edit the editor may have applied is never sent twice: a refusal
//     (or error) from a client whose refusal does not prove that nothing
//     was applied (Neovim without the plugin) is watched like a landing,
//     and its document landed when its buffer holds the edit
//     (TestAnEditAppliedThenRefusedIsNotCalledNotApplied); a skip inferred
//     from a buffer back to the edit's very text is not sent again (the
//     user may have taken the edit back at once:
//     TestAnEditTheUserUndidAtOnceIsNotSentAgain; with typing elsewhere
//     in the same didChange, the text between its changes shows the edit
//     passed through: not sent again, not confirmed either, as the user's
//     typing can pass through the same text:
//     TestAnEditTheUserUndidWhileTypingElsewhereIsNotSentAgain). A
//     document closed and opened again starts its versions again, so a
//     client that checks texts (experimental.eukhe.checksTexts: the VS
//     Code extension) gets the hash of the text each document's edit was
//     made on (protocol.EditTexts) and applies nothing on another
//     (TestAReopenedBufferAtTheSameVersionDoesNotTakeTheEdit; open for
//     clients without the check). What
//     the user controls between the check and the apply is the buffer's
//     text and version; the law over it end to end:
//     TestLaw_the_users_typing_survives_rebase_and_undo_and_the_reply_is_true.
//     When one does not land, the
//     documents that did are put back by the inverse edit, rebased over
//     the user's changes elsewhere (rebaseBack), and the outcomes say
//     exactly what landed, for docs.Reply.
//   - Version 0 (probe.go): Neovim applies an edit at version 0 unchecked
//     while its debounce may hold the buffer's first change; without the
//     plugin (experimental.eukhe.checksVersions) an empty probe edit first
//     makes it tell what it held, and the edit follows at the version then
//     known, or is refused when the text moved.
//   - Saving (save.go): documents that were clean before an edit are saved
//     through eukhe/saveDocuments when the client implements it; a document
//     with unsaved user changes is left unsaved, and so is one the user
//     typed in between the check and the landing (a rebased edit, or
//     keystrokes told with the edit's didChange: only a buffer that is
//     exactly the edit's text is saved); whenever the disk copy then
//     differs from the edited text, the outcome's warning says so.
//   - Review (review.go, review_undo.go): eukhe/review tells the client the
//     hunks of each landed edit; eukhe/reviewDecision keeps or undoes a
//     hunk, a file or an edit; an undo is the inverse edit through the same
//     commit. A file the user typed in since has its hunks followed to
//     where they stand (review_follow.go); only a hunk whose own lines
//     changed is refused
//     (TestLaw_an_undo_after_typing_never_removes_the_users_bytes). A
//     rebased edit is reviewed as it landed (commit gives the editor's
//     rebased change), and an undo made again over typing during its
//     apply names the text that landed.
//   - Long calls (progress.go): a call of an attached agent (bash, grep,
//     glob) or of eukhe/tool (grep, glob) that runs longer than one
//     interval (Options.ProgressEvery, else EUKHE_PROGRESS_EVERY, else
//     the defaults) shows as work-done progress: on the request's
//     workDoneToken when eukhe/tool carries one, else, when the editor
//     supports work-done progress, on a token the server creates
//     (window/workDoneProgress/create); $/progress begin, a report each
//     interval (the files searched, the bash step and its lines of
//     output), and end, all before the reply. docs and agent tell how a
//     call goes (docs.Progress, each call's sink in its context); this
//     package only translates.
//   - eukhe/tool (tool.go, custom.go): a document tool call on a named
//     session of the server, so an LSP client alone can drive edits end to
//     end. Each named session is an agent session opened as an attached
//     agent's is (agent.Open over this server's host), so its accesses go
//     through the documents gate with the user's settings and ask in the
//     editor. $/cancelRequest naming an eukhe/tool
//     request cancels its context (cancel.go): a grep or glob stops at its
//     next file and answers how far it got; an edit already committing
//     finishes. The eukhe/* methods are documented in protocol/README.md.
//
// Choices where the design is silent: a client's version numbering is
// learnt from what it sends, never from its name (a gap waits gapWait
// once; a client that reorders by more than that before it was ever seen
// to reorder has its copy taken ahead, and unknown as soon as the late
// version comes); the landing's skip detection (landing.go) still knows
// Neovim, Eglot and emacs by name as telling in order; an unconfirmed edit is followed until its document is closed;
// whether an open document has unsaved
// changes is decided by comparing its text with the disk's (not by
// tracking didSave); a lone '\r' is text in positions, as in the document
// core; an edit that lands in the editor and then fails on disk is put back
// in the editor.
//
// Agents attached to the editor:
//
//   - Discovery (attach.go, package lsp/discovery): after initialized the
//     server listens on a socket in the per-user directory, with a JSON
//     file naming it (Options.Discover). A connection's hello line makes
//     it an agent's MCP session (agent.Serve over the connection) or an
//     `eukhe approvals` terminal. The files go at shutdown and exit. Every
//     line's type (the file, the hello and its answer, the terminal's
//     lines) is package protocol's (socket.go).
//   - The agent.Host (agents.go): the editor Store, the watched settings,
//     the path policy; Attach gives the G5 chain — the session's own link
//     (no client of its own), its parents attached here, then the editor's
//     session — and lends the session the editor's tools. Routing is
//     route.Chain's: no rule of G5 lives here. route_test.go runs that
//     route end to end over generated chains of one to four attached
//     subagents, the editor and terminals that answer, leave or attach as
//     the gateway, and a bash step that writes a file or a protected one.
//   - The approval sink of the editor's session (approvals.go,
//     approve_clients.go, dialogs.go): its interactive clients are the
//     editor (eukhe/approve when it implements it, else
//     window/showMessageRequest with Deny / Allow, null denying) and the
//     interactive terminals; gateways are only counted. The first action
//     of every form denies (offers start with deny; the actions with Deny):
//     Eglot pre-fills the first in its minibuffer. An editor that answers a
//     form with MethodNotFound falls to the next (eukhe/approve, then
//     showMessageRequest, then none) for the rest of the connection; one
//     that can show none (Helix) is not counted as interactive, so its
//     questions go to the terminals or end unanswered at once, the user is
//     told once (window/showMessage), and the agent's refusal says the
//     editor cannot show questions (route.Unheard). An editor that answers
//     no request at all (ALE: not even with MethodNotFound) is found by
//     one plain request at initialized (hearing.go: workspace/workspaceFolders,
//     unanswered past hearingWait): it can show none until its late
//     answer, and the question it holds is taken back from it. The editor's session's
//     sink (approvals.go) is agent.Broker with the editor
//     (approve_clients.go, an agent.Client while it can show a dialog) and
//     each terminal joined: every interactive client is asked, the first
//     answer wins, the others get eukhe/approvalSettled (a timeout with
//     its reason); the settings' approval timeout answers unanswered;
//     shutdown or the editor's end ends its pending questions at once.
//     approve_session is kept in agent.Grants, per session, for the step
//     as judged (route.Grants), and never offered (nor kept) for protected
//     or secret effects.
//   - What reaches the editor unasked (notices.go): settings problems as
//     window/showMessage (Error: the file is broken, the last good
//     settings stay; Warning: a key ignored, such as a gate in a project
//     file), report_issue rows as eukhe/toolIssue (else
//     window/logMessage); the server's own log lines as window/logMessage
//     of type Log once the editor is connected (server.go logf), standard
//     error before (an editor logs a server's standard error as errors).
//   - Each eukhe/approve carries its deadline (approvals.go): when the
//     settings' approval timeout will answer it unanswered, for the dialog
//     to show; the editor keeps no timeout setting of its own.
//   - Host tools (hosttools.go): eukhe/joinTool and eukhe/quitTool join and
//     quit a tool on every attached session's Surface (and sessions
//     attached later); a call runs in the editor through eukhe/runTool.
//
// Choices where the issue is silent: a top-level agent's question names
// no subagent (it is the session's own; a session attached with a parent
// is named by its id when its question is relayed); a session attaches
// on its own root (inside one of the editor's roots), so its paths and
// shell start there; a parent not attached to this server is skipped (the
// editor's session answers for it); the wire id of a question is the
// server's (q1, q2, …); a terminal's end of input detaches it; a client
// reached by showMessageRequest gets no approvalSettled (it cannot be
// taken back); only MethodNotFound shows that a client lacks a form (any
// other error ends that question for that client only), and only an
// unanswered first request that it lacks them all.
//
// An editor buffer is judged by the path it has now (realpath.go, store.go, store_nolinks_linux.go, publisher.go, apply.go,
// save.go). didOpen records the real path the buffer's name resolves to
// (gate.Resolve: every link followed, dangling ones too). For an unsaved
// new buffer, whose file does not exist, that is its nearest existing
// directory resolved and the rest of the name as written: where a save
// at that moment would create it. The editor saves by name, following
// whatever links the name has then, so the record alone proves nothing.
// The checks, each a fresh resolution of the name against the record
// (judgeOpened; the refusal: "NAME is open in the editor, and its name
// now resolves to X, not Y as when it was opened: close and reopen it in
// the editor, then retry"):
//
//   - Between didOpen and the edit the agent controls the whole tree its
//     bash steps may write: it can repoint a directory link on the name's
//     way, replace the file by a link, rename a directory under the buffer
//     and put a link in its place, or plant a dangling link where a new
//     buffer will be saved. So every read of an open document through the
//     editor Store (read, stat, list, tree walks) and every edit judges
//     it: the store serves a document only by the exact path asked (its
//     name or its recorded real path) and only while the name resolves as
//     recorded; the commit's check (under commitMu and the disk locks)
//     also requires the record to be the real path the commit resolved for
//     the agent's path; and the same judgment runs again right before the
//     applyEdit is sent.
//   - Between the edit and the save the agent (a process it left running)
//     can make the same changes while the editor applies the edit and the
//     landing is awaited. So after the edit landed, every landed document,
//     saved or left unsaved, is judged again right before
//     eukhe/saveDocuments: one whose name resolves elsewhere is not saved,
//     and the edit is taken out of its buffer (the put-back), so that the
//     user's next save does not carry the agent's text there either; the
//     reply says NOT applied, with the refusal. Right after the save it is
//     judged once more: a name swapped during the save itself (the one
//     window left: eukhe cannot make the editor's write atomic with its
//     check) is told in the outcome's warning and the log, naming the file
//     the save may have written. Whether the save landed is read at the
//     recorded real path through no link (docs.Disk.ReadNoLinks), never by
//     the name.
//   - A file not open is the disk's, with the disk's protections: the
//     store (store.go, store_closed.go) gives every path not open to the
//     disk store's ReadNoLinks, ListNoLinks and OpenTree, which every
//     docs.Store must have, so a read, listing or walk of a real path the
//     gate judged follows no link swapped in after the judgment
//     (ErrLinkBelow), exactly as the headless tools read
//     (TestEditorStoreClosedReadsRefuseALinkLikeTheDisk); the commit of a
//     closed file is the disk publisher's under the same engine. Begin is
//     docs.NoBatch (the disk's batch would write for a commit the editor's
//     publisher makes): only the early temp files are lost. The editor's
//     publisher (publisher.go) has its own Check, prepares nothing early
//     and vouches for no file by stamp.
package lsp
