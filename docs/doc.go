// Package docs keeps the document laws of S8: the line model, file tags,
// the read view, seen lines, the patch language and the all-or-nothing
// commit, write and move, and temporary files. It talks to files only
// through a Store; the disk Store lives here, an editor Store lives in lsp.
//
// Where each law lives:
//
//   - S8.6 line model (load_persist_roundtrip, edit_keeps_untouched_bytes,
//     edit_writes_new_lines, persist_weaves_carry, lines_carry_is_first,
//     lines_write_keeps): lines.go, apply.go (Persist), write.go (KeepStyle).
//   - Tags (tag_names_shown_text): tag.go; the session's last 8 digests per
//     file: session.go.
//   - S8.6/S8.10 read view (rows_view_shows, rows_gap_marks_every_jump,
//     rows_gate_refuses, rows_raw_lines_are_pieces): selector.go, view.go.
//   - S8.8 seen lines (edit_only_seen_lines, edit_seen_applies,
//     reveal_then_retry, edit_marks_whole_reveal, reject_names_unseen,
//     reject_shows_lines, reject_whole_exact, reveal_bounds): lineset.go,
//     guard.go.
//   - S8.2 and the patch language of DESIGN.md §3.2: patch.go (parse),
//     apply.go (ops → lines; ApplyRuns stages a kept run as one piece),
//     rebase.go (stale tags through a line diff).
//   - S8.1 commit (edit_reports_what_landed, edit_all_or_nothing_on_conflict,
//     edit_lands_every_file): store.go (the Change set), commit.go (the one
//     commit engine, DESIGN.md §10: lock, check with the rebase, journal,
//     publish in order, restore, over a Publisher), disk.go (the disk
//     Publisher: temp files, rename, link, directory sync), journal.go (the
//     intent journal), journal_sign.go (its signature), recover.go (the
//     rule for one left behind; recover_action.go: for one file, a pure
//     function of what is there now, carried out by finish), beneath_linux.go (recovery's acts below
//     the root, no link followed), reply.go (the reply), result.go (how a
//     call ended as data: Result.Kind, an edit section's Refusal with its
//     file and kind — the reply renders it, nothing parses it). A Publisher may
//     add refusals of its own (Publisher.Check: an editor that cannot
//     apply edits) and report a change Unconfirmed (an editor
//     took it, unseen yet), which stops the commit like a failure. The
//     disk may write temp files before the check (disk_early.go, after the
//     paths are judged again) and, for an edit of several files, from the
//     moment each file's new bytes are made (batch.go, after the journal):
//     nothing is published before the check, and no temp file is made
//     through a link.
//   - Capabilities are methods every Store and Publisher has (no type
//     assertion switches a path; a wrapper that embeds a Store or the Disk
//     forwards them all): store.go (Store: ReadNoLinks, ListNoLinks,
//     OpenTree, Begin), commit.go (Publisher: Check, PrepareEarly,
//     Unchanged). The disk's: disk_tree_linux.go (no-follow reads and
//     trees), batch.go (Begin; its batch rides on the changes as
//     Change.Begun, so a wrapper of Commit keeps it, and batchPub adopts
//     its temp files), disk_early.go (PrepareEarly), stamp.go (Unchanged).
//     The one default of each, for a store or publisher that cannot do
//     better: bypath.go (ByPath, NoBatch, PlainPublisher); the disk and
//     the editor store use none. The engine (commit.go) holds no disk
//     type: only a begun commit's recoveries and journal.
//   - The store conformance suite (storetest): the S8.1, S8.3 and S8.4
//     laws and edit_keeps_untouched_bytes through the documents tools over
//     any Store; run here over the disk (conformance_test.go), in lsp over
//     the editor store.
//   - S8.3 write (write_never_loses_unseen, write_writes_seen): write.go.
//   - S8.4 move (move_never_overwrites, move_moves): commit.go (the
//     destination check), disk.go (link, unlink).
//   - S8.5 temp files (temp_sweep_never_held, temp_sweep_only_own,
//     temp_sweep_removes_free): temp.go. Beyond the seed: a temp file has
//     no mode (0000) until it is reachable by its target's name only, and
//     is published only if still untouched (no mode, one name): a step
//     running during the commit must chmod one to open it, which the
//     check right before the rename sees (disk.go tempFile.untouched).
//     Root ignores modes: under root only the check of other names holds.
//     Such a file cannot be opened to test its writer's lock, so a sweep
//     removes it when its writer's pid names no process, or, this
//     process's own, when no live temp file of it has that name
//     (beneath_linux.go removeModelessAt). The old file a commit keeps for
//     its restore is a second name where a write runs unasked, else a
//     copy (disk_keep.go).
//   - S8.7/S8.9 grep and glob: walk.go (the parallel walk through the Store;
//     each walked entry in one class: grep_accounts_every_file; a notice for
//     every class not empty: grep_notes_every_gap), ignore.go (.gitignore,
//     .git/info/exclude, as git decides them), match.go (the line matcher:
//     a required literal found first, the regexp on its lines), grep.go
//     (rows printed by read's own Render: grep_line_is_read_line; the tag
//     of the bytes searched: tag_names_shown_text; grep_notes_every_cut),
//     search.go (search_scope_answers, page_is_window, next_is_more,
//     past_is_beyond, the continuation laws), glob.go (glob_events_answer).
//     Patterns are Go RE2: matching is linear in the text, so no pattern
//     can take unbounded time; \w, \d, \s and \b are ASCII.
//
// The documents gate (G1.5, G1.6): every access asks the PathGuard
// (pathguard.go) once, with its Access, before anything is read or
// written, and then uses the real path it gives. grep (of a file or a
// tree) and glob ask SearchAccess for their root, so a search of a path
// that is or holds a secret is read and secret. The
// walk never follows a symbolic link under the root (walk.go: counted in
// a notice), and on disk it reads through a Tree (below.go,
// disk_tree_linux.go: openat2 from the root's descriptor with
// RESOLVE_BENEATH and RESOLVE_NO_SYMLINKS), so a directory or file
// swapped for a link while the walk runs is refused by the kernel and
// counted, never read: what a walk reads is below the judged real root.
// A Store without trees (ByPath's) is walked by path; the editor's store
// walks the disk's tree. Likewise read, edit, write and grep of a file read
// the real path the gate gave with no link on any part of it
// (Store.ReadNoLinks), so a swap after the judgement reads nothing.
//
// Decisions are pure functions over bytes, lines and outcomes; the disk
// Store and the tool entry points (tools.go) are the thin I/O edges.
//
// Cancellation (cancel.go): every tool entry point takes the call's
// context first, and PathGuard.Allow takes it first too (mvdan.cc/sh's
// handler style: no per-call state in a struct), so the gate's question is
// asked under the call and withdrawn with it. The walk checks the context
// at every directory and file; a cancelled grep or glob says how many
// files it had searched, shows nothing and marks nothing seen (the reply
// may never reach the model). read, write and edit check it after the gate
// and before they read or commit; a commit that has begun runs to its end
// (PathGuard.SameReal takes no context for that reason), so cancelling
// never leaves a half-applied commit.
//
// Where the seed is silent we chose: a leading "~" of a tool path is
// expanded as the shell expands it in a word ("~", "~/x", "~+", "~NAME";
// tilde.go) before the gate judges it, so "~/.ssh/id_rsa" is the key and
// is judged as one.
//
// Beyond the seed: when a publish fails after other files of the same call
// landed, the engine restores those files from their previous bytes, so
// an edit is a true transaction; the reply keeps the seed's wording for what
// ends up on disk and says what was restored.
//
// Where the seed is silent we chose:
//   - One strict decoder of tool arguments, DecodeArgs (args.go), for
//     Call, the agent's tools and eukhe tool: its errors name the argument
//     and the type expected in JSON's words (`"path" must be a string, not
//     a number`), never the Go decoder's text; text after the object is an
//     error too.
//   - A file with a NUL byte that no UTF-16/32 BOM explains is binary for
//     read as for grep (view.go, BinaryNote): the read gate names it binary
//     even when its other bytes are not UTF-8 (not an 8-bit encoding to
//     convert), and a raw read of it refuses with its size, the first NUL
//     and its first 16 bytes in hex instead of sending bytes as text.
//   - Every count in a message takes its noun's number (Count, plural.go):
//     1 line, 2 lines, 1 match in 1 file, 1 entry.
//
// Where the seed is silent we chose:
//
//   - The check under the writer's lock is S8.1's byte check through the
//     rebase of S8.2: a file whose bytes changed since the edit was staged
//     is staged again over them when the lines the edit stands on did not
//     change (the reply says "Rebased"); when one did, the commit is
//     refused as a conflict, with those lines as they are now. A write
//     (whole file) is never rebased: it replaces only the bytes it saw.
//     The disk vouches, without reading it again, for a file whose stamp
//     is what the edit's read saw — same inode, size and times, the change
//     time older than the kernel's clock when that read began — since any
//     write after the read would have moved the change time (stamp.go;
//     only on local file systems that stamp to the nanosecond; what a
//     stamp cannot see is said there). Every other file is read again and
//     compared byte for byte.
//   - A file with no owner write bit (0444) is refused, not replaced, by
//     write and edit alike; a bare MV still moves it.
//   - write of a path this session saw that is gone now is refused once
//     (moved or deleted since); the refusal shows its absence, so the next
//     write creates it. A path the session never saw is created.
//   - A commit of more than one change keeps an intent journal in
//     $XDG_STATE_HOME/eukhe/journal/<hash of the root> (journal.go): a
//     crash at any instant leaves, after the next start of eukhe for that
//     root (or the next commit), every file old or every file new. A single
//     change needs none: its publish is one rename. The journal is kept by
//     the process's root: a commit under another root's session that
//     crashes is finished by that root's next start.
//
// Where the seed is silent we chose (crash recovery is as careful as the
// commit):
//
//   - A journal is acted on only when eukhe wrote it as that file, for
//     that root: it is signed with HMAC-SHA256 under a random key made
//     once (0600, O_EXCL, linked into place) in the journal directory,
//     under eukhe's state directory, which the sandbox hides from every
//     step and the documents gate judges secret; the MAC covers the root
//     and the file's identity (device, inode, birth time), and a journal
//     file with a second name is refused (journal_sign.go). One that does
//     not verify — forged, another root's, a copy of an old one of this
//     user, or a v1 journal of an earlier eukhe (unsigned: nothing shows
//     eukhe wrote it, so it is treated as forged) — is not acted on: it is
//     set aside in <journal dir>/set-aside, never deleted, and the notice
//     says where.
//   - Recovery acts only below the root, never following a link
//     (beneath_linux.go: each directory on the way opened with openat2
//     RESOLVE_BENEATH|RESOLVE_NO_SYMLINKS from the root's descriptor, the
//     last part linked, renamed or removed relative to it; a temp file
//     published only after it is checked to be a regular file of this
//     user with one name and the bytes the journal names, and the file
//     checked is the one linked, through its descriptor). A file outside
//     the root that a commit reached through a workspace symlink is never
//     touched by recovery: nothing pins the directories on its way, and
//     the gate's judgment of it at the commit may have been a yes that no
//     one is there to give at a start. Its journal is turned back.
//   - Each path a journal names is judged again by the documents gate
//     (JournalAt.Judge, injected by agent: a write of that real path runs
//     unasked now). A forward journal naming one that does not is turned
//     back, not finished (recover.go: the rule, all or nothing for every
//     file recovery may touch; each exception named in the notice).
//
// What an attacker controls between the commit's decision and recovery's
// act, and what holds each: the journal file (the MAC, bound to the file;
// the state directory hidden from steps), every directory on every path
// (openat2 beneath the root with no links: a swap for a link to .git/hooks,
// out of the root or to ~ is refused by the kernel; a swap the gate can see
// turns the journal back), the target (a link there is not followed: it is
// not a regular file), the temp files (a link is refused, a hard link of
// another file has two names, other bytes do not match the digest; the
// bytes checked are the bytes linked; a rename that lands other bytes
// because the entry was swapped in between is reported), and the
// workspace's bytes themselves. What the attacker can still do is what
// the workspace lets it do unasked anyway: put other bytes in a file that
// a write may change unasked (the digests are not a MAC: the gate, not
// the digest, decides where bytes land). Tests: recover_attack_test.go,
// recover_law_test.go, and cmd/eukhe attack_recovery_test.go,
// crash_session_test.go through the real eukhe mcp.
package docs
