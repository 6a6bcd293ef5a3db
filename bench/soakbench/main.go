// Command soakbench is the soak of issue "nothing grows": several eukhe
// mcp sessions (headless, one workspace) each make many tool calls — reads
// of ranges, edits, writes of new files, greps, globs, small bash steps —
// while the workspace grows, and the resident memory of each session is
// sampled against the workspace's bytes. It prints, per session, RSS after
// the warm-up and at the end, and the workspace's growth; then the
// one-big-line case: a session reads a file of one 50 MB line, and its RSS
// is shown right after and once idle.
//
//	go run ./bench/soakbench -eukhe $(which eukhe) [-sessions 16] [-calls 2000]
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	bin := flag.String("eukhe", "eukhe", "the eukhe binary")
	sessions := flag.Int("sessions", 16, "sessions at once")
	calls := flag.Int("calls", 2000, "calls per session")
	files := flag.Int("files", 400, "files in the workspace at the start")
	bigMB := flag.Int("big", 50, "MB of the one-line file (0: skip)")
	flag.Parse()
	if err := run(*bin, *sessions, *calls, *files, *bigMB); err != nil {
		fmt.Fprintln(os.Stderr, "soakbench:", err)
		os.Exit(1)
	}
}

type session struct {
	cs  *mcp.ClientSession
	pid int
}

func start(ctx context.Context, bin, root, state string) (*session, error) {
	cmd := exec.Command(bin, "mcp", "--root", root)
	cmd.Env = append(os.Environ(), "XDG_STATE_HOME="+state)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "soakbench", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return nil, err
	}
	return &session{cs: cs, pid: cmd.Process.Pid}, nil
}

func (s *session) call(ctx context.Context, tool string, a map[string]any) (string, error) {
	res, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: a})
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
		return b.String(), fmt.Errorf("%s: %.200s", tool, b.String())
	}
	return b.String(), nil
}

// rss is a process's resident set in MiB (/proc/PID/status VmRSS).
func rss(pid int) float64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return -1
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return float64(kb) / 1024
		}
	}
	return -1
}

