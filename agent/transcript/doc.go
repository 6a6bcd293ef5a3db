// Package transcript keeps a session's transcript (DESIGN §11): every
// tool call the session served, its row (CallRow: id, tool, summary,
// size, the questions it asked with their answers, when it ended) and
// its whole result, in <state>/eukhe/sessions/<id>/ beside the session's
// log (Dir). meta.json names the session, its parent, its root and its
// client; calls.log holds the calls. It is what memory:// and agent://
// read (package agent, memory.go) and what `eukhe sessions` and `eukhe
// log` show (List, ReadInfo, Calls). This package imports gate (for
// gate.VisibleText); package agent imports it; it never imports agent.
//
// The transcript keeps what it is handed. Which calls are kept as a note
// instead of their result (a secret the user allowed in the call, or in
// a job after its call returned) is the session's decision: package
// agent's endCall, from the marks the gate's answers leave on the call's
// context (markSecret, markAsked).
//
// Where each law lives:
//
//	law                                                       file
//	a transcript is never shared: Open empties a directory    transcript.go (Open)
//	  left by an earlier session of the same id (0700)
//	a session id names one directory, never a path            transcript.go (ValidSessionID)
//	the last MaxCalls calls or MaxBytes bytes are kept,       transcript.go (Keep)
//	  the oldest dropped; a drop mark says which went
//	a call's reply costs it no file operation: one writer     log.go (logWriter.add)
//	  appends after the reply; a reader in this process
//	  waits for what was replied to (Flush)
//	at most 64 MiB of results wait for the writer in memory   log.go (maxPending)
//	calls.log is only appended to, each batch in one write    log.go (logWriter.write)
//	a reader skips a last record not whole yet, and stops     log.go (ReadLog)
//	  at a line that is no header
//	a compaction keeps exactly the kept calls, bytes as they  log.go (compact)
//	  are, renamed over the old file: a reader that opened
//	  the old one reads it whole; the file stays bounded
//	a failed or short write (a full disk) counts for nothing: log.go (logWriter.write,
//	  the file is cut back, no index entry names bytes that     readTail, compactByReading)
//	  are not its record's, a compaction that finds its
//	  index wrong reads the file instead; OnError is told
//	meta.json is written whole (a temp file, then a rename)   transcript.go (writeWhole)
//	Close removes nothing: a parent may read a subagent's     transcript.go (Close)
//	  transcript after it ended
//	an open transcript holds a lock on its directory; Remove  lock_unix.go, lock_windows.go,
//	  takes it without waiting and leaves a held one            sessions.go (Remove)
//	agent:// reads a transcript for its parent chain only     sessions.go (OnParentChain)
//	  (meta.json's parents, at most 64 steps, no cycle)
//	a row's summary is one line, escaped, at most 80 runes    transcript.go (Summary)
//
// Their tests: log_test.go (TestLaw_transcript_keeps_the_last_calls,
// TestTranscriptReaderSkipsATornRecord,
// TestTranscriptReaderOutlivesCompaction,
// TestTranscriptCompactionKeepsLateCallsAndStaysBounded),
// redteam21_linux_test.go (a full disk: a tmpfs, root only). The lock is
// tested by package agent's prune (prune_test.go:
// TestPruneSessionsRemovesOnlyOldSessionsNoOneHolds,
// TestOpenTranscriptHoldsItsDirectoryUntilClosed); memory://, agent://
// and the withheld secrets by agent's memory_test.go; eukhe sessions and
// eukhe log by cmd/eukhe's sessions_test.go.
package transcript
