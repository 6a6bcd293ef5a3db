//go:build unix

package agent

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent/urls"
	"github.com/eukhe/eukhe/internal/testkit"
)

// fakeSSHScript plays OpenSSH for the ssh:// tests. It records its argv
// (NUL-separated) to DIR/argv, then acts by the host after "--":
//   - ok, me@ok: a remote whose home is DIR/home; the command runs in a
//     POSIX shell there, as a real login shell would run it;
//   - the failures, with the stderr and exit status of real OpenSSH;
//   - slow: starts a child (its pid to DIR/child.pid), writes a little,
//     and waits: the deadline must kill both;
//   - flood: writes far more than any cap, starts a child, and waits.
const fakeSSHScript = `#!/bin/sh
printf '%s\0' "$@" > "DIR/argv"
host= cmd=
while [ $# -gt 0 ]; do
  if [ "$1" = "--" ]; then host=$2; cmd=$3; break; fi
  shift
done
case "$host" in
ok|me@ok) cd "DIR/home" && exec /bin/sh -c "$cmd" ;;
nohost) echo "ssh: Could not resolve hostname nohost: Name or service not known" >&2; exit 255 ;;
refused) echo "ssh: connect to host refused port 22: Connection refused" >&2; exit 255 ;;
newkey) echo "No ED25519 host key is known for newkey and you have requested strict checking." >&2
  echo "Host key verification failed." >&2; exit 255 ;;
changed) cat >&2 <<'EOF'
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
@    WARNING: REMOTE HOST IDENTIFICATION HAS CHANGED!     @
@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@@
IT IS POSSIBLE THAT SOMEONE IS DOING SOMETHING NASTY!
Host key for changed has changed and you have requested strict checking.
Host key verification failed.
EOF
  exit 255 ;;
denied) echo "me@denied: Permission denied (publickey,password)." >&2; exit 255 ;;
perm) echo "cat: /etc/shadow: Permission denied" >&2; exit 1 ;;
nocat) echo "sh: 1: cat: not found" >&2; exit 127 ;;
slow) sleep 60 & echo $! > "DIR/child.pid"; printf 'part'; wait ;;
flood) i=0; while [ $i -lt 200 ]; do echo "0123456789012345678901234567890123456789"; i=$((i+1)); done
  sleep 60 & echo $! > "DIR/child.pid"; wait ;;
*) echo "fake ssh: no such host $host" >&2; exit 255 ;;
esac
`

func urlDeadline(t *testing.T, d time.Duration) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func urlWrite(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sshURLs is the URL reader of the ssh:// tests: an ssh reader wired into
// a urls.Reader as a session wires it.
type sshURLs struct{ sshReader }

func (r *sshURLs) Read(ctx context.Context, raw string, bound int) (string, error) {
	return (&urls.Reader{SSH: r.sshReader.Read}).Read(ctx, raw, bound)
}

// fakeSSH writes the fake ssh into a fresh directory and gives a reader
// that uses it, every host of the script allowed.
func fakeSSH(t *testing.T) (*sshURLs, string) {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "home"), 0o755); err != nil {
		t.Fatal(err)
	}
	prog := filepath.Join(dir, "ssh")
	testkit.WriteProgram(t, prog, []byte(strings.ReplaceAll(fakeSSHScript, "DIR", dir)))
	hosts := []string{"ok", "me@ok", "nohost", "refused", "newkey", "changed", "denied", "perm", "nocat", "slow", "flood"}
	return &sshURLs{sshReader{Program: prog, Hosts: func() []string { return hosts }}}, dir
}

