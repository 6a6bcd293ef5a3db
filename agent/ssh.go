package agent

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/eukhe/eukhe/agent/urls"
)

// The decisions of an ssh:// read (S7.9), pure: which host and path a URL
// names, the argv, the quoting, and what the run's outcome becomes. The
// run itself is ssh_run.go, whose sshReader is the session's
// urls.Reader.SSH; the walk of the path is urls.WalkPath (S7.6), every
// failure a *urls.Error.
//
// Chosen where the seed is silent: an ssh:// path at its root
// (ssh://box/, ssh://box/~) is is_directory without running ssh. Binary
// is judged on the bytes the cap kept; a character the cap cut in two
// counts with the dropped bytes. The reply always has a first line (the
// URL, the size or what the cap dropped, "not edit anchors") so that the
// file's own first line is never mistaken for it. A context without a
// deadline gets DefaultSSHBudget. Every read here runs in a tool call with
// an output bound (0 is docs.DefaultReadBound), so S7.9.6's arguments
// rejection of a read without a cap has no case.

// DefaultSSHBudget ends an ssh:// read whose context has no deadline.
const DefaultSSHBudget = 30 * time.Second

// SSHTarget is an ssh:// URL decided: a host of ssh.hosts and the remote
// path. Path is absolute under the remote /, or relative to the remote
// home (where ssh's remote shell starts) for a URL whose first segment is
// "~".
type SSHTarget struct {
	Host string
	Path string
}

// ValidSSHHost tells whether a host may reach ssh's argv (S7.9.2): letters,
// digits, '.', '-', '_' and '@', not empty and not starting with '-' (so
// it can never read as an option).
func ValidSSHHost(h string) bool {
	if h == "" || h[0] == '-' {
		return false
	}
	for _, c := range []byte(h) {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '-' || c == '_' || c == '@') {
			return false
		}
	}
	return true
}

// ParseSSH decides the rest of an ssh:// URL ("host/path") against the
// hosts of ssh.hosts (S7.9.1-3, S7.6): an empty list rejects every read
// (not_allowed, naming ssh.hosts); a host outside the charset is
// arguments; a host not written in the list exactly is not_allowed; a
// path above its root is escapes; a path at its root (a directory) is
// is_directory.
func ParseSSH(raw, rest string, hosts []string) (SSHTarget, *urls.Error) {
	host, path, _ := strings.Cut(rest, "/")
	if len(hosts) == 0 {
		return SSHTarget{}, urls.SSHOff(raw)
	}
	if !ValidSSHHost(host) {
		return SSHTarget{}, urls.Errorf(urls.KindArguments, raw, "host %q: a host is letters, digits, '.', '-', '_' and '@', not starting with '-'; ports, users and options go in ~/.ssh/config", host)
	}
	if !slices.Contains(hosts, host) {
		return SSHTarget{}, urls.Errorf(urls.KindNotAllowed, raw, "host %q is not in ssh.hosts (%s); use a host as it is written there, or ask the user to add this one to ssh.hosts in the user settings.json", host, strings.Join(hosts, ", "))
	}
	if strings.IndexByte(path, 0) >= 0 {
		return SSHTarget{}, urls.Errorf(urls.KindArguments, raw, "the path holds a NUL byte, which no file name can")
	}
	p, ok := RemotePath(path)
	if !ok {
		return SSHTarget{}, urls.Errorf(urls.KindEscapes, raw, "the path climbs above its root (the remote /, or the remote home after ~) with \"..\"; name a path under it")
	}
	if p == "" || p == "/" {
		return SSHTarget{}, urls.Errorf(urls.KindIsDirectory, raw, "names the root directory itself; ssh:// reads one file: ssh://%s/etc/hosts, ssh://%s/~/notes.md", host, host)
	}
	return SSHTarget{Host: host, Path: p}, nil
}

