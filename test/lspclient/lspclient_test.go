// Package lspclient tests eukhe lsp with a plain LSP client nobody here
// wrote: vscode-languageserver-protocol over vscode-jsonrpc (npm, pinned
// in package.json and its lock beside this file; .ci/run installs them
// with npm ci), announcing modest capabilities (client.mjs), in the
// scenarios of scenarios.mjs. Without node or the installed packages the
// tests fail under CI and are skipped elsewhere.
package lspclient

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/internal/testkit"
)

var binary string

func TestMain(m *testing.M) { testkit.RunWithEukhe(m, "../../cmd/eukhe", &binary) }

// node is the node to run the client with, once its packages are
// installed.
func node(t *testing.T) string {
	t.Helper()
	missing := func(why string) { testkit.Missing(t, why) }
	p, err := exec.LookPath("node")
	if err != nil {
		missing("node is not installed: the plain LSP client tests need Node.js and `npm ci` in test/lspclient (.ci/run does both)")
	}
	if _, err := os.Stat(filepath.Join("node_modules", "vscode-languageserver-protocol", "package.json")); err != nil {
		missing("the plain LSP client's packages are not installed: run `npm ci` in test/lspclient (.ci/run does)")
	}
	return p
}

// scenario runs one scenario of scenarios.mjs in a fresh workspace (user
// settings: shell.autoEffects read, write) and gives what it saw.
func scenario(t *testing.T, name string, env ...string) map[string]any {
	t.Helper()
	nd := node(t)
	w := testkit.NewWorkspace(t, map[string]string{"a.txt": "a one\n", "b.txt": "b one\nb two\n"},
		`{"shell.autoEffects": ["read", "write"]}`)
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, nd, "scenarios.mjs", name)
	cmd.Env = w.Env(append([]string{"EUKHE_ROOT=" + w.Root, "EUKHE_BIN=" + binary}, env...)...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()
	var res map[string]any
	if err := json.Unmarshal(stdout.Bytes(), &res); err != nil {
		t.Fatalf("scenario %s: %v (%v)\n%s\n%s", name, err, runErr, stdout.String(), stderr.String())
	}
	if e, ok := res["error"]; ok || runErr != nil {
		t.Fatalf("scenario %s failed: %v (%v)\neukhe lsp said:\n%s\n%s", name, e, runErr, res["stderr"], stderr.String())
	}
	return res
}

// No documentChanges, utf-16 positions only: unsaved text typed after
// characters outside the BMP reads back exactly, and an edit of two open
// documents is sent as `changes`, lands in both, and says so.
func TestAPlainClientWithoutDocumentChangesGetsChangesInUTF16(t *testing.T) {
	res := scenario(t, "changes")
	const face = "😀 é\u0301 ünï "
	if e := testkit.Str(res, "encoding"); e != "utf-16" && e != "utf-16 (default)" {
		t.Errorf("negotiated position encoding %q; the client offers only utf-16", e)
	}
	if r := testkit.Str(res, "read"); !strings.Contains(r, "1:"+face+"TYPED one\n") {
		t.Errorf("the read of unsaved typing after astral characters:\n%s", r)
	}
	if e := testkit.Str(res, "edit"); !regexp.MustCompile(`^Applied to a\.txt#[0-9a-f]+, b\.txt#[0-9a-f]+\.`).MatchString(e) {
		t.Errorf("the two-file edit said:\n%s", e)
	}
	if a, b := testkit.Str(res, "a"), testkit.Str(res, "b"); a != face+"EDITED\ntwo\n" || b != "b one\nb TWO\n" {
		t.Errorf("the buffers after the edit:\na.txt %q\nb.txt %q", a, b)
	}
	reqs, _ := res["requests"].([]any)
	if len(reqs) == 0 {
		t.Fatal("no workspace/applyEdit reached the client")
	}
	for i, r := range reqs {
		m := r.(map[string]any)
		if m["documentChanges"] == true || m["changes"] != true {
			t.Errorf("applyEdit %d to a client without workspace.workspaceEdit.documentChanges: %v; want changes only", i+1, m)
		}
	}
	if r := testkit.Str(res, "read_after"); !strings.Contains(r, "1:"+face+"EDITED\n") {
		t.Errorf("the read after the edit:\n%s", r)
	}
}

