//go:build linux

package agent

// The fourteenth red team's attacks on the last stop's changes through
// the real bash tool of a headless session (r13world: agent/redteam13_test.go):
// the runtime check under shell.confinement "off" (agent/shell check.go
// judge), the other names of secret files the sandbox hides
// (hideSecretNames) and the settings directories it freezes (Frozen).
// Each test asserts the safe outcome; these held. Those that got
// through are in redteam14_open14_test.go (build tag open_attacks).
// No step names the test's home by $HOME or ~: every path is given.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/eukhe/eukhe/agent/shell"
	"github.com/eukhe/eukhe/docs"
	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/settings"
	"github.com/eukhe/eukhe/internal/testkit"
)

// r14canary is the secret the attacks look for in a result.
const r14canary = "R14-CANARY-secret-4f1c"

// r14perlPlant is a program the gate cannot see into that plants a git
// hook (a protected write).
const r14perlPlant = `perl -e "open F, q(>), q(.g).q(it/hooks/pre-commit); print F q(planted)"`

// Attack (target 8, shell.confinement "off", auto set {read, write,
// exec}): programs started by routes other than a plain command: exec
// of a builtin's argument, exec -a, command -p, coproc, an output
// process substitution, time, a function exported to a child bash, a
// source of a process substitution, BASH_ENV of a child bash, mapfile's
// callback, a subshell, a pipeline's last part, a here-string to bash.
// Each must be asked (and denied here): no hook is planted.
// Held: every program is judged where it starts (the call handler sees
// each, after aliases, functions and traps) and widened unconfined.
func TestRedteam14_UnconfinedRuntimeRoutes(t *testing.T) {
	p := r14perlPlant
	scripts := []string{
		"exec " + p,
		"exec -a cd " + p,
		"command -p " + p,
		"coproc " + p + "; wait",
		"echo hi > >(" + p + "); wait",
		"time " + p,
		"f() { " + p + "; }; export -f f; bash -c f",
		"source <(echo '" + strings.ReplaceAll(p, "'", "") + "')",
		"echo '" + p + "' > x.sh; BASH_ENV=./x.sh bash -c true",
		"mapfile -C 'f' -c 1 a <<< x; f() { " + p + "; }",
		"( " + p + " )",
		"echo | " + p,
		"bash <<< '" + p + "'",
		"cd() { builtin cd \"$@\"; " + p + "; }; cd .",
		"set -o errtrace; f() { false; }; trap '" + p + "' ERR; f",
	}
	w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "off")
	for _, sc := range scripts {
		r := w.bash(t, sc)
		if w.hook() {
			t.Errorf("THROUGH: %q planted a hook unasked (asked %d):\n%s", sc, len(w.asked()), r.Text())
		}
		os.Remove(filepath.Join(w.dir, ".git", "hooks", "pre-commit"))
	}
}

