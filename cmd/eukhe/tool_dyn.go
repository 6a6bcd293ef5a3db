package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/eukhe/eukhe/agent"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

// runDyn runs one dyn call headless, as eukhe mcp would: a session on a
// headless host with the settings read once, so {} lists the dynamic
// tools (report_issue and each tool of each server in mcp.servers) and
// {"name": "mcp/SERVER/TOOL", "arguments": {…}} calls one. The session
// ends with the call: a report_issue row goes to its log, and no host
// joins tools.
func runDyn(ctx context.Context, root, argText string) docs.Result {
	env := gate.EnvFromList(os.Environ())
	paths := settings.Locate(env, []string{root})
	current, events := settings.Load(paths)
	for _, e := range events {
		if e.Level != settings.Info {
			fmt.Fprintf(os.Stderr, "eukhe tool: %s\n", e)
		}
	}
	host := &agent.Headless{
		RootDir: root,
		Disk:    docs.NewDisk(),
		Current: func() settings.Settings { return current },
		Paths:   paths.Places(env).Policy(gate.OS),
	}
	id := agent.NewID()
	s, err := agent.Open(agent.Options{Host: host, ID: id, LogPath: agent.SessionLogPath(env, id)})
	if err != nil {
		return docs.Result{Text: fmt.Sprintf("dyn: the session did not open: %v", err), Failed: true}
	}
	defer s.Close()
	t, ok := s.Roster().Lookup("dyn")
	if !ok {
		return docs.Result{Text: "dyn: this build's roster has no dyn tool", Failed: true}
	}
	return t.Handler(ctx, s, json.RawMessage(argText))
}
