package attach

import (
	"bufio"
	"bytes"
	"context"
	"net"
	"strings"
	"testing"
)

// A server that refuses the attach hello: eukhe mcp says so on stderr and
// runs headless; nothing of the refusal reaches the agent's stdout.
func TestAttachRefusedFallsBackToHeadless(t *testing.T) {
	a, b := net.Pipe()
	go func() {
		br := bufio.NewReader(b)
		br.ReadBytes('\n')
		b.Write([]byte(`{"error":"eukhe: /x is under none of the editor's roots"}` + "\n"))
		b.Close()
	}()
	var stdout, stderr bytes.Buffer
	code, attached, _, _ := Attach(context.Background(), a, "/x", "", strings.NewReader(""), &stdout, &stderr)
	if attached || code != 0 {
		t.Fatalf("attached %v, code %d", attached, code)
	}
	if stdout.Len() != 0 || !strings.Contains(stderr.String(), "under none of the editor's roots") || !strings.Contains(stderr.String(), "running headless") {
		t.Fatalf("stdout %q, stderr %q", stdout.String(), stderr.String())
	}
}
