package urls

import (
	"context"

	"github.com/eukhe/eukhe/docs"
)

// Reader reads the internal URLs of one session.
type Reader struct {
	Root      string         // the workspace root (the session's working directory)
	SkillDirs []string       // <root>/.eukhe/skills, then the user config dir's skills/
	Resources ResourceSource // may be nil: no MCP servers
	Tools     *docs.Tools    // repo:// and skill:// are normal reads through it
	// SSH reads ssh://rest (S7.9): package agent's ssh reader. nil: every
	// ssh:// read is SSHOff.
	SSH func(ctx context.Context, raw, rest string, bound int) (string, error)
	// Memory reads memory:// and agent:// over the session's transcript;
	// nil: the session keeps none.
	Memory TranscriptSource
}

// Read reads one URL within an output bound of bound bytes (0 or less is
// docs.DefaultReadBound). ctx bounds the call: its deadline ends an ssh://
// or mcp:// read, and a repo:// or skill:// read asks the documents gate
// under it. An error is always an *Error.
func (r *Reader) Read(ctx context.Context, raw string, bound int) (text string, err error) {
	if bound <= 0 {
		bound = docs.DefaultReadBound
	}
	scheme, rest, ok := Split(raw)
	if !ok {
		return "", Errorf(KindScheme, raw, "not a URL; read takes repo://, skill://, mcp://, ssh://, memory:// or agent:// URLs, or a plain file path")
	}
	switch scheme {
	case "repo":
		return r.readRepo(ctx, raw, rest, bound)
	case "skill":
		return r.readSkill(ctx, raw, rest, bound)
	case "mcp":
		return r.readMCP(ctx, raw, rest, bound)
	case "ssh":
		if r.SSH == nil {
			return "", SSHOff(raw)
		}
		return r.SSH(ctx, raw, rest, bound)
	case "memory":
		if r.Memory == nil {
			return "", Errorf(KindScheme, raw, "this session keeps no transcript (a one-shot eukhe tool call, or a session without a state directory), so memory:// has nothing to read")
		}
		return r.Memory.ReadMemory(raw, rest, bound)
	case "agent":
		if r.Memory == nil {
			return "", Errorf(KindScheme, raw, "this session keeps no transcript (a one-shot eukhe tool call, or a session without a state directory), so it cannot find its subagents' either")
		}
		return r.Memory.ReadAgent(raw, rest, bound)
	}
	return "", Errorf(KindScheme, raw, "unknown scheme %q; read takes repo://, skill://, mcp://, ssh://, memory:// or agent:// URLs, or a plain file path", scheme)
}