func treeBytes(root string) int64 {
	var n int64
	filepath.WalkDir(root, func(_ string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if fi, err := d.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

var tagRe = regexp.MustCompile(`^\[([^\]#]+)#([0-9a-f]+)\]`)

func run(bin string, nSessions, nCalls, nFiles, bigMB int) error {
	base, err := os.MkdirTemp("", "soakbench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(base)
	root, state := filepath.Join(base, "ws"), filepath.Join(base, "state")
	for i := range nFiles {
		p := filepath.Join(root, fmt.Sprintf("d%02d", i%20), fmt.Sprintf("f%04d.txt", i))
		os.MkdirAll(filepath.Dir(p), 0o755)
		var b bytes.Buffer
		for l := range 60 {
			fmt.Fprintf(&b, "file %d line %d: the quick brown fox jumps over the lazy dog\n", i, l)
		}
		if err := os.WriteFile(p, b.Bytes(), 0o644); err != nil {
			return err
		}
	}
	ctx := context.Background()
	ss := make([]*session, nSessions)
	for i := range ss {
		if ss[i], err = start(ctx, bin, root, state); err != nil {
			return err
		}
		defer ss[i].cs.Close()
	}
	warm := nCalls / 10
	type row struct {
		warm, end float64
		errs      int
		first     string
	}
	rows := make([]row, nSessions)
	var wsWarm int64
	var warmed sync.WaitGroup
	warmed.Add(nSessions)
	var wg sync.WaitGroup
	began := time.Now()
	for i, s := range ss {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := rand.New(rand.NewPCG(uint64(i), 7))
			for c := range nCalls {
				if c == warm {
					rows[i].warm = rss(s.pid)
					warmed.Done()
				}
				if err := oneCall(ctx, s, r, root, i, c, nFiles); err != nil {
					rows[i].errs++
					if rows[i].first == "" {
						rows[i].first = err.Error()
					}
				}
			}
			rows[i].end = rss(s.pid)
		}()
	}
	warmed.Wait()
	wsWarm = treeBytes(root)
	wg.Wait()
	wsEnd := treeBytes(root)
	fmt.Printf("soak: %d sessions × %d calls in %.1f s; workspace %.2f MiB after the warm-up, %.2f MiB at the end (+%.2f MiB)\n",
		nSessions, nCalls, time.Since(began).Seconds(), mib(wsWarm), mib(wsEnd), mib(wsEnd-wsWarm))
	fmt.Println("| session | RSS after warm-up MiB | RSS at end MiB | growth MiB | failed calls |")
	fmt.Println("|---|---|---|---|---|")
	var sumW, sumE float64
	for i, r := range rows {
		fmt.Printf("| %d | %.1f | %.1f | %+.1f | %d |\n", i, r.warm, r.end, r.end-r.warm, r.errs)
		sumW, sumE = sumW+r.warm, sumE+r.end
	}
	for i, r := range rows {
		if r.first != "" {
			fmt.Printf("session %d's first failed call (an edit racing another session's edit of its file is refused by design): %.160s\n", i, strings.ReplaceAll(r.first, "\n", " "))
			break
		}
	}
	n := float64(nSessions)
	fmt.Printf("mean growth per session %.2f MiB against workspace growth %.2f MiB (ratio %.1f)\n",
		(sumE-sumW)/n, mib(wsEnd-wsWarm), (sumE-sumW)/n/max(mib(wsEnd-wsWarm), 0.01))
	if bigMB > 0 {
		return bigLine(ctx, bin, root, state, bigMB)
	}
	return nil
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// oneCall is one call of the mix: reads 40%, edits 20%, greps 15%, globs
// 10%, writes of a new file 10%, bash 5%.
func oneCall(ctx context.Context, s *session, r *rand.Rand, root string, sess, c, nFiles int) error {
	i := r.IntN(nFiles)
	f := fmt.Sprintf("d%02d/f%04d.txt", i%20, i)
	switch p := r.IntN(100); {
	case p < 40:
		from := 1 + r.IntN(50)
		_, err := s.call(ctx, "read", map[string]any{"path": fmt.Sprintf("%s:%d-%d", f, from, from+10)})
		return err
	case p < 60:
		text, err := s.call(ctx, "read", map[string]any{"path": f + ":1-3"})
		if err != nil {
			return err
		}
		m := tagRe.FindStringSubmatch(text)
		if m == nil {
			return fmt.Errorf("no tag")
		}
		_, err = s.call(ctx, "edit", map[string]any{"patch": fmt.Sprintf("[%s#%s]\n@@ 2\n+edited by session %d call %d\n", m[1], m[2], sess, c)})
		return err
	case p < 75:
		_, err := s.call(ctx, "grep", map[string]any{"pattern": fmt.Sprintf("line %d:", r.IntN(60)), "path": fmt.Sprintf("d%02d", r.IntN(20))})
		return err
	case p < 85:
		_, err := s.call(ctx, "glob", map[string]any{"pattern": fmt.Sprintf("d%02d/*.txt", r.IntN(20))})
		return err
	case p < 95:
		_, err := s.call(ctx, "write", map[string]any{"path": fmt.Sprintf("new/s%02d/c%05d.txt", sess, c), "content": strings.Repeat(fmt.Sprintf("new file of session %d\n", sess), 20)})
		return err
	default:
		_, err := s.call(ctx, "bash", map[string]any{"script": "echo soak"})
		return err
	}
}

// bigLine: one session reads a file of one mb-MB line; its RSS before,
// right after, and after 5 s idle.
func bigLine(ctx context.Context, bin, root, state string, mb int) error {
	p := filepath.Join(root, "big.txt")
	if err := os.WriteFile(p, append(bytes.Repeat([]byte("x"), mb<<20), '\n'), 0o644); err != nil {
		return err
	}
	s, err := start(ctx, bin, root, state)
	if err != nil {
		return err
	}
	defer s.cs.Close()
	before := rss(s.pid)
	// the whole file (refused past the read limit, unread) and its one
	// line as a range (read, cut to the output bound)
	_, err = s.call(ctx, "read", map[string]any{"path": "big.txt"})
	_, err2 := s.call(ctx, "read", map[string]any{"path": "big.txt:1"})
	_, err3 := s.call(ctx, "grep", map[string]any{"pattern": "y", "path": "big.txt"})
	after := rss(s.pid)
	time.Sleep(5 * time.Second)
	idle := rss(s.pid)
	fmt.Printf("one %d MB line (read whole, read as line 1, grep): RSS %.1f MiB before, %.1f right after, %.1f after 5 s idle\n", mb, before, after, idle)
	for _, e := range []error{err, err2, err3} {
		if e != nil {
			fmt.Printf("  refused: %.200s\n", strings.ReplaceAll(e.Error(), "\n", " "))
		}
	}
	return nil
}