// Helix offers utf-8, utf-32 and utf-16: eukhe picks utf-8, and the
// byte columns of typing after astral characters and of the edit it sends
// are right.
func TestAClientOfferingHelixsEncodingsGetsUTF8(t *testing.T) {
	res := scenario(t, "changes", "EUKHE_ENCODINGS=utf-8,utf-32,utf-16")
	const face = "😀 é\u0301 ünï "
	if e := testkit.Str(res, "encoding"); e != "utf-8" {
		t.Errorf("negotiated position encoding %q; want utf-8, the first offered", e)
	}
	if r := testkit.Str(res, "read"); !strings.Contains(r, "1:"+face+"TYPED one\n") {
		t.Errorf("the read of unsaved typing after astral characters:\n%s", r)
	}
	if a, b := testkit.Str(res, "a"), testkit.Str(res, "b"); a != face+"EDITED\ntwo\n" || b != "b one\nb TWO\n" {
		t.Errorf("the buffers after the edit:\na.txt %q\nb.txt %q", a, b)
	}
}

// workspace.applyEdit false: an open document is never sent an edit; the
// agent is told why.
func TestAPlainClientWithoutApplyEditIsNeverSentOne(t *testing.T) {
	res := scenario(t, "noApplyEdit")
	if n, _ := res["requests"].(float64); n != 0 {
		t.Errorf("%v applyEdit requests reached a client without workspace.applyEdit", n)
	}
	if e := testkit.Str(res, "edit"); res["edit_is_error"] != true || !strings.Contains(e, "cannot apply edits") || strings.HasPrefix(e, "Applied") {
		t.Errorf("the edit of an open document said:\n%s", e)
	}
	if a := testkit.Str(res, "a"); a != "typed a one\n" {
		t.Errorf("the buffer: %q", a)
	}
}

// applied: true, nothing applied, no didChange: the reply never claims
// the edit landed, and reads still see the buffer's text.
func TestAnAppliedTrueWithoutADidChangeIsNotReportedApplied(t *testing.T) {
	res := scenario(t, "lie")
	if e := testkit.Str(res, "edit"); strings.HasPrefix(e, "Applied") || res["edit_is_error"] != true {
		t.Errorf("an edit the client only said it applied was reported:\n%s", e)
	}
	if r := testkit.Str(res, "read_after"); !strings.Contains(r, "1:a one\n2:a two\n") {
		t.Errorf("the read after: eukhe's copy is not the buffer's:\n%s", r)
	}
}

// applied: true at once, the edit and its didChange 3 s later (longer than
// the default landing wait): the reply never says the edit was not
// applied; once it lands, reads see it and the next edit lands.
func TestALateDidChangeIsNeverReportedNotApplied(t *testing.T) {
	res := scenario(t, "late", "EUKHE_LATE_MS=3000")
	if e := testkit.Str(res, "edit"); strings.Contains(strings.ToLower(e), "not applied") {
		t.Errorf("an edit that landed late was reported:\n%s", e)
	}
	if n, _ := res["apply_requests"].(float64); n != 1 {
		t.Errorf("%v applyEdit requests: an edit that lands late must not be undone", n)
	}
	if r := testkit.Str(res, "read_after"); !strings.Contains(r, "1:EDITED\n2:a two\n") {
		t.Errorf("the read once the edit landed:\n%s", r)
	}
	if e := testkit.Str(res, "edit2"); !strings.HasPrefix(e, "Applied to a.txt#") || testkit.Str(res, "a") != "EDITED\nTWO\n" {
		t.Errorf("the next edit: %s\nbuffer %q", e, testkit.Str(res, "a"))
	}
}

