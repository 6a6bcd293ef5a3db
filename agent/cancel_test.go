package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
)

// hangGuard bounds a wait that only a bug makes endless, so such a bug
// fails the test instead of hanging the suite; nothing is timed by it.
const hangGuard = 2 * time.Minute

// heldStore counts the reads of the walked files and, from the at-th on,
// holds each until the tool call's own context (as the server's handler
// got it) is done: the walk is mid-way when the client cancels, and goes
// on only once the cancel has reached the server.
type heldStore struct {
	docs.Store
	at      int64
	reads   atomic.Int64
	reached chan struct{}
	once    sync.Once
	call    func() context.Context
	never   atomic.Bool
}

func (s *heldStore) Read(path string) (docs.Snapshot, error) {
	s.hold(path)
	return s.Store.Read(path)
}

// OpenTree holds the walk's reads through the disk's tree (the openat2
// walk a session runs) as Read holds reads by path.
func (s *heldStore) OpenTree(dir string, real bool) (docs.Tree, error) {
	t, err := s.Store.OpenTree(dir, real)
	if err != nil {
		return nil, err
	}
	return heldTree{t, s}, nil
}

type heldTree struct {
	docs.Tree
	s *heldStore
}

func (t heldTree) Read(rel string) (docs.Snapshot, error) {
	t.s.hold(rel)
	return t.Tree.Read(rel)
}

// hold holds a read of a walked file from the at-th on.
func (s *heldStore) hold(path string) {
	if strings.HasSuffix(path, ".txt") && strings.Contains(path, "tree") {
		if s.reads.Add(1) >= s.at {
			s.once.Do(func() { close(s.reached) })
			select {
			case <-s.call().Done():
			case <-time.After(hangGuard):
				s.never.Store(true)
			}
		}
	}
}

// An MCP call the client cancels (go-sdk: a cancelled context sends
// notifications/cancelled) stops a long grep in the session: once the
// cancel reaches the server, each walk worker reads at most the file it
// holds, and the session's next call runs.
func TestMCPCancelledCallStopsALongGrep(t *testing.T) {
	const dirs, files, at = 40, 50, 200
	root := t.TempDir()
	for d := range dirs {
		dir := filepath.Join(root, "tree", fmt.Sprintf("d%03d", d))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for f := range files {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d.txt", f)), []byte("one\nneedle\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(filepath.Join(root, "small.md"), []byte("small\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var callCtx context.Context
	store := &heldStore{Store: docs.NewDisk(), at: at, reached: make(chan struct{}),
		call: func() context.Context { mu.Lock(); defer mu.Unlock(); return callCtx }}
	host := &Headless{RootDir: root, Disk: store, Current: settings.Defaults}
	s, err := Open(Options{Host: host})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	srv := s.Server()
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/call" {
				mu.Lock()
				if callCtx == nil {
					callCtx = ctx // the grep's: the first call
				}
				mu.Unlock()
			}
			return next(ctx, method, req)
		}
	})
	ct, st := mcp.NewInMemoryTransports()
	ss, err := srv.Connect(t.Context(), st, nil)
	if err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(t.Context(), ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })

	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	returned := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "grep", Arguments: map[string]any{"pattern": "needle", "literal": true}})
		returned <- err
	}()
	select {
	case <-store.reached:
	case <-time.After(hangGuard):
		t.Fatal("the grep never reached its walk")
	}
	cancel()
	if err := <-returned; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
	// The session runs one document call at a time: this read waits for
	// the grep to end.
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": "small.md"}})
	if err != nil || res.IsError {
		t.Fatalf("the next call: %v %+v", err, res)
	}
	if store.never.Load() {
		t.Fatal("the client's cancel never reached the tool call's context")
	}
	workers := int64(max(2, runtime.GOMAXPROCS(0)+1))
	if n := store.reads.Load(); n >= at+workers {
		t.Fatalf("%d of %d files read: the cancelled grep went on past the files its %d workers held", n, dirs*files, workers)
	}
}

// The documents gate's question is asked under the call's context: when
// the client cancels the call, the question is withdrawn (the asker's
// context is done) and nothing is read.
func TestMCPCancelledCallWithdrawsTheGateQuestion(t *testing.T) {
	asked := make(chan struct{})
	withdrawn := make(chan error, 1)
	g := newGuardWorld(t, func(ctx context.Context, q gate.Question) gate.Answer {
		close(asked)
		select {
		case <-ctx.Done():
			withdrawn <- ctx.Err()
		case <-time.After(hangGuard):
			withdrawn <- nil
		}
		return gate.Unanswered
	})
	s := g.open(t, "")
	cs := connect(t, s)
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	returned := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{"path": g.secret}})
		returned <- err
	}()
	select {
	case <-asked:
	case <-time.After(hangGuard):
		t.Fatal("the secret read never asked")
	}
	cancel()
	if err := <-withdrawn; err == nil {
		t.Fatal("the question outlived the cancelled call")
	}
	if err := <-returned; err == nil {
		t.Fatal("the cancelled call returned a result")
	}
}

// The same in process, through the session's read tool: the tool's
// answer is the refusal, and the secret is not in it.
func TestCancelledReadRefusesWithTheQuestionWithdrawn(t *testing.T) {
	asked := make(chan struct{})
	g := newGuardWorld(t, func(ctx context.Context, q gate.Question) gate.Answer {
		close(asked)
		<-ctx.Done()
		return gate.Unanswered
	})
	s := g.open(t, "")
	ctx, cancel := context.WithCancel(t.Context())
	go func() { <-asked; cancel() }()
	res := handleRead(ctx, s, []byte(fmt.Sprintf(`{"path": %q}`, g.secret)))
	if !res.Failed() || strings.Contains(res.Text(), "KEY") || !strings.Contains(res.Text(), "did not run") {
		t.Fatalf("read: %+v", res)
	}
}
