package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// The TypeScript SDK's client offers roots: eukhe mcp, started in
// another directory without --root, serves the client's root, says so
// first on standard error, and says (not follows) a change of roots.
func TestMCPServesTheTypeScriptClientsRoots(t *testing.T) {
	w := newPeerWorld(t)
	proj := t.TempDir()
	writeFile(t, filepath.Join(proj, "a.txt"), "from the client's root\n", 0o644)
	cmd := exec.Command(w.node, filepath.Join(w.peers, "roots-client.mjs"), binary, "file://"+proj, "a.txt")
	cmd.Dir = w.root // not the client's root
	cmd.Env = append(os.Environ(), "HOME="+w.home, "XDG_CONFIG_HOME="+w.config, "XDG_STATE_HOME="+w.state)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("roots-client: %v\n%s\n%s", err, out, errb.String())
	}
	var texts []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var e struct {
			Text    string `json:"text"`
			IsError bool   `json:"isError"`
			Error   string `json:"error"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("line %q: %v", sc.Text(), err)
		}
		if e.Error != "" || e.IsError {
			t.Fatalf("the client reports: %s%s\n%s", e.Error, e.Text, errb.String())
		}
		texts = append(texts, e.Text)
	}
	if len(texts) != 2 || !strings.Contains(texts[0], "from the client's root") || !strings.Contains(texts[1], "from the client's root") {
		t.Fatalf("the reads: %q\n%s", texts, errb.String())
	}
	said := errb.String()
	first, _, _ := strings.Cut(said, "\n")
	if !strings.Contains(first, "serving "+proj+" (the client's first root") {
		t.Errorf("the first line: %q", first)
	}
	if !strings.Contains(said, "the client's roots changed; this session stays on "+proj) {
		t.Errorf("the change of roots is not said:\n%s", said)
	}
}
