package agent

import (
	"errors"
	"fmt"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/agent/urls"
)

func TestSSHValidHost(t *testing.T) {
	for h, want := range map[string]bool{
		"box": true, "me@box": true, "build-1.example.org": true, "a_b": true, "10.0.0.7": true,
		"": false, "-oProxyCommand=x": false, "-box": false, "box:22": false, "box name": false,
		"box;id": false, "box/x": false, "[::1]": false, "bóx": false, "box\n": false, "$(id)": false,
	} {
		if got := ValidSSHHost(h); got != want {
			t.Errorf("ValidSSHHost(%q) = %v, want %v", h, got, want)
		}
	}
}

// TestSSHParse: S7.9 items 1-3 and the S7.6 roots of a remote path, each
// example of the seed among them.
func TestSSHParse(t *testing.T) {
	hosts := []string{"box", "me@box"}
	for _, c := range []struct {
		rest  string
		hosts []string
		kind  string // "" when it resolves
		path  string
	}{
		{"box/etc/hosts", hosts, "", "/etc/hosts"},
		{"box/~/notes/a.md", hosts, "", "notes/a.md"},
		{"box/~/../x", hosts, urls.KindEscapes, ""},
		{"box/../x", hosts, urls.KindEscapes, ""},
		{"box/etc/../x", hosts, "", "/x"},
		{"box//etc/./hosts", hosts, "", "/etc/hosts"},
		{"box/a/~/b", hosts, "", "/a/~/b"}, // "~" only counts as the first segment
		{"box/~x/y", hosts, "", "/~x/y"},
		{"box/-rf", hosts, "", "/-rf"},
		{"box/~/-x", hosts, "", "-x"}, // after "cat --", an option it is not
		{"me@box/etc/hosts", hosts, "", "/etc/hosts"},
		{"box/", hosts, urls.KindIsDirectory, ""},
		{"box/~", hosts, urls.KindIsDirectory, ""},
		{"box/~/a/..", hosts, urls.KindIsDirectory, ""},
		{"box/a\x00b", hosts, urls.KindArguments, ""},
		// The host as written in ssh.hosts, and nothing else.
		{"other/etc/hosts", hosts, urls.KindNotAllowed, ""},
		{"BOX/etc/hosts", hosts, urls.KindNotAllowed, ""},
		{"me@box.lan/etc/hosts", hosts, urls.KindNotAllowed, ""},
		{"-oProxyCommand=id/x", hosts, urls.KindArguments, ""},
		{"box:22/x", hosts, urls.KindArguments, ""},
		{"/etc/hosts", hosts, urls.KindArguments, ""},
		// An empty list rejects every read, a malformed host too.
		{"box/etc/hosts", nil, urls.KindNotAllowed, ""},
		{"box/etc/hosts", []string{}, urls.KindNotAllowed, ""},
		{"-x/y", nil, urls.KindNotAllowed, ""},
	} {
		raw := "ssh://" + c.rest
		got, err := ParseSSH(raw, c.rest, c.hosts)
		switch {
		case c.kind == "" && err != nil:
			t.Errorf("ParseSSH(%q): %v", raw, err)
		case c.kind == "" && got.Path != c.path:
			t.Errorf("ParseSSH(%q) path = %q, want %q", raw, got.Path, c.path)
		case c.kind != "" && (err == nil || err.Kind != c.kind):
			t.Errorf("ParseSSH(%q) = %+v, %v; want the rejection %s", raw, got, err, c.kind)
		case err != nil && err.URL != raw:
			t.Errorf("ParseSSH(%q) names the URL %q", raw, err.URL)
		}
		if c.kind == urls.KindNotAllowed && len(c.hosts) == 0 && !strings.Contains(err.Error(), "ssh.hosts") {
			t.Errorf("ParseSSH(%q) with no hosts: %q does not name ssh.hosts", raw, err)
		}
	}
}

func TestSSHArgs(t *testing.T) {
	got := SSHArgs(SSHTarget{Host: "me@box", Path: "/etc/it's here"}, 7)
	want := []string{"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=7", "-o", "ClearAllForwardings=yes",
		"--", "me@box", `cat -- '/etc/it'\''s here'`}
	if !slices.Equal(got, want) {
		t.Fatalf("SSHArgs = %q\nwant       %q", got, want)
	}
	for left, want := range map[time.Duration]int{
		0: 1, -time.Second: 1, time.Millisecond: 1, time.Second: 1, 1001 * time.Millisecond: 2, 30 * time.Second: 30,
	} {
		if got := ConnectTimeout(left); got != want {
			t.Errorf("ConnectTimeout(%v) = %d, want %d", left, got, want)
		}
	}
}

