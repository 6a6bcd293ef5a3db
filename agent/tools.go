package agent

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/eukhe/eukhe/docs"
)

// The document tools' handlers: decode the arguments strictly, then run
// the docs tool under the session's lock (docs.Session is one agent's
// state, not safe for concurrent calls).

type readArgs struct {
	I string `json:"i"`
	docs.ReadArgs
}

type editArgs struct {
	I string `json:"i"`
	docs.EditArgs
}

type writeArgs struct {
	I string `json:"i"`
	docs.WriteArgs
}

type grepArgs struct {
	I string `json:"i"`
	docs.GrepArgs
}

type globArgs struct {
	I string `json:"i"`
	docs.GlobArgs
}

func badArgs(err error) Result { return badArgsText(err.Error()) }

func handleRead(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a readArgs
	if err := docs.DecodeArgs("read", s.params("read"), raw, &a); err != nil {
		return badArgs(err)
	}
	if strings.Contains(a.Path, "://") {
		return s.readURL(ctx, a.Path)
	}
	return s.docs(ctx, func(ctx context.Context, t *docs.Tools) docs.Result { return t.Read(ctx, a.ReadArgs) })
}

func handleEdit(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a editArgs
	if err := docs.DecodeArgs("edit", s.params("edit"), raw, &a); err != nil {
		return badArgs(err)
	}
	return s.docs(ctx, func(ctx context.Context, t *docs.Tools) docs.Result { return t.Edit(ctx, a.EditArgs) })
}

func handleWrite(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a writeArgs
	if err := docs.DecodeArgs("write", s.params("write"), raw, &a); err != nil {
		return badArgs(err)
	}
	return s.docs(ctx, func(ctx context.Context, t *docs.Tools) docs.Result { return t.Write(ctx, a.WriteArgs) })
}

func handleGrep(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a grepArgs
	if err := docs.DecodeArgs("grep", s.params("grep"), raw, &a); err != nil {
		return badArgs(err)
	}
	return s.docs(ctx, func(ctx context.Context, t *docs.Tools) docs.Result { return t.Grep(ctx, a.GrepArgs) })
}

func handleGlob(ctx context.Context, s *Session, raw json.RawMessage) Result {
	var a globArgs
	if err := docs.DecodeArgs("glob", s.params("glob"), raw, &a); err != nil {
		return badArgs(err)
	}
	return s.docs(ctx, func(ctx context.Context, t *docs.Tools) docs.Result { return t.Glob(ctx, a.GlobArgs) })
}