// RemotePath walks the path of an ssh:// URL (S7.6): under the remote home
// when its first segment is exactly "~" (the result is then relative, ""
// for the home itself), else under the remote / (the result is absolute).
// ok is false above the root.
func RemotePath(path string) (string, bool) {
	if first, after, _ := strings.Cut(path, "/"); first == "~" {
		names, ok := urls.WalkPath(after)
		return strings.Join(names, "/"), ok
	}
	names, ok := urls.WalkPath(path)
	return "/" + strings.Join(names, "/"), ok
}

// ShellQuote makes s one single-quoted word of a POSIX shell: a single
// quote in s closes the quote, comes as a backslash-escaped quote, and
// opens a new quote, so no character of s is shell syntax.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// SSHArgs is ssh's argv after the program name (S7.9.4): no terminal, no
// prompts, no forwarding, the host after "--", and the remote command with
// the path as one single-quoted word.
func SSHArgs(t SSHTarget, connectTimeout int) []string {
	return []string{
		"-T",
		"-o", "BatchMode=yes",
		"-o", fmt.Sprintf("ConnectTimeout=%d", connectTimeout),
		"-o", "ClearAllForwardings=yes",
		"--", t.Host,
		"cat -- " + ShellQuote(t.Path),
	}
}

// ConnectTimeout is ssh's ConnectTimeout for the time left before the
// deadline: whole seconds rounded up, at least 1.
func ConnectTimeout(left time.Duration) int {
	s := int((left + time.Second - 1) / time.Second)
	return max(s, 1)
}

// SSHRun is what running ssh gave: everything SSHReply decides from.
type SSHRun struct {
	StartErr error  // the program could not be started (not on PATH...)
	Exit     int    // its exit status; -1 when a signal ended it
	Stderr   string // the start of its stderr
	Kept     []byte // the first bytes of its output, at most Cap
	Dropped  int64  // the output bytes past Cap, counted
	Cap      int    // the output cap
	Deadline bool   // the deadline ended the read (the group was killed)
}

// SSHReply decides an ssh:// read from its run (S7.9.5, S7.9.7, S7.9.8):
// the text the model gets, or the typed rejection. The text is the file as
// it is, after one first line that names the URL, says the lines are not
// edit anchors, and gives the number of bytes the cap dropped ("or more"
// when the deadline ended a read that had filled the cap).
func SSHReply(raw string, t SSHTarget, run SSHRun) (string, *urls.Error) {
	switch {
	case run.StartErr != nil:
		if errors.Is(run.StartErr, exec.ErrNotFound) || errors.Is(run.StartErr, fs.ErrNotExist) {
			return "", urls.Errorf(urls.KindIO, raw, "no ssh program (%v); the user must install an OpenSSH client on PATH", run.StartErr)
		}
		return "", urls.Errorf(urls.KindIO, raw, "ssh could not start: %v", run.StartErr)
	case run.Deadline && len(run.Kept) < run.Cap:
		return "", urls.Errorf(urls.KindTimeout, raw, "the read did not finish by the deadline (%d bytes had come); the host or the link may be slow, or %s may not be a plain file. Try again once, then ask the user", len(run.Kept), t.Path)
	case !run.Deadline && run.Exit != 0:
		kind, msg := ClassifySSH(run.Exit, run.Stderr, t)
		return "", &urls.Error{Kind: kind, URL: raw, Msg: msg}
	}
	kept, dropped := run.Kept, run.Dropped
	if dropped > 0 || run.Deadline {
		// The cap may have cut a character; its first bytes go with the
		// dropped ones rather than make the text look binary.
		cut := len(kept)
		for i := len(kept) - 1; i >= 0 && i >= len(kept)-utf8.UTFMax; i-- {
			if utf8.RuneStart(kept[i]) {
				if !utf8.FullRune(kept[i:]) {
					cut = i
				}
				break
			}
		}
		dropped += int64(len(kept) - cut)
		kept = kept[:cut]
	}
	if bytes.IndexByte(kept, 0) >= 0 || !utf8.Valid(kept) {
		return "", urls.Errorf(urls.KindBinary, raw, "%s on %s is not UTF-8 text (or holds a NUL byte); ssh:// reads text files only", t.Path, t.Host)
	}
	var head string
	switch {
	case run.Deadline:
		head = fmt.Sprintf("[%s: remote text, not edit anchors; the output cap kept the first %d bytes and dropped %d bytes or more (the deadline ended the read)]\n", raw, len(kept), dropped)
	case dropped > 0:
		head = fmt.Sprintf("[%s: remote text, not edit anchors; the output cap kept the first %d bytes and dropped %d bytes]\n", raw, len(kept), dropped)
	default:
		head = fmt.Sprintf("[%s: remote text, %d bytes, not edit anchors]\n", raw, len(kept))
	}
	return head + string(kept), nil
}

