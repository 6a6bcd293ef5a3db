// URLs in read (S7.5, S7.6, S7.9). The read tool takes scheme://path in
// place of a file path; URLReader reads one:
//
//   - repo://path: a file or directory under the workspace root, read by
//     docs.Tools.Read as any file is ([path#TAG] header, rows are edit
//     anchors, selectors such as repo://src/a.go:5-9 work): urls_files.go.
//   - skill://name: the skill's SKILL.md; skill://name/path: a file under
//     the skill's directory, from the first skill directory (the project's
//     <root>/.eukhe/skills, then the user config dir's skills/) that has
//     the skill; skill:// alone lists the skills: urls_files.go.
//   - mcp://server: the server's resource list; mcp://server/uri: one
//     resource, bounded like any read, a binary part a note with its size
//     and MIME type. The server must be one the session configured:
//     urls_mcp.go.
//   - ssh://host/path: one remote text file (S7.9): ssh.go decides (host
//     check, the remote path, the argv and its quoting, the rejection a
//     failure gets, the cap), ssh_run.go runs ssh in its own process group.
//
// Confinement (path_rejects_escape, path_resolves_inside): WalkURLPath in
// urls_walk.go is the one lexical walk of every scheme; above the root is
// the rejection escapes, never clamped. repo:// and skill:// then require
// the real path (symlinks followed) under the real path of their root. The
// text after "scheme://" is taken as written: no percent-decoding, so a
// space or a quote is itself.
//
// agent:// and memory:// (S7.5) name a subagent's chat and the chat view.
// eukhe's view of a session is the transcript of the tool calls it served
// (DESIGN §11), so memory:// reads this session's calls and agent://SESSION
// a subagent's, for its parent chain only: memory.go, over package
// transcript (agent/transcript: the calls log and its reading). Any
// other scheme is the rejection scheme.
//
// Every failure is a *URLError whose Kind is one of the seed's rejections
// and whose text says what to do next.
//
// Chosen where the seed is silent:
//   - A failed repo:// or skill:// read keeps docs' own reply as its
//     message; its Kind comes from what that read met (readWatch): a
//     documents gate refusal is not_allowed, a missing file not_found, a
//     file over 4 MiB read whole arguments, a file docs would not show as
//     rows binary.
//   - An mcp:// resource URI is sent to the server as written; the walk
//     only rejects one that climbs above its server ("mcp://srv/../x").
//   - An ssh:// path at its root (ssh://box/, ssh://box/~) is is_directory
//     without running ssh. Binary is judged on the bytes the cap kept; a
//     character the cap cut in two counts with the dropped bytes. The
//     reply always has a first line (the URL, the size or what the cap
//     dropped, "not edit anchors") so that the file's own first line is
//     never mistaken for it. A context without a deadline gets
//     DefaultSSHBudget. Every read here runs in a tool call with an
//     output bound (0 is docs.DefaultReadBound), so S7.9.6's arguments
//     rejection of a read without a cap has no case.
package agent

import (
	"context"
	"fmt"
	"strings"

	"github.com/eukhe/eukhe/agent/transcript"
	"github.com/eukhe/eukhe/docs"
)

// URLReader reads the internal URLs of one session.
type URLReader struct {
	Root      string          // the workspace root (the session's working directory)
	SkillDirs []string        // <root>/.eukhe/skills, then the user config dir's skills/
	SSHHosts  func() []string // the global ssh.hosts setting, read at call time
	Resources ResourceSource  // may be nil: no MCP servers
	Tools     *docs.Tools     // repo:// and skill:// are normal reads through it
	SSH       string          // the ssh program; "" means "ssh" from PATH
	// Memory is the session's transcript (memory://, and where agent://
	// finds its subagents'); nil: the session keeps none.
	Memory *transcript.Transcript
}

// The rejections of S7.5, S7.6 and S7.9: a URLError's Kind.
const (
	KindScheme           = "scheme"            // unknown scheme, or one this server does not serve
	KindEscapes          = "escapes"           // a path above its root, lexically or by a symlink
	KindNotAllowed       = "not_allowed"       // an ssh host or an MCP server the settings do not name
	KindArguments        = "arguments"         // a malformed URL: host charset, missing name
	KindHost             = "host"              // ssh: unknown host, no connection, host key unknown or changed
	KindAuth             = "auth"              // ssh: the host refused each key
	KindNotFound         = "not_found"         // no such file or resource
	KindIsDirectory      = "is_directory"      // ssh: a directory, not a file
	KindPermissionDenied = "permission_denied" // the file cannot be read by this user
	KindBinary           = "binary"            // not UTF-8 text, or a NUL byte
	KindTimeout          = "timeout"           // the read did not fill the cap by the deadline
	KindIO               = "io"                // no ssh on PATH, or another failure
)

// URLError is a read of a URL that was rejected or failed: Kind is one of
// the Kind constants, URL the URL as the model wrote it, Msg what happened
// and what to do next.
type URLError struct {
	Kind string
	URL  string
	Msg  string
}

func (e *URLError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.URL, e.Kind, e.Msg)
}

func urlErr(kind, url, format string, a ...any) *URLError {
	return &URLError{Kind: kind, URL: url, Msg: fmt.Sprintf(format, a...)}
}

// SplitURL splits "scheme://rest". The scheme is a letter followed by
// letters, digits, '+', '-' or '.' (RFC 3986), taken in lower case; ok is
// false for anything else, which is a plain file path.
func SplitURL(raw string) (scheme, rest string, ok bool) {
	i := strings.Index(raw, "://")
	if i <= 0 {
		return "", "", false
	}
	for j, c := range raw[:i] {
		letter := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
		if !letter && (j == 0 || !(c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", "", false
		}
	}
	return strings.ToLower(raw[:i]), raw[i+3:], true
}

// IsURL tells whether a path the model named is a URL (scheme://...)
// rather than a file path: read sends those to URLReader, glob rejects
// them (S7.5).
func IsURL(p string) bool {
	_, _, ok := SplitURL(p)
	return ok
}

// Read reads one URL within an output bound of bound bytes (0 or less is
// docs.DefaultReadBound). ctx bounds the call: its deadline ends an ssh://
// or mcp:// read, and a repo:// or skill:// read asks the documents gate
// under it. An error is always a *URLError.
func (r *URLReader) Read(ctx context.Context, raw string, bound int) (text string, err error) {
	if bound <= 0 {
		bound = docs.DefaultReadBound
	}
	scheme, rest, ok := SplitURL(raw)
	if !ok {
		return "", urlErr(KindScheme, raw, "not a URL; read takes repo://, skill://, mcp://, ssh://, memory:// or agent:// URLs, or a plain file path")
	}
	switch scheme {
	case "repo":
		return r.readRepo(ctx, raw, rest, bound)
	case "skill":
		return r.readSkill(ctx, raw, rest, bound)
	case "mcp":
		return r.readMCP(ctx, raw, rest, bound)
	case "ssh":
		return r.readSSH(ctx, raw, rest, bound)
	case "memory":
		return r.readMemory(raw, rest, bound)
	case "agent":
		return r.readAgent(raw, rest, bound)
	}
	return "", urlErr(KindScheme, raw, "unknown scheme %q; read takes repo://, skill://, mcp://, ssh://, memory:// or agent:// URLs, or a plain file path", scheme)
}