// didChange out of version order on the wire, as Helix sends it under fast
// typing (3, 1, 2, 5, 4): eukhe serves the in-order text, or refuses the
// document as unknown; never a third text.
func TestOutOfOrderDidChangeGivesTheInOrderTextOrUnknown(t *testing.T) {
	res := scenario(t, "outOfOrder")
	check := func(read, expected string, isError bool) {
		t.Helper()
		if isError {
			if !strings.Contains(read, "save") && !strings.Contains(read, "reopen") {
				t.Errorf("a refused read says no way out:\n%s", read)
			}
			return
		}
		want := ""
		for i, l := range strings.SplitAfter(expected, "\n") {
			if l != "" {
				want += fmt.Sprintf("%d:%s", i+1, l)
			}
		}
		if !strings.HasSuffix(read, "]\n"+want) {
			t.Errorf("read %q; the text in order is %q", read, expected)
		}
	}
	check(testkit.Str(res, "read"), testkit.Str(res, "expected"), res["read_is_error"] == true)
	check(testkit.Str(res, "read_after"), testkit.Str(res, "expected_after"), res["read_after_is_error"] == true)
}

// Fast typing, in order, with reads in flight among the keys (keys of
// one, two and four UTF-8 bytes, newlines, backspaces): every read is the
// text of some version the client had, and the last is the buffer.
func TestFastTypingReadsAreAlwaysAVersionTheClientHad(t *testing.T) {
	res := scenario(t, "typingReads")
	if n, _ := res["reads"].(float64); n != 20 {
		t.Errorf("%v reads", n)
	}
	if third, _ := res["third"].([]any); len(third) > 0 {
		t.Errorf("%d reads gave a text the client never had, the first:\n%v", len(third), third[0])
	}
	if f, r := testkit.Str(res, "final"), testkit.Str(res, "final_read"); f != r {
		t.Errorf("the last read:\n%q\nthe buffer:\n%q", r, f)
	}
}

// A didChange that never comes from a client seen to reorder (versions 2,
// 1, 4): after the bound eukhe holds a later version for, the document is
// unknown: its reads and edits are refused saying how to re-sync (save,
// reload or reopen it), and nothing is sent to it.
func TestAMissingDidChangeMakesTheDocumentUnknownNeverAThirdText(t *testing.T) {
	res := scenario(t, "gap")
	read := testkit.Str(res, "read")
	if res["read_is_error"] != true {
		t.Fatalf("a read of a document whose version 3 never came (the editor shows version 4):\n%s", read)
	}
	if !strings.Contains(read, "save") && !strings.Contains(read, "reopen") {
		t.Errorf("the refused read says no way out:\n%s", read)
	}
	if n, _ := res["apply_requests"].(float64); n != 0 || res["edit_is_error"] != true {
		t.Errorf("an edit of the unknown document: %v applyEdit requests, reply:\n%s", n, testkit.Str(res, "edit"))
	}
}

// An editor that cannot show questions (showMessageRequest answered
// MethodNotFound): an attached agent's gated step is refused at once,
// saying so; the editor is asked once and the user told once.
func TestAPlainClientThatCannotShowQuestions(t *testing.T) {
	res := scenario(t, "noDialogs")
	t.Logf("the gated steps were refused after %.0f ms and %.0f ms (the approval timeout is 120 s)", res["first_ms"], res["second_ms"])
	for _, k := range []string{"first", "second"} {
		if s := testkit.Str(res, k); !strings.Contains(s, "the editor (plain) cannot show questions") || !strings.Contains(s, "eukhe approvals") {
			t.Errorf("the %s gated step said:\n%s", k, s)
		}
	}
	asked, _ := res["message_requests"].([]any)
	if len(asked) != 1 {
		t.Errorf("the editor was sent %d showMessageRequests; after MethodNotFound, none more", len(asked))
	} else if acts, _ := asked[0].([]any); len(acts) == 0 || acts[0] != "Deny" {
		t.Errorf("the actions: %v; Deny must come first", acts)
	}
	shown, _ := res["shown"].([]any)
	n := 0
	for _, s := range shown {
		if strings.Contains(s.(string), "cannot show questions") {
			n++
		}
	}
	if n != 1 {
		t.Errorf("the user was told %d times that the editor cannot show questions: %v", n, shown)
	}
}
