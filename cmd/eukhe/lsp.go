package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/eukhe/eukhe/lsp"
)

const lspUsage = `Usage: eukhe lsp [--root DIR]

Speaks LSP on standard input and output: the editor runs it as a language
server for every file type. The agent's reads then see the editor's open
buffers (unsaved changes included), and its edits land in them as
workspace edits, verified, with the editor's undo history; files that are
not open are written on disk.
  --root DIR   the workspace root when the editor names no workspace
               folder (default: the current directory)

Agents attach to it: eukhe mcp run in a directory under one of the
editor's workspace roots finds this server through a socket in
$XDG_RUNTIME_DIR/eukhe (else /tmp/eukhe-UID) and asks its questions in
the editor; eukhe approvals answers them in a terminal.

Exit status: 0 after the editor's shutdown and exit, 1 otherwise.
Diagnostics go to standard error (the editor's LSP log).
`

func runLSP(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	root := "."
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "eukhe lsp: "+format+"\n\n%s", append(a, lspUsage)...)
		return 2
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-h" || a == "--help":
			fmt.Fprint(stdout, lspUsage)
			return 0
		case a == "--root":
			if i+1 >= len(args) {
				return bad("--root needs a value")
			}
			i++
			root = args[i]
		case strings.HasPrefix(a, "--root="):
			root = strings.TrimPrefix(a, "--root=")
		case a == "--stdio":
			// what many editors add by habit; stdio is the only transport
		default:
			return bad("unknown argument %q", a)
		}
	}
	absRoot, err := filepath.Abs(root)
	if err == nil {
		var fi os.FileInfo
		if fi, err = os.Stat(absRoot); err == nil && !fi.IsDir() {
			err = errors.New("not a directory")
		}
	}
	if err != nil {
		return bad("--root %s: %v; give a directory that exists", root, err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	srv := lsp.New(lsp.Options{Root: absRoot, Log: stderr, Discover: true})
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