// The stderr of OpenSSH and of a remote cat, and the rejection each
// means. ssh itself exits 255; otherwise the status is the remote cat's.
var (
	sshAuth = []string{"Permission denied (", "Too many authentication failures", "No more authentication methods"}
	sshHost = []string{
		"Could not resolve hostname", "Name or service not known", "nodename nor servname",
		"connect to host", "Connection refused", "Connection timed out", "No route to host",
		"Network is unreachable", "Host key verification failed", "REMOTE HOST IDENTIFICATION HAS CHANGED",
		"host key is known", "Host key for", "Connection closed by", "Connection reset",
		"kex_exchange_identification", "Operation timed out",
	}
	catNotFound = []string{"No such file or directory", "Not a directory"}
)

// ClassifySSH gives the rejection of a failed ssh run (S7.9.7) from its
// exit status and stderr: host, auth, not_found, is_directory,
// permission_denied, or io; the message quotes the line that decided it.
func ClassifySSH(exit int, stderr string, t SSHTarget) (kind, msg string) {
	if exit == 255 {
		if line, ok := findLine(stderr, sshAuth); ok {
			return urls.KindAuth, fmt.Sprintf("%s refused every key (%s). eukhe types no password or passphrase (BatchMode): the user can load a key into ssh-agent or name one in ~/.ssh/config", t.Host, line)
		}
		if line, ok := findLine(stderr, sshHost); ok {
			return urls.KindHost, fmt.Sprintf("ssh could not reach %s (%s). The user can check that `ssh %s` works in a terminal; a new or changed host key must be accepted there first", t.Host, line, t.Host)
		}
	}
	if exit != 255 {
		if line, ok := findLine(stderr, catNotFound); ok {
			return urls.KindNotFound, fmt.Sprintf("no file %s on %s (%s); check the path (ssh://%s/~/... is under the remote home)", t.Path, t.Host, line, t.Host)
		}
		if line, ok := findLine(stderr, []string{"Is a directory"}); ok {
			return urls.KindIsDirectory, fmt.Sprintf("%s on %s is a directory (%s); ssh:// reads one file, name a file in it", t.Path, t.Host, line)
		}
		if line, ok := findLine(stderr, []string{"Permission denied"}); ok {
			return urls.KindPermissionDenied, fmt.Sprintf("the remote user cannot read %s on %s (%s)", t.Path, t.Host, line)
		}
	}
	last := lastLine(stderr)
	if exit == 127 {
		return urls.KindIO, fmt.Sprintf("the remote shell on %s could not run cat (%s); ssh:// needs a POSIX login shell with cat", t.Host, last)
	}
	if last == "" {
		last = "no message"
	}
	return urls.KindIO, fmt.Sprintf("ssh to %s failed with exit status %d (%s)", t.Host, exit, last)
}

// findLine is the first line of text that holds one of the needles.
func findLine(text string, needles []string) (string, bool) {
	for line := range strings.Lines(text) {
		for _, n := range needles {
			if strings.Contains(line, n) {
				return clip(strings.TrimSpace(line)), true
			}
		}
	}
	return "", false
}

func lastLine(text string) string {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	return clip(strings.TrimSpace(lines[len(lines)-1]))
}

// clip bounds a quoted line of stderr.
func clip(s string) string {
	const most = 300
	if len(s) <= most {
		return s
	}
	return strings.ToValidUTF8(s[:most], "") + "…"
}
