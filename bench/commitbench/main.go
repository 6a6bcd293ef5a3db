// Command commitbench times eukhe's edit of many files in process, for
// bench/commit.sh: the same one-line change that `git apply` makes, as one
// all-or-nothing, fsync'd commit through docs.Tools.Edit and the disk Store.
//
//	commitbench patch -root DIR -line N -text TEXT   print the eukhe patch
//	commitbench run -pristine DIR -root DIR -patch FILE [-runs N] [-journal DIR]
//	commitbench mcp -eukhe BIN -root DIR -patch FILE [-state DIR]
//
// run copies the pristine tree over root before each run (not timed),
// reads every file the patch names (not timed: an edit follows a read),
// then times the edit, and prints each run's milliseconds — the whole edit
// and, within it, the disk Store's commit — and the medians. mcp times
// the same edit as one MCP call to a running eukhe mcp (mcp.go).
package main

import (
	"context"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strings"
	"time"

	"github.com/eukhe/eukhe/docs"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: commitbench patch|run|mcp ...")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "patch":
		err = makePatch(os.Args[2:])
	case "run":
		err = run(os.Args[2:])
	case "mcp":
		err = mcpEdit(os.Args[2:])
	default:
		err = fmt.Errorf("unknown command %q", os.Args[1])
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "commitbench:", err)
		os.Exit(1)
	}
}

// files lists the regular files under root, relative, sorted.
func files(root string) ([]string, error) {
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out = append(out, filepath.ToSlash(rel))
		return nil
	})
	slices.Sort(out)
	return out, err
}

// makePatch prints an eukhe patch that replaces line N of every file under
// root with TEXT, with the tag of each file's bytes.
func makePatch(args []string) error {
	fl := flag.NewFlagSet("patch", flag.ExitOnError)
	root := fl.String("root", ".", "the tree")
	line := fl.Int("line", 10, "the line to replace")
	text := fl.String("text", "// changed", "the new line")
	fl.Parse(args)
	names, err := files(*root)
	if err != nil {
		return err
	}
	var b strings.Builder
	for _, n := range names {
		data, err := os.ReadFile(filepath.Join(*root, n))
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "[%s#%s]\n@@ %d\n+%s\n", n, docs.DigestOf(data).Tag(), *line, *text)
	}
	_, err = os.Stdout.WriteString(b.String())
	return err
}

// timed is the disk Store with its Commit timed. An edit of several files
// begins the disk's batch (its Begin, forwarded) and commits through this
// Commit all the same, as eukhe mcp's edit does.
type timed struct {
	docs.Store
	commit time.Duration
}

func (t *timed) Commit(cs []docs.Change) docs.Committed {
	start := time.Now()
	defer func() { t.commit += time.Since(start) }()
	return t.Store.Commit(cs)
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func run(args []string) error {
	fl := flag.NewFlagSet("run", flag.ExitOnError)
	pristine := fl.String("pristine", "", "the tree as it was")
	root := fl.String("root", "", "the tree to edit")
	patchFile := fl.String("patch", "", "the eukhe patch")
	runs := fl.Int("runs", 7, "runs")
	journal := fl.String("journal", "", "the intent journal's directory (as eukhe mcp keeps one); \"\" keeps none")
	profile := fl.String("cpuprofile", "", "write a CPU profile of the timed edits to this file")
	traceFile := fl.String("trace", "", "write an execution trace of the last timed edit to this file (go tool trace -pprof=syscall shows where the wall time waits)")
	fl.Parse(args)
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	var tr *os.File
	if *traceFile != "" {
		var err error
		if tr, err = os.Create(*traceFile); err != nil {
			return err
		}
		defer tr.Close()
	}
	patch, err := os.ReadFile(*patchFile)
	if err != nil {
		return err
	}
	names, err := files(*pristine)
	if err != nil {
		return err
	}
	var edits, commits []float64
	for run := range *runs {
		traced := tr != nil && run == *runs-1
		for _, n := range names { // reset, not timed
			data, err := os.ReadFile(filepath.Join(*pristine, n))
			if err != nil {
				return err
			}
			if err := os.WriteFile(filepath.Join(*root, n), data, 0o644); err != nil {
				return err
			}
		}
		flushAll() // the reset's writeback is not the edit's: flushed before, not timed
		disk := docs.NewDisk()
		disk.Journal = *journal
		store := &timed{Store: disk}
		tools := &docs.Tools{Store: store, Session: docs.NewSession(), Root: *root}
		for _, n := range names { // an edit follows a read; not timed
			if res := tools.Read(context.Background(), docs.ReadArgs{Path: n}); res.Failed {
				return fmt.Errorf("read %s: %s", n, res.Text)
			}
		}
		if traced {
			if err := trace.Start(tr); err != nil {
				return err
			}
		}
		start := time.Now()
		res := tools.Edit(context.Background(), docs.EditArgs{Patch: string(patch)})
		el := time.Since(start)
		if traced {
			trace.Stop()
		}
		if res.Failed || strings.Contains(res.Text, "NOT applied") || strings.Contains(res.Text, "warning") {
			return fmt.Errorf("edit: %s", res.Text)
		}
		edits = append(edits, ms(el))
		commits = append(commits, ms(store.commit))
		fmt.Printf("run %.3f ms commit %.3f ms\n", ms(el), ms(store.commit))
	}
	slices.Sort(edits)
	slices.Sort(commits)
	fmt.Printf("median %.3f ms commit %.3f ms\n", edits[len(edits)/2], commits[len(commits)/2])
	return nil
}
