package lsp

import (
	"errors"
	"fmt"
	"io"
	"sync"
	"time"
)

// Writes to the editor never block without a deadline. The LSP stream
// writes each message in one Write (go.lsp.dev/jsonrpc2's framing); an
// editor that stops reading (stopped with SIGSTOP, hung) fills the pipe,
// and a plain Write would block forever, and with it every later message
// and every edit. boundedWriter queues each message, in order, for one
// writer goroutine and waits at most its timeout: past it the Write fails
// (errEditorNotReading) while the message stays queued and is written
// whole when the editor reads again — a frame is never torn, and a late
// editor gets every message in order (up to maxQueued bytes waiting; past
// that a message is dropped whole, and the Write says so). The edit that
// was being sent is then "sent, not confirmed" (apply.go) and followed: a
// late landing is made whole.

// errEditorNotReading is a write the editor did not take in time.
var errEditorNotReading = errors.New("the editor is not reading its input (stopped or hung?)")

// maxQueued bounds the bytes waiting for an editor that does not read.
const maxQueued = 64 << 20

type boundedWriter struct {
	io.ReadWriteCloser
	timeout time.Duration

	mu     sync.Mutex
	queue  []writeJob
	queued int
	wake   chan struct{}
	closed chan struct{}
	once   sync.Once
}

type writeJob struct {
	b    []byte
	done chan error
}

func newBoundedWriter(rwc io.ReadWriteCloser, timeout time.Duration) *boundedWriter {
	return &boundedWriter{ReadWriteCloser: rwc, timeout: timeout, wake: make(chan struct{}, 1), closed: make(chan struct{})}
}

func (w *boundedWriter) loop() {
	for {
		w.mu.Lock()
		if len(w.queue) == 0 {
			w.mu.Unlock()
			select {
			case <-w.wake:
				continue
			case <-w.closed:
				return
			}
		}
		j := w.queue[0]
		w.queue = w.queue[1:]
		w.mu.Unlock()
		_, err := w.ReadWriteCloser.Write(j.b)
		w.mu.Lock()
		w.queued -= len(j.b)
		w.mu.Unlock()
		j.done <- err
	}
}

// Write queues p whole and waits until it is written, or fails after the
// timeout (it is then still written, in order, once the editor reads).
func (w *boundedWriter) Write(p []byte) (int, error) {
	w.once.Do(func() { go w.loop() })
	j := writeJob{b: append([]byte(nil), p...), done: make(chan error, 1)}
	w.mu.Lock()
	if w.queued+len(p) > maxQueued {
		w.mu.Unlock()
		return 0, fmt.Errorf("%w: %d bytes wait already, so this message was dropped", errEditorNotReading, maxQueued)
	}
	w.queue = append(w.queue, j)
	w.queued += len(p)
	w.mu.Unlock()
	select {
	case w.wake <- struct{}{}:
	default:
	}
	t := time.NewTimer(w.timeout)
	defer t.Stop()
	select {
	case err := <-j.done:
		if err != nil {
			return 0, err
		}
		return len(p), nil
	case <-t.C:
		return 0, fmt.Errorf("%w: the message waited %v (it is sent when the editor reads again)", errEditorNotReading, w.timeout)
	case <-w.closed:
		return 0, io.ErrClosedPipe
	}
}

func (w *boundedWriter) Close() error {
	select {
	case <-w.closed:
	default:
		close(w.closed)
	}
	return w.ReadWriteCloser.Close()
}
