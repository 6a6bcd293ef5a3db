// Command mcpbench is one raw JSON-RPC client over stdio that measures a
// small file read through several MCP servers in the same run: each server
// is started and initialized, then the calls go round-robin (one to each
// server in turn), so load from elsewhere falls on all of them alike. It
// prints each server's p50 and p99 latency and the ratios to the first.
//
// Usage: mcpbench [-n CALLS] [-warmup CALLS] NAME=TOOL=ARGS-JSON=COMMAND...
//
// Each target is one argument: a name, the tool to call, its arguments as
// JSON, and the server's command line (split on spaces), joined by "=".
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sort"
	"strings"
	"time"
)

type target struct {
	name, tool string
	args       json.RawMessage
	cmd        *exec.Cmd
	in         io.WriteCloser
	out        *bufio.Reader
	id         int
	lat        []time.Duration
}

func main() {
	n := flag.Int("n", 2000, "measured calls to each server")
	warm := flag.Int("warmup", 200, "calls to each server before measuring")
	want := flag.String("expect", "", "text each first result must contain")
	rr := flag.Bool("rr", false, "round-robin: one call to each server in turn (default: every call to one server, then the next)")
	flag.Parse()
	var ts []*target
	for _, spec := range flag.Args() {
		parts := strings.SplitN(spec, "=", 4)
		if len(parts) != 4 {
			fail("target %q: want NAME=TOOL=ARGS-JSON=COMMAND", spec)
		}
		t := &target{name: parts[0], tool: parts[1], args: json.RawMessage(parts[2])}
		argv := strings.Fields(parts[3])
		t.cmd = exec.Command(argv[0], argv[1:]...)
		t.cmd.Stderr = io.Discard
		var err error
		if t.in, err = t.cmd.StdinPipe(); err != nil {
			fail("%s: %v", t.name, err)
		}
		stdout, err := t.cmd.StdoutPipe()
		if err != nil {
			fail("%s: %v", t.name, err)
		}
		t.out = bufio.NewReaderSize(stdout, 1<<20)
		if err := t.cmd.Start(); err != nil {
			fail("%s: %v", t.name, err)
		}
		defer t.end()
		t.call("initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcpbench","version":"1"}}`)
		fmt.Fprintln(t.in, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
		res := t.call("tools/call", t.params())
		if !strings.Contains(string(res), *want) || strings.Contains(string(res), `"isError":true`) {
			fail("%s: the first call answered %s", t.name, res)
		}
		ts = append(ts, t)
	}
	one := func(t *target, i int) {
		p := t.params()
		start := time.Now()
		t.call("tools/call", p)
		if i >= *warm {
			t.lat = append(t.lat, time.Since(start))
		}
	}
	if *rr {
		for i := 0; i < *warm+*n; i++ {
			for _, t := range ts {
				one(t, i)
			}
		}
	} else {
		for _, t := range ts {
			for i := 0; i < *warm+*n; i++ {
				one(t, i)
			}
		}
	}
	base := pct(ts[0].lat, 50)
	fmt.Printf("%-12s %10s %10s %10s %14s\n", "server", "p50 µs", "p99 µs", "mean µs", "p50 ratio")
	for _, t := range ts {
		p50, p99 := pct(t.lat, 50), pct(t.lat, 99)
		var sum time.Duration
		for _, d := range t.lat {
			sum += d
		}
		fmt.Printf("%-12s %10.1f %10.1f %10.1f %14.2f\n", t.name, us(p50), us(p99), us(sum/time.Duration(len(t.lat))), float64(p50)/float64(base))
	}
}

func (t *target) params() string {
	return fmt.Sprintf(`{"name":%q,"arguments":%s}`, t.tool, t.args)
}

// call sends one request and reads lines until its response.
func (t *target) call(method, params string) []byte {
	t.id++
	fmt.Fprintf(t.in, `{"jsonrpc":"2.0","id":%d,"method":%q,"params":%s}`+"\n", t.id, method, params)
	for {
		line, err := t.out.ReadBytes('\n')
		if err != nil {
			fail("%s: reading: %v", t.name, err)
		}
		var m struct {
			ID    json.RawMessage `json:"id"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil || string(m.ID) != fmt.Sprint(t.id) {
			continue // a notification, or noise
		}
		if len(m.Error) > 0 {
			fail("%s: %s answered %s", t.name, method, m.Error)
		}
		return line
	}
}

func pct(ds []time.Duration, p int) time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s[(len(s)-1)*p/100]
}

func us(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }

func fail(format string, a ...any) {
	fmt.Fprintf(os.Stderr, "mcpbench: "+format+"\n", a...)
	os.Exit(1)
}

// end closes the server's stdin, as a client ending its session does, and
// gives it a few seconds to exit (a profile it writes at exit is then
// whole) before it is killed.
func (t *target) end() {
	t.in.Close()
	done := make(chan struct{})
	go func() { t.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.cmd.Process.Kill()
		<-done
	}
}