// TestSSHReadArgvAndQuoting: the exact argv (S7.9.4), and a path of
// spaces, quotes, $(...) and backquotes reaches the remote shell as one
// single-quoted word: it reads that file and runs nothing.
func TestSSHReadArgvAndQuoting(t *testing.T) {
	t.Parallel()
	r, dir := fakeSSH(t)
	name := `it's a $(touch pwned) "q" ` + "`touch pwned2`" + ` file.txt`
	urlWrite(t, filepath.Join(dir, "home", "notes", name), "remote text\n")
	raw := "ssh://me@ok/~/notes/" + name
	text, err := r.Read(urlDeadline(t, 10*time.Second), raw, 0)
	if err != nil {
		t.Fatal(err)
	}
	want := "[" + raw + ": remote text, 12 bytes, not edit anchors]\nremote text\n"
	if text != want {
		t.Fatalf("got %q\nwant %q", text, want)
	}
	argv, err := os.ReadFile(filepath.Join(dir, "argv"))
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Split(strings.TrimSuffix(string(argv), "\x00"), "\x00")
	wantArgv := []string{"-T", "-o", "BatchMode=yes", "-o", "ConnectTimeout=10", "-o", "ClearAllForwardings=yes", "--", "me@ok",
		`cat -- 'notes/it'\''s a $(touch pwned) "q" ` + "`touch pwned2`" + ` file.txt'`}
	if !slices.Equal(got, wantArgv) {
		t.Fatalf("argv %q\nwant %q", got, wantArgv)
	}
	for _, p := range []string{"pwned", "pwned2", "home/pwned", "home/pwned2", "home/notes/pwned"} {
		if _, err := os.Stat(filepath.Join(dir, p)); err == nil {
			t.Fatalf("the path ran a command: %s exists", p)
		}
	}

	// A path under the remote /: absolute in the command.
	urlWrite(t, filepath.Join(dir, "etc", "hosts"), "127.0.0.1 localhost\n")
	text, err = r.Read(urlDeadline(t, 10*time.Second), "ssh://ok"+dir+"/etc/x/../hosts", 0)
	if err != nil || !strings.HasSuffix(text, "]\n127.0.0.1 localhost\n") {
		t.Fatalf("absolute read: %q, %v", text, err)
	}
	argv, _ = os.ReadFile(filepath.Join(dir, "argv"))
	if !strings.HasSuffix(string(argv), "\x00ok\x00cat -- '"+dir+"/etc/hosts'\x00") {
		t.Fatalf("argv %q", argv)
	}
}

// TestSSHReadRejections: each failure of S7.9.7 as OpenSSH or the remote
// cat reports it, and the rejections decided before ssh runs (which do not
// run it).
func TestSSHReadRejections(t *testing.T) {
	t.Parallel()
	r, dir := fakeSSH(t)
	urlWrite(t, filepath.Join(dir, "home", "bin.dat"), "a\x00b")
	urlWrite(t, filepath.Join(dir, "home", "latin1.txt"), "caf\xe9\n")
	urlWrite(t, filepath.Join(dir, "home", "d", "f"), "x")
	for _, c := range []struct {
		url, kind string
		runs      bool
	}{
		{"ssh://nohost/etc/hosts", urls.KindHost, true},
		{"ssh://refused/etc/hosts", urls.KindHost, true},
		{"ssh://newkey/etc/hosts", urls.KindHost, true},
		{"ssh://changed/etc/hosts", urls.KindHost, true},
		{"ssh://denied/etc/hosts", urls.KindAuth, true},
		{"ssh://perm/etc/shadow", urls.KindPermissionDenied, true},
		{"ssh://nocat/etc/hosts", urls.KindIO, true},
		{"ssh://ok/~/missing.txt", urls.KindNotFound, true},
		{"ssh://ok/~/d/f/g", urls.KindNotFound, true},
		{"ssh://ok/~/d", urls.KindIsDirectory, true},
		{"ssh://ok/~/bin.dat", urls.KindBinary, true},
		{"ssh://ok/~/latin1.txt", urls.KindBinary, true},
		{"ssh://elsewhere/etc/hosts", urls.KindNotAllowed, false},
		{"ssh://-oProxyCommand=touch${IFS}pwned/x", urls.KindArguments, false},
		{"ssh://ok/~/../x", urls.KindEscapes, false},
		{"ssh://ok/../x", urls.KindEscapes, false},
		{"ssh://ok/~", urls.KindIsDirectory, false},
	} {
		os.Remove(filepath.Join(dir, "argv"))
		_, err := r.Read(urlDeadline(t, 10*time.Second), c.url, 0)
		if urlKind(err) != c.kind {
			t.Errorf("%s: %v; want the rejection %s", c.url, err, c.kind)
		}
		if _, serr := os.Stat(filepath.Join(dir, "argv")); (serr == nil) != c.runs {
			t.Errorf("%s: ssh ran = %v, want %v", c.url, serr == nil, c.runs)
		}
	}

	// No host allowed: every read is not_allowed, and the message names
	// the setting.
	none := *r
	none.Hosts = func() []string { return nil }
	if _, err := none.Read(context.Background(), "ssh://ok/etc/hosts", 0); urlKind(err) != urls.KindNotAllowed || !strings.Contains(err.Error(), "ssh.hosts") {
		t.Errorf("no hosts: %v", err)
	}
	none.Hosts = nil
	if _, err := none.Read(context.Background(), "ssh://ok/etc/hosts", 0); urlKind(err) != urls.KindNotAllowed {
		t.Errorf("no setting: %v", err)
	}
	// No ssh program: io.
	gone := *r
	gone.Program = filepath.Join(dir, "no-such-ssh")
	if _, err := gone.Read(context.Background(), "ssh://ok/etc/hosts", 0); urlKind(err) != urls.KindIO || !strings.Contains(err.Error(), "no ssh program") {
		t.Errorf("no ssh: %v", err)
	}
}

