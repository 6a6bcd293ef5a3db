// Package urls reads the internal URLs of the read tool (S7.5, S7.6,
// S7.9): read takes scheme://path in place of a file path, and Reader
// reads one.
//
//   - repo://path: a file or directory under the workspace root, read by
//     docs.Tools.Read as any file is ([path#TAG] header, rows are edit
//     anchors, selectors such as repo://src/a.go:5-9 work): files.go.
//   - skill://name: the skill's SKILL.md; skill://name/path: a file under
//     the skill's directory, from the first skill directory (the project's
//     <root>/.eukhe/skills, then the user config dir's skills/) that has
//     the skill; skill:// alone lists the skills: files.go.
//   - mcp://server: the server's resource list; mcp://server/uri: one
//     resource, bounded like any read, a binary part a note with its size
//     and MIME type. The server must be one the session configured:
//     mcp.go, over Reader.Resources (a ResourceSource: package agent's
//     Clients).
//   - ssh://host/path: one remote text file (S7.9), read by Reader.SSH,
//     which package agent wires: its ssh.go decides (host check, the
//     remote path, the argv and its quoting, the rejection a failure gets,
//     the cap), its ssh_run.go runs ssh in its own process group. Without
//     a reader every ssh:// read is SSHOff, as with an empty ssh.hosts.
//   - agent:// and memory:// (S7.5) name a subagent's chat and the chat
//     view. eukhe's view of a session is the transcript of the tool calls
//     it served (DESIGN §11), so memory:// reads this session's calls and
//     agent://SESSION a subagent's, for its parent chain only: package
//     agent's memory.go, over package transcript, is Reader.Memory (a
//     TranscriptSource). Without one, both are the rejection scheme,
//     saying that the session keeps no transcript.
//
// Any other scheme is the rejection scheme. Every failure is an *Error
// whose Kind is one of the seed's rejections and whose text says what to
// do next.
//
// Confinement (path_rejects_escape, path_resolves_inside): WalkPath is
// the one lexical walk of every scheme, package agent's ssh://, memory://
// and agent:// included; above the root is the rejection escapes, never
// clamped. repo:// and skill:// join names to a directory of this
// machine, so they walk with walkLocal: on Windows a backslash divides
// too ("..\x" climbs) and a name Windows would not open as itself under
// the root (a drive "C:", a stream "a:s", a device CON, only dots and
// spaces) is refused. They then require the real path (symlinks
// followed) under the real path of their root. The text after "scheme://"
// is taken as written: no percent-decoding, so a space or a quote is
// itself.
//
// This package imports docs and the go-sdk's mcp types; package agent
// imports it and wires what it needs (the document tools, the root, the
// MCP clients, the ssh reader, the transcript); it never imports agent.
//
// Where each law lives:
//
//	law                                                      file
//	S7.5 read takes repo://, skill://, mcp://, ssh://,       reader.go (Reader.Read),
//	  memory://, agent://; any other scheme is scheme          split.go (Split)
//	S7.5 memory:// and agent:// without a transcript are    reader.go (Reader.Read)
//	  scheme, saying so
//	S7.5 repo:// is a normal read under the root; skill://   files.go (readRepo, readSkill,
//	  the first skill directory's                              listSkills, readUnder)
//	S7.5 mcp:// only the session's servers, bounded          mcp.go (readMCP, ResourceText),
//	                                                           cut.go (CutMiddleText)
//	S7.6 path_rejects_escape: above the root is escapes,     walk.go (WalkPath)
//	  never clamped
//	S7.6 path_resolves_inside: a walk that stays inside      walk.go (WalkPath),
//	  gives names under the root                               walk_local.go (walkLocal:
//	                                                           Windows' separators, names)
//	S7.6 a symlink out of the root is escapes                real.go (realUnder, realPath)
//	S7.9 ssh:// off with no host allowed; the rest is        errors.go (SSHOff); package
//	  package agent's                                          agent's ssh.go, ssh_run.go
//	every failure is an *Error of one Kind, saying what      errors.go (Error, Errorf)
//	  to do next
//
// Their tests: walk_test.go (TestLaw_path_rejects_escape,
// TestLaw_path_resolves_inside, TestLaw_path_resolves_inside_windows,
// TestWalkURLPathExamples), walk_local_test.go, urls_windows_test.go
// (under Wine), urls_test.go
// (repo://, skill://, mcp://, the rejection schemes, Split,
// CutMiddleText). Package agent's memory_test.go holds the laws for
// memory:// and agent:// (TestLaw_path_rejects_escape_memory_agent,
// TestLaw_path_resolves_inside_memory_agent, FuzzTranscriptURL), its
// ssh_test.go and ssh_run_test.go those of ssh://.
//
// Chosen where the seed is silent:
//   - A failed repo:// or skill:// read keeps docs' own reply as its
//     message; its Kind comes from what that read met (readWatch): a
//     documents gate refusal is not_allowed, a missing file not_found, a
//     file over 4 MiB read whole arguments, a file docs would not show as
//     rows binary.
//   - An mcp:// resource URI is sent to the server as written; the walk
//     only rejects one that climbs above its server ("mcp://srv/../x").
package urls
