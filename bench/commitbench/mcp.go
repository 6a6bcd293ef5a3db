package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpEdit times the edit as an agent makes it: one MCP `edit` call to a
// running `eukhe mcp` on root (headless), after the session read every
// file the patch names (not timed). It prints "mcp MS ms".
func mcpEdit(args []string) error {
	fl := flag.NewFlagSet("mcp", flag.ExitOnError)
	bin := fl.String("eukhe", "eukhe", "the eukhe binary")
	root := fl.String("root", "", "the tree to edit")
	patchFile := fl.String("patch", "", "the eukhe patch")
	state := fl.String("state", "", "XDG_STATE_HOME for the server (its journal); \"\" keeps the caller's")
	fl.Parse(args)
	patch, err := os.ReadFile(*patchFile)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.Command(*bin, "mcp", "--root", *root)
	if *state != "" {
		cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+*state)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "commitbench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	call := func(tool string, a map[string]any) (string, error) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: a})
		if err != nil {
			return "", err
		}
		var b strings.Builder
		for _, c := range res.Content {
			if t, ok := c.(*mcp.TextContent); ok {
				b.WriteString(t.Text)
			}
		}
		if res.IsError {
			return "", fmt.Errorf("%s: %.300s", tool, b.String())
		}
		return b.String(), nil
	}
	for _, line := range strings.Split(string(patch), "\n") { // an edit follows a read; not timed
		if name, ok := strings.CutPrefix(line, "["); ok {
			name, _, _ = strings.Cut(name, "#")
			if _, err := call("read", map[string]any{"path": name}); err != nil {
				return err
			}
		}
	}
	start := time.Now()
	text, err := call("edit", map[string]any{"patch": string(patch)})
	el := time.Since(start)
	if err != nil {
		return err
	}
	if !strings.HasPrefix(text, "Applied to ") || strings.Contains(text, "NOT applied") || strings.Contains(text, "warning") {
		return fmt.Errorf("edit: %.300s", text)
	}
	fmt.Printf("mcp %.3f ms\n", ms(el))
	return nil
}