// TestSSHReadNoSSHOnPath: with ssh nowhere on PATH the read is io, and
// says so.
func TestSSHReadNoSSHOnPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	r := &sshURLs{sshReader{Hosts: func() []string { return []string{"box"} }}}
	_, err := r.Read(context.Background(), "ssh://box/etc/hosts", 0)
	if urlKind(err) != urls.KindIO || !strings.Contains(err.Error(), "no ssh program") {
		t.Fatalf("%v", err)
	}
}

// TestSSHReadCap: the cap keeps the first bytes and the first line counts
// the dropped ones (S7.9.5).
func TestSSHReadCap(t *testing.T) {
	t.Parallel()
	r, dir := fakeSSH(t)
	big := strings.Repeat("0123456789\n", 100) // 1100 bytes
	urlWrite(t, filepath.Join(dir, "home", "big.txt"), big)
	text, err := r.Read(urlDeadline(t, 10*time.Second), "ssh://ok/~/big.txt", 100)
	if err != nil {
		t.Fatal(err)
	}
	first, body, _ := strings.Cut(text, "\n")
	if body != big[:100] || !strings.Contains(first, "kept the first 100 bytes and dropped 1000 bytes]") {
		t.Fatalf("got %q", text)
	}
}

// TestSSHReadDeadlineKillsGroup: a host that does not answer is killed at
// the deadline, with the child it started (ssh's own process group), and
// the read is timeout; one that filled the cap first gives its bytes and
// says "or more".
func TestSSHReadDeadlineKillsGroup(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		host, kind string
	}{
		{"slow", urls.KindTimeout},
		{"flood", ""},
	} {
		r, dir := fakeSSH(t)
		start := time.Now()
		text, err := r.Read(urlDeadline(t, 700*time.Millisecond), "ssh://"+c.host+"/x", 1000)
		took := time.Since(start)
		if urlKind(err) != c.kind {
			t.Fatalf("%s: %q, %v; want %q", c.host, text, err, c.kind)
		}
		if took > 5*time.Second {
			t.Fatalf("%s: the read took %v past a 700ms deadline", c.host, took)
		}
		if c.kind == "" {
			first, body, _ := strings.Cut(text, "\n")
			if len(body) != 1000 || !strings.Contains(first, "kept the first 1000 bytes and dropped") || !strings.Contains(first, "or more") {
				t.Fatalf("%s: got %q", c.host, first)
			}
		}
		pidText, err := os.ReadFile(filepath.Join(dir, "child.pid"))
		if err != nil {
			t.Fatalf("%s: the fake started no child: %v", c.host, err)
		}
		pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
		sshWaitGone(t, pid)
	}
}

// waitGone waits for a process to be gone: no such process, or a zombie
// (dead, waiting for whoever adopted it to reap it).
func sshWaitGone(t *testing.T, pid int) {
	t.Helper()
	for range 100 {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return
		}
		if i := bytes.LastIndexByte(stat, ')'); i >= 0 && bytes.HasPrefix(stat[i+1:], []byte(" Z")) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("process %d outlived the deadline", pid)
}