// TestSSHQuoteIsOneWord: whatever the path, the remote command a POSIX
// shell parses is cat, "--" and one word, made of single-quoted parts and
// escaped quotes only (no expansion, substitution or operator can be in
// it), whose value is the path itself.
func TestSSHQuoteIsOneWord(t *testing.T) {
	parser := syntax.NewParser(syntax.Variant(syntax.LangPOSIX))
	check := func(t interface{ Fatalf(string, ...any) }, path string) {
		cmd := "cat -- " + ShellQuote(path)
		f, err := parser.Parse(strings.NewReader(cmd), "")
		if err != nil {
			t.Fatalf("%q does not parse: %v", cmd, err)
		}
		if len(f.Stmts) != 1 {
			t.Fatalf("%q is %d statements", cmd, len(f.Stmts))
		}
		call, ok := f.Stmts[0].Cmd.(*syntax.CallExpr)
		if !ok || len(call.Args) != 3 || len(f.Stmts[0].Redirs) != 0 || len(call.Assigns) != 0 {
			t.Fatalf("%q is not one simple command of three words", cmd)
		}
		for _, p := range call.Args[2].Parts {
			switch p := p.(type) {
			case *syntax.SglQuoted:
			case *syntax.Lit:
				if p.Value != `\'` {
					t.Fatalf("%q has the bare part %q", cmd, p.Value)
				}
			default:
				t.Fatalf("%q has a %T part", cmd, p)
			}
		}
		got, err := expand.Fields(&expand.Config{}, call.Args[2])
		if err != nil || len(got) != 1 || got[0] != path {
			t.Fatalf("%q gives the words %q (%v), want the one word %q", cmd, got, err, path)
		}
	}
	for _, p := range []string{"", "'", "''", `\'`, "$(touch pwned)", "`id`", "a b\tc\nd", `"$HOME"`, "x;rm -rf ~", "it's", "*", "~/x", "-n"} {
		check(t, p)
	}
	rapid.Check(t, func(t *rapid.T) {
		p := rapid.StringOf(rapid.OneOf(rapid.SampledFrom([]rune(`'"\$()`+"`;&|<>*?[]~ \t\n!#{}")), rapid.Rune())).Draw(t, "path")
		if strings.ContainsRune(p, 0) {
			return // ParseSSH rejects a NUL
		}
		// The oracle's parser drops every CR silently (a fact of
		// mvdan.cc/sh); a POSIX shell keeps it inside single quotes, which
		// the fixed check below pins down.
		check(t, strings.ReplaceAll(p, "\r", ""))
	})
	if got := ShellQuote("a\r\nb"); got != "'a\r\nb'" {
		t.Fatalf("ShellQuote keeps a CR inside the quotes: got %q", got)
	}
}

// TestSSHClassify: the stderr of OpenSSH and of a remote GNU cat, and the
// rejection each gets.
func TestSSHClassify(t *testing.T) {
	tgt := SSHTarget{Host: "box", Path: "/etc/x"}
	for _, c := range []struct {
		exit   int
		stderr string
		kind   string
	}{
		{255, "ssh: Could not resolve hostname box: Name or service not known\n", urls.KindHost},
		{255, "ssh: Could not resolve hostname box: nodename nor servname provided, or not known\n", urls.KindHost},
		{255, "ssh: connect to host box port 22: Connection refused\n", urls.KindHost},
		{255, "ssh: connect to host box port 22: Connection timed out\n", urls.KindHost},
		{255, "ssh: connect to host box port 22: No route to host\n", urls.KindHost},
		{255, "No ED25519 host key is known for box and you have requested strict checking.\nHost key verification failed.\n", urls.KindHost},
		{255, "@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\n@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @\n@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@\nHost key for box has changed and you have requested strict checking.\nHost key verification failed.\n", urls.KindHost},
		{255, "kex_exchange_identification: Connection closed by remote host\nConnection closed by 10.0.0.7 port 22\n", urls.KindHost},
		{255, "me@box: Permission denied (publickey).\n", urls.KindAuth},
		{255, "Warning: Permanently added 'box' (ED25519) to the list of known hosts.\nme@box: Permission denied (publickey,password,keyboard-interactive).\n", urls.KindAuth},
		{255, "Received disconnect from 10.0.0.7 port 22:2: Too many authentication failures\n", urls.KindAuth},
		{1, "cat: /etc/x: No such file or directory\n", urls.KindNotFound},
		{1, "cat: /etc/x: Not a directory\n", urls.KindNotFound},
		{1, "cat: /etc/x: Is a directory\n", urls.KindIsDirectory},
		{1, "cat: /etc/x: Permission denied\n", urls.KindPermissionDenied},
		{127, "sh: 1: cat: not found\n", urls.KindIO},
		{1, "", urls.KindIO},
		{255, "something new\n", urls.KindIO},
		{-1, "", urls.KindIO},
	} {
		kind, msg := ClassifySSH(c.exit, c.stderr, tgt)
		if kind != c.kind {
			t.Errorf("ClassifySSH(%d, %q) = %s (%s), want %s", c.exit, c.stderr, kind, msg, c.kind)
		}
		if msg == "" || strings.Contains(msg, "@@@@") {
			t.Errorf("ClassifySSH(%d, %q) message %q", c.exit, c.stderr, msg)
		}
	}
}

