// Command searchbench times a grep as an agent makes it — one MCP `grep`
// call to a running `eukhe mcp` — beside the same search by ripgrep, run
// for run, for bench/search.sh. The server is started once (as a client
// keeps it); each ripgrep run is a process, as a shell runs it.
//
//	searchbench -eukhe BIN -tree DIR [-runs N] [-literal] [-ignore-case] PATTERN
//
// It prints one line: "mcp MS rg MS", the medians in milliseconds, and
// "best MS MS", the fastest runs.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "searchbench:", err)
		os.Exit(1)
	}
}

func run() error {
	bin := flag.String("eukhe", "eukhe", "the eukhe binary")
	tree := flag.String("tree", "", "the tree to search")
	runs := flag.Int("runs", 7, "runs of each")
	literal := flag.Bool("literal", false, "a literal pattern (rg -F)")
	ignoreCase := flag.Bool("ignore-case", false, "ignore case (rg -i)")
	flag.Parse()
	if flag.NArg() != 1 || *tree == "" {
		return fmt.Errorf("usage: searchbench -eukhe BIN -tree DIR [-runs N] [-literal] [-ignore-case] PATTERN")
	}
	pattern := flag.Arg(0)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "searchbench", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: exec.Command(*bin, "mcp", "--root", *tree)}, nil)
	if err != nil {
		return err
	}
	defer cs.Close()
	args := map[string]any{"pattern": pattern, "literal": *literal, "ignoreCase": *ignoreCase}
	grep := func() error {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: args})
		if err != nil {
			return err
		}
		if res.IsError {
			var b strings.Builder
			for _, c := range res.Content {
				if t, ok := c.(*mcp.TextContent); ok {
					b.WriteString(t.Text)
				}
			}
			return fmt.Errorf("grep: %.300s", b.String())
		}
		return nil
	}
	rgArgs := []string{"-n", "--hidden", "--no-require-git", "--no-config"}
	if *literal {
		rgArgs = append(rgArgs, "-F")
	}
	if *ignoreCase {
		rgArgs = append(rgArgs, "-i")
	}
	rgArgs = append(rgArgs, pattern, *tree)
	devnull, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer devnull.Close()
	rg := func() error {
		cmd := exec.Command("rg", rgArgs...)
		cmd.Stdout, cmd.Stderr = devnull, devnull
		err := cmd.Run()
		if e, ok := err.(*exec.ExitError); ok && e.ExitCode() == 1 {
			return nil // no match
		}
		return err
	}
	if err := grep(); err != nil { // warm, not timed
		return err
	}
	if err := rg(); err != nil {
		return err
	}
	var ours, peer []float64
	for range *runs { // alternating, so that load from elsewhere falls on both alike
		for _, side := range []struct {
			f   func() error
			out *[]float64
		}{{grep, &ours}, {rg, &peer}} {
			start := time.Now()
			if err := side.f(); err != nil {
				return err
			}
			*side.out = append(*side.out, float64(time.Since(start).Microseconds())/1000)
		}
	}
	slices.Sort(ours)
	slices.Sort(peer)
	fmt.Printf("mcp %.3f rg %.3f\nbest %.3f %.3f\n", ours[(len(ours)-1)/2], peer[(len(peer)-1)/2], ours[0], peer[0])
	return nil
}
