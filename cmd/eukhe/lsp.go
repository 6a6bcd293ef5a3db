package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/eukhe/eukhe/lsp"
)

const lspUsage = `Usage: eukhe lsp [--root DIR] [--trace FILE]

Speaks LSP on standard input and output: the editor runs it as a language
server for every file type. The agent's reads then see the editor's open
buffers (unsaved changes included), and its edits land in them as
workspace edits, verified, with the editor's undo history; files that are
not open are written on disk.
  --root DIR   the workspace root when the editor names no workspace
               folder (default: the current directory)
  --trace FILE every message between the editor and the server, timed,
               appended to FILE (for a report of a problem with an editor)

Agents attach to it: eukhe mcp run in a directory under one of the
editor's workspace roots finds this server through a socket in
$XDG_RUNTIME_DIR/eukhe (else /tmp/eukhe-UID) and asks its questions in
the editor; eukhe approvals answers them in a terminal.

Exit status: 0 after the editor's shutdown and exit, 1 otherwise.
Diagnostics go to standard error (the editor's LSP log).
`

// lspCallTimeoutEnv sets eukhe lsp's wait for the editor's answers.
const lspCallTimeoutEnv = "EUKHE_LSP_CALL_TIMEOUT"

func runLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root, trace := ".", ""
	cmd := subcommand{"lsp", lspUsage, stdout, stderr}
	viaStdio := false // what many editors add by habit; stdio is the only transport
	if code, done := cmd.options(flags{values: map[string]*string{"--root": &root, "--trace": &trace}, bools: map[string]*bool{"--stdio": &viaStdio}}, args); done {
		return code
	}
	absRoot, err := directory("--root", root)
	if err != nil {
		return cmd.bad("%v", err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	opts := lsp.Options{Root: absRoot, Log: stderr, Discover: true}
	// How long the editor has to answer a request (an applyEdit) before
	// the edit is "sent, not confirmed"; 60 s unless set (tests set it
	// short: a Go duration).
	if d, err := time.ParseDuration(os.Getenv(lspCallTimeoutEnv)); err == nil && d > 0 {
		opts.CallTimeout = d
	}
	if trace != "" {
		f, err := os.OpenFile(trace, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o600)
		if err != nil {
			return cmd.bad("--trace: %v", err)
		}
		defer f.Close()
		opts.Trace = f
	}
	srv := lsp.New(opts)
	if err := srv.Serve(ctx, stdio{stdin, stdout}); err != nil {
		fmt.Fprintf(stderr, "eukhe lsp: %v\n", err)
		return 1
	}
	return 0
}

// stdio is standard input and output as one stream.
type stdio struct {
	io.Reader
	io.Writer
}

func (s stdio) Close() error {
	if c, ok := s.Reader.(io.Closer); ok {
		c.Close()
	}
	if c, ok := s.Writer.(io.Closer); ok {
		c.Close()
	}
	return nil
}