// TestSSHReply: the cap keeps the first bytes and counts the rest (S7.9.5);
// a deadline before the cap filled is timeout, after it "or more"; binary
// is judged on the kept bytes, a character the cap cut is not binary.
func TestSSHReply(t *testing.T) {
	const raw = "ssh://box/etc/x"
	tgt := SSHTarget{Host: "box", Path: "/etc/x"}
	for _, c := range []struct {
		name  string
		run   SSHRun
		kind  string
		first string // the reply's first line
		body  string
	}{
		{"whole", SSHRun{Kept: []byte("a\nb\n"), Cap: 10}, "", "[ssh://box/etc/x: remote text, 4 bytes, not edit anchors]", "a\nb\n"},
		{"empty", SSHRun{Cap: 10}, "", "[ssh://box/etc/x: remote text, 0 bytes, not edit anchors]", ""},
		{"cut", SSHRun{Kept: []byte("0123456789"), Dropped: 90, Cap: 10}, "",
			"[ssh://box/etc/x: remote text, not edit anchors; the output cap kept the first 10 bytes and dropped 90 bytes]", "0123456789"},
		{"cut rune", SSHRun{Kept: []byte("abcdefgh\xc3"), Dropped: 1, Cap: 9}, "",
			"[ssh://box/etc/x: remote text, not edit anchors; the output cap kept the first 8 bytes and dropped 2 bytes]", "abcdefgh"},
		{"cut 4-byte rune", SSHRun{Kept: []byte("abcdef\xf0\x9f\x98"), Dropped: 1, Cap: 9}, "",
			"[ssh://box/etc/x: remote text, not edit anchors; the output cap kept the first 6 bytes and dropped 4 bytes]", "abcdef"},
		{"full then deadline", SSHRun{Kept: []byte("0123456789"), Dropped: 5, Cap: 10, Deadline: true, Exit: -1}, "",
			"[ssh://box/etc/x: remote text, not edit anchors; the output cap kept the first 10 bytes and dropped 5 bytes or more (the deadline ended the read)]", "0123456789"},
		{"deadline before the cap filled", SSHRun{Kept: []byte("0123"), Cap: 10, Deadline: true, Exit: -1}, urls.KindTimeout, "", ""},
		{"nothing by the deadline", SSHRun{Cap: 10, Deadline: true, Exit: -1}, urls.KindTimeout, "", ""},
		{"NUL", SSHRun{Kept: []byte("a\x00b"), Cap: 10}, urls.KindBinary, "", ""},
		{"not UTF-8", SSHRun{Kept: []byte("caf\xe9 au lait"), Cap: 100}, urls.KindBinary, "", ""},
		{"UTF-16", SSHRun{Kept: []byte("\xff\xfea\x00"), Cap: 100}, urls.KindBinary, "", ""},
		{"failed", SSHRun{Exit: 1, Stderr: "cat: /etc/x: No such file or directory\n", Cap: 10}, urls.KindNotFound, "", ""},
		{"failed after some output", SSHRun{Exit: 1, Kept: []byte("ab"), Stderr: "cat: /etc/x: Is a directory\n", Cap: 10}, urls.KindIsDirectory, "", ""},
		{"no ssh", SSHRun{StartErr: fmt.Errorf("exec: %w", exec.ErrNotFound), Cap: 10}, urls.KindIO, "", ""},
		{"cannot start", SSHRun{StartErr: errors.New("fork: resource temporarily unavailable"), Cap: 10}, urls.KindIO, "", ""},
	} {
		text, err := SSHReply(raw, tgt, c.run)
		if c.kind != "" {
			if err == nil || err.Kind != c.kind {
				t.Errorf("%s: got %q, %v; want the rejection %s", c.name, text, err, c.kind)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		first, body, _ := strings.Cut(text, "\n")
		if first != c.first || body != c.body {
			t.Errorf("%s: got\n%q %q\nwant\n%q %q", c.name, first, body, c.first, c.body)
		}
		if strings.Contains(first, "#") {
			t.Errorf("%s: %q looks like a [path#TAG] header", c.name, first)
		}
	}
}