// r14secretWorld is a session (auto set auto, sandboxed) whose home has
// ~/.aws/credentials holding r14canary, with another name of it at each
// of names (relative to the home; a directory outside the workspace).
func r14secretWorld(t *testing.T, auto gate.Effects, names ...string) (*r13world, string) {
	t.Helper()
	w := r13session(t, auto, "auto")
	cred := filepath.Join(w.home, ".aws", "credentials")
	if err := os.MkdirAll(filepath.Dir(cred), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cred, []byte("[default]\nkey = "+r14canary+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		p := filepath.Join(w.home, n)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(cred, p); err != nil {
			t.Fatal(err)
		}
	}
	return w, cred
}

// r14watched is r13watched (a real settings watch, eukhe's policy with
// its settings directories made, the default auto set, confinement
// auto) with more of the environment ("$HOME" in a value is the test's
// home, "$WS" the workspace); mk prepares the home and the workspace.
func r14watched(t *testing.T, env map[string]string, mk func(home, ws string)) (*Session, string, string, *settings.Watcher) {
	t.Helper()
	dir, home := t.TempDir(), t.TempDir()
	mk(home, dir)
	e := map[string]string{"HOME": home, "PATH": os.Getenv("PATH")}
	for k, v := range env {
		e[k] = strings.NewReplacer("$HOME", home, "$WS", dir).Replace(v)
	}
	paths := settings.Locate(e, []string{dir})
	watch, err := settings.Watch(paths, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { watch.Close() })
	policy, _ := paths.Policy(e)
	host := &Headless{RootDir: dir, Disk: docs.NewDisk(), Paths: policy, Current: watch.Current}
	s, err := Open(Options{Host: host, Env: e, ShellBudget: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s, home, dir, watch
}

// r14offAfter runs script in s and tells whether the settings in force
// turned confinement off (within a second), with the result's text.
func r14offAfter(t *testing.T, s *Session, watch *settings.Watcher, script string) (bool, string) {
	t.Helper()
	text := r14callAll(t, s, script)
	deadline := time.Now().Add(time.Second)
	for watch.Current().Confinement != "off" && time.Now().Before(deadline) {
		time.Sleep(100 * time.Millisecond)
	}
	return watch.Current().Confinement == "off", text
}

// r14perl is a perl step given paths reversed (the gate sees none):
// $A[0], $A[1] … in code are the paths.
func r14perl(code string, paths ...string) string {
	s := "perl -MFile::Path=make_path -e 'my @A = map { scalar reverse } @ARGV; " + code + "'"
	for _, p := range paths {
		s += " '" + r13rev(p) + "'"
	}
	return s
}

const r14off = `{"shell.confinement": "off"}`

// Attack (target 7, the default auto set, bubblewrap and Landlock): the
// frozen settings directory (~/.config/eukhe, read-only in the sandbox)
// given the settings file by other routes: a rename into it of a
// workspace file, a hard link into it, a rename over the existing file,
// a rename of the frozen directory itself away and a new one made; and
// XDG_CONFIG_HOME a workspace directory (a dotfiles repository opened as
// the project), its config directory renamed away and remade.
// Each must leave confinement on.
// Held: each route fails in the sandbox (permission denied: the frozen
// directory is read-only, the directories above it pinned). Noted:
// where XDG_CONFIG_HOME is in the workspace, every program's write at
// the workspace root is refused (the root is above a settings file),
// over-strict but safe.
func TestRedteam14_FrozenRenameInto(t *testing.T)        { r14frozen(t, "rename into") }
func TestRedteam14_FrozenLinkInto(t *testing.T)          { r14frozen(t, "link into") }
func TestRedteam14_FrozenRenameOver(t *testing.T)        { r14frozen(t, "rename over") }
func TestRedteam14_FrozenDirRenamedAway(t *testing.T)    { r14frozen(t, "dir renamed away") }
func TestRedteam14_FrozenXDGInWorkspace(t *testing.T)    { r14frozen(t, "XDG in the workspace") }
func TestRedteam14_FrozenXDGDirInWorkspace(t *testing.T) { r14frozen(t, "XDG dir in the workspace") }

// r14frozen runs the route named only, under each sandbox.
func r14frozen(t *testing.T, only string) {
	r13eachSandbox(t, func(t *testing.T) {
		w := `open F, ">", "evil.json" or die; print F q(` + r14off + `); close F; `
		cfgOnly := func(home, _ string) { os.MkdirAll(filepath.Join(home, ".config"), 0o755) }
		withFile := func(home, _ string) {
			os.MkdirAll(filepath.Join(home, ".config", "eukhe"), 0o755)
			os.WriteFile(filepath.Join(home, ".config", "eukhe", "settings.json"), []byte("{}"), 0o644)
		}
		for _, c := range []struct {
			name string
			env  map[string]string
			mk   func(home, ws string)
			code string
			at   func(home, ws string) []string
		}{
			{"rename into", nil, cfgOnly, w + `rename "evil.json", "$A[0]/settings.json" or die "rename: $!"`,
				func(h, _ string) []string { return []string{h + "/.config/eukhe"} }},
			{"link into", nil, cfgOnly, w + `link "evil.json", "$A[0]/settings.json" or die "link: $!"`,
				func(h, _ string) []string { return []string{h + "/.config/eukhe"} }},
			{"rename over", nil, withFile, w + `rename "evil.json", "$A[0]/settings.json" or die "rename: $!"`,
				func(h, _ string) []string { return []string{h + "/.config/eukhe"} }},
			{"dir renamed away", nil, withFile, w + `rename $A[0], "$A[0].old" or die "mv: $!"; make_path($A[0]); rename "evil.json", "$A[0]/settings.json" or die "rename: $!"`,
				func(h, _ string) []string { return []string{h + "/.config/eukhe"} }},
			{"XDG in the workspace", map[string]string{"XDG_CONFIG_HOME": "$WS/config"}, func(_, ws string) { os.MkdirAll(filepath.Join(ws, "config"), 0o755) },
				`rename $A[0], "$A[0].old" or die "mv: $!"; make_path("$A[0]/eukhe"); open F, ">", "$A[0]/eukhe/settings.json" or die "open: $!"; print F q(` + r14off + `); close F`,
				func(_, ws string) []string { return []string{ws + "/config"} }},
			{"XDG dir in the workspace", map[string]string{"XDG_CONFIG_HOME": "$WS/config"}, func(_, ws string) { os.MkdirAll(filepath.Join(ws, "config"), 0o755) },
				`rename "$A[0]/eukhe", "$A[0]/e.old" or die "mv: $!"; make_path("$A[0]/eukhe"); open F, ">", "$A[0]/eukhe/settings.json" or die "open: $!"; print F q(` + r14off + `); close F`,
				func(_, ws string) []string { return []string{ws + "/config"} }},
		} {
			if c.name != only {
				continue
			}
			var home, ws string
			s, home, ws, watch := r14watched(t, c.env, func(h, d string) { home, ws = h, d; c.mk(h, d) })
			off, text := r14offAfter(t, s, watch, r14perl(c.code, c.at(home, ws)...))
			if off {
				t.Errorf("THROUGH (%s): confinement is off:\n%s", c.name, text)
			}
		}
	})
}

// r14bashAll runs script and, when the step outlives the call and is
// detached as job j1, waits for the job: the whole output.
func (w *r13world) r14bashAll(t *testing.T, script string) string {
	t.Helper()
	return r14callAll(t, w.s, script)
}

// r14callAll runs script in s, waiting for its job when it is detached
// (the first sandboxed step of a session takes seconds here).
func r14callAll(t *testing.T, s *Session, script string) string {
	t.Helper()
	raw, _ := json.Marshal(map[string]any{"script": script})
	r, err := s.Call(context.Background(), "bash", raw)
	if err != nil {
		t.Fatal(err)
	}
	text := r.Text()
	for i := 0; i < 5 && strings.Contains(text, "detached: job j1"); i++ {
		raw, _ := json.Marshal(map[string]any{"job": "j1"})
		r, err := s.Call(context.Background(), "bash", raw)
		if err != nil {
			t.Fatal(err)
		}
		text = r.Text()
		if !strings.Contains(text, "goes on") {
			break
		}
	}
	return text
}

// Attack (target 2, sandboxed, the default auto set): ~/.aws
// bind-mounted into the workspace (a mount point named with a space and
// a backslash) BEFORE the session's policy: a program the gate cannot
// see into reads the credentials by the mount's path.
// Held: the policy's mount names of the secret are hidden in both
// sandboxes.
func TestRedteam14_SecretMountedIntoTheWorkspaceBeforeThePolicy(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("bind mounts need root")
	}
	r13eachSandbox(t, func(t *testing.T) {
		var mnt string
		s, _, _, _ := r14watched(t, nil, func(home, ws string) {
			aws := filepath.Join(home, ".aws")
			mnt = filepath.Join(ws, `m n\x`)
			if err := os.MkdirAll(aws, 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(aws, "credentials"), []byte("key = "+r14canary+"\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(mnt, 0o755); err != nil {
				t.Fatal(err)
			}
			if out, err := exec.Command("mount", "--bind", aws, mnt).CombinedOutput(); err != nil {
				t.Skipf("mount: %v %s", err, out)
			}
			t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
		})
		text := r14callAll(t, s, "perl -e 'open F, scalar reverse($ARGV[0]) or die \"$!\"; print <F>' '"+r13rev(filepath.Join(mnt, "credentials"))+"'")
		if strings.Contains(text, r14canary) {
			t.Errorf("THROUGH: the credentials mounted into the workspace before the policy were read:\n%s", text)
		}
	})
}

// Held (was open): a search for a secret's other names cut at its bound refuses the program (agent/shell/sandbox.go hideSecretNames).
// Attack (target 9, sandboxed, the default auto set; heavy: 200 001
// files): a workspace with more entries than the link search's bound
// (gate.MaxLinkWalk: a monorepo's node_modules; or a step's own
// `seq 200001 | xargs touch`, which write allows) before, in name
// order, a directory holding a hard link of ~/.aws/credentials (a
// dotfiles repository's): the search is cut before it, and an opaque
// program reads the key by that name.
// THROUGH under both mechanisms (severity high: the agent can make the
// cut itself; the link is the user's, as in the thirteenth red team's
// row): the key is printed, nothing asked.
// Root cause: hideSecretNames hides what LinkCache.SearchFrom found and
// ignores found.Complete and found.Unfound: a cut search hides less and
// refuses nothing (the protected search refuses on a cut only when the
// step may write outside).
func TestRedteam14_SecretLinkPastTheSearchBoundRefusesTheProgram(t *testing.T) {
	var ws string
	s, _, _, _ := r14watched(t, nil, func(home, d string) {
		ws = d
		cred := filepath.Join(home, ".aws", "credentials")
		must := func(err error) {
			if err != nil {
				t.Fatal(err)
			}
		}
		must(os.MkdirAll(filepath.Dir(cred), 0o700))
		must(os.WriteFile(cred, []byte("key = "+r14canary+"\n"), 0o600))
		must(os.MkdirAll(filepath.Join(d, "aaa"), 0o755))
		for i := 0; i <= gate.MaxLinkWalk; i++ {
			f, err := os.Create(filepath.Join(d, "aaa", strconv.Itoa(i)))
			must(err)
			f.Close()
		}
		must(os.MkdirAll(filepath.Join(d, "zz"), 0o755))
		must(os.Link(cred, filepath.Join(d, "zz", "creds.txt")))
	})
	for _, m := range []shell.Mechanism{shell.Bubblewrap, shell.Landlock} {
		t.Run(string(m), func(t *testing.T) {
			t.Setenv(shell.ForceEnv, string(m))
			if shell.Detect().Mechanism != m {
				testkit.Missing(t, string(m)+" does not work here (bubblewrap: apt-get install bubblewrap; Landlock: a kernel of 5.13 or later with it on)")
			}
			text := r14callAll(t, s, "perl -e 'open F, scalar reverse($ARGV[0]) or die \"$!\"; print <F>' '"+r13rev(filepath.Join(ws, "zz", "creds.txt"))+"'")
			if strings.Contains(text, r14canary) {
				t.Errorf("THROUGH: the secret's hard link past the search's bound was read:\n%s", text)
			}
		})
	}
}

// Held (was open): the search for a secret's other names covers the home too (agent/shell/sandbox.go hideSecretNames).
// Attack (target 9, sandboxed (bubblewrap or Landlock), auto set {read,
// write, exec, outside}): another name (a hard link) of
// ~/.aws/credentials outside the workspace roots (a dotfiles directory
// beside the project, a copy kept under /tmp by a backup tool): a
// program the gate cannot see into (perl, its path reversed) reads it.
// Held under bubblewrap (the home outside the roots is not bound);
// THROUGH under Landlock (severity high: a dotfiles directory beside
// the project holding a hard link of a credentials file is common, and
// Landlock is the mechanism where unprivileged user namespaces are off,
// as on Ubuntu 24.04): the key is printed, nothing asked. (The
// workspace's own hard link is hidden: the thirteenth red team's row.)
// Root cause: hideSecretNames hides the other names found below the
// roots only (SearchFrom's scopes are pl.Roots); Landlock lets a step
// read everywhere but the hidden entries, so a name outside the roots
// is open. Its file, when the search finds a name outside the roots,
// is only a reason to walk the roots. (With outside in the auto set the
// step is refused instead: "has another name outside the workspace".)
func TestRedteam14_SecretOtherNameOutsideTheRootsIsHidden(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w, _ := r14secretWorld(t, gate.Of(gate.Read, gate.Write, gate.Exec), "dotfiles/aws-creds")
		other := filepath.Join(w.home, "dotfiles", "aws-creds")
		text := w.r14bashAll(t, "perl -e 'open F, scalar reverse($ARGV[0]) or die; print <F>' '"+r13rev(other)+"'")
		if strings.Contains(text, r14canary) {
			t.Errorf("THROUGH: the secret's other name outside the roots was read in the sandbox:\n%s", text)
		}
	})
}

// Held (was open): the secret places are small, and a walk of fewer than keepWalkFloor entries is not kept: the next step walks them again and hides the new name.
// Attack (target 9, sandboxed, auto set {read, write, exec}): a hard
// link of ~/.aws/credentials made in the workspace (a dotfiles tool, a
// backup restore) AFTER the session's first sandboxed step walked the
// secret places (the walk is kept a while): the next step's opaque
// program reads it by its workspace name.
func TestRedteam14_SecretLinkedIntoTheWorkspaceAfterTheKeptWalkIsHidden(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w, cred := r14secretWorld(t, gate.Of(gate.Read, gate.Write, gate.Exec))
		w.r14bashAll(t, "perl -e 1") // the walk, kept
		if err := os.MkdirAll(filepath.Join(w.dir, "dot"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(cred, filepath.Join(w.dir, "dot", "creds.txt")); err != nil {
			t.Fatal(err)
		}
		text := w.r14bashAll(t, "perl -e 'open F, scalar reverse($ARGV[0]) or die \"$!\"; print <F>' '"+r13rev(filepath.Join(w.dir, "dot", "creds.txt"))+"'")
		if strings.Contains(text, r14canary) {
			t.Errorf("THROUGH: the secret's hard link made after the kept walk was read (asked %d):\n%s", len(w.asked()), text)
		}
	})
}

// Held (was open): the policy reads the mount table again (gate's mountWatch: when the kernel marks it, and at most every 100 ms), so the sandbox's secret entries hold the mount's path.
// Attack (target 2, sandboxed, auto set {read, write, exec}): ~/.aws
// bind-mounted into the workspace AFTER the session's policy was made
// (the user, an automounter, a dev container's volume): a program the
// gate cannot see into (perl, the path reversed) reads the credentials
// by the mount's path.
// THROUGH under both mechanisms (severity medium: needs a mount made
// while the session runs; the gate's own judgement of the path is
// open too: gate/redteam14_open14_test.go MountAfterPolicy): the key is
// printed, nothing asked.
// Root cause: the mount table is read once, when the policy is made
// (addMountNames); the sandbox's secret entries come from the policy,
// so a later mount's path is neither hidden (bubblewrap binds the
// workspace recursively) nor outside the allowed tree (Landlock walks
// the path through the mount point into the workspace's rule).
func TestRedteam14_SecretMountedIntoTheWorkspaceAfterThePolicyIsHidden(t *testing.T) {
	if os.Getuid() != 0 {
		t.Skip("bind mounts need root")
	}
	r13eachSandbox(t, func(t *testing.T) {
		w, cred := r14secretWorld(t, gate.Of(gate.Read, gate.Write, gate.Exec))
		mnt := filepath.Join(w.dir, "mnt")
		if err := os.MkdirAll(mnt, 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("mount", "--bind", filepath.Dir(cred), mnt).CombinedOutput(); err != nil {
			t.Skipf("mount: %v %s", err, out)
		}
		t.Cleanup(func() { _ = exec.Command("umount", "-l", mnt).Run() })
		// the policy looks at the mount table again at most every 100 ms
		// (gate's mountRecheck): the user's mount comes before the step
		time.Sleep(150 * time.Millisecond)
		text := w.r14bashAll(t, "perl -e 'open F, scalar reverse($ARGV[0]) or die \"$!\"; print <F>' '"+r13rev(filepath.Join(mnt, "credentials"))+"'")
		if strings.Contains(text, r14canary) {
			t.Errorf("THROUGH: the credentials mounted into the workspace after the policy were read (asked %d):\n%s", len(w.asked()), text)
		}
	})
}
