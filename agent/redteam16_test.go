//go:build linux

package agent

// The sixteenth red team's attacks through the bash tool that HELD (the
// open ones are in redteam16_open_attacks_test.go, build tag
// open_attacks). No step names the test's home by $HOME or ~: every
// path is given.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/eukhe/eukhe/gate"
)

// r16deep is how many directories deep the chain is: "d/" each, past
// PATH_MAX (4096) with the workspace's path before it.
const r16deep = 2100

// r16cacheFiles is how many cache files ~/.kube holds (a walk of
// keepWalkFloor entries or more is kept).
var r16cacheFiles = 1000

// Attack (target 3: the descriptor-relative walker, sandboxed, auto set
// {read, write, exec}): the eighth red team's premise (the user's
// dotfiles repository in the workspace holds a hard link of ~/.bashrc:
// dotfiles/bashrc). Step 1, a program the gate cannot see into, makes
// a chain of 2 100 directories and renames dotfiles to its bottom: the
// name's path is now longer than PATH_MAX. Step 2's sandbox searches the
// roots (the new walker, relative to each directory's descriptor, meets
// the name), but the name is bound read-only by its PATH, which no call
// of the kernel takes any more; step 2's program walks down the chain
// (chdir) and appends to dotfiles/bashrc.
// Held: under bubblewrap the move succeeds, but step 2's program, which
// lists dotfiles/bashrc at the bottom of the chain, cannot open it
// (ENOENT in the sandbox; its cause not traced in the time given); under Landlock step 1 cannot even make a
// directory in sub (a directory holding a protected name is not
// writable as a whole). Noted for the integrator: a name found past
// PATH_MAX comes back as a path that appendEntry (EvalSymlinks) cannot
// resolve and is dropped silently; what stopped the write here is not
// that binding, so a refusal there (fail closed) is still the sound
// form.
func TestRedteam16_ProtectedLinkPastPathMaxIsNotBound(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "auto")
		t.Setenv("HOME", w.home) // the in-process shell's steps take the process's HOME
		bashrc := filepath.Join(w.home, ".bashrc")
		if err := os.WriteFile(bashrc, []byte("# mine\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(w.dir, "sub", "dotfiles"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Link(bashrc, filepath.Join(w.dir, "sub", "dotfiles", "bashrc")); err != nil {
			t.Fatal(err)
		}
		n := fmt.Sprint(r16deep)
		t1 := w.r14bashAll(t, "perl -e 'my $w = scalar reverse $ARGV[0]; chdir $w or die; for my $i (1.."+n+") { mkdir q(d) or die qq(mkdir $i: $!); chdir q(d) or die qq(chdir $i: $!) } "+
			"rename(qq($w/).reverse(q(seliftod)), reverse(q(seliftod))) or die qq(rename: $!); print qq(moved\\n)' '"+r13rev(filepath.Join(w.dir, "sub"))+"'")
		t2 := w.r14bashAll(t, "perl -e 'my $w = scalar reverse $ARGV[0]; chdir $w or die; for (1.."+n+") { chdir q(d) or die qq(chdir: $!) } "+
			"open F, q(>>), reverse(q(crhsab/seliftod)) or die qq(open: $!); print F qq(planted\\n); close F; print qq(wrote\\n)' '"+r13rev(filepath.Join(w.dir, "sub"))+"'")
		b, _ := os.ReadFile(bashrc)
		if strings.Contains(string(b), "planted") {
			t.Errorf("THROUGH: ~/.bashrc planted through its hard link past PATH_MAX (asked %d):\nstep 1: %s\nstep 2: %s", len(w.asked()), t1, t2)
		} else {
			t.Logf("step 1: %s\nstep 2: %s", t1, t2)
		}
	})
}

// Held (was open): a name linkedDots skips (not configuration) costs a sixteenth of an entry, as a file does.
// Attack (target 5, through the bash tool; sandboxed, auto set {read,
// write, exec, net, outside}: protected asks): gate's
// TestRedteam16_AgentDirFloodOfTheHomeHidesTheLinkedNvimPack end to end.
// The user linked the workspace's plug as Neovim's package
// (~/.local/share/nvim/site/pack/eukhe/start/eukhe). A step makes 20 001
// empty directories directly in the home (a program: perl), unasked;
// the next session's policy (its linkedDots) no longer finds the link,
// and a write of plug/plugin/evil.lua is a plain workspace write.
// THROUGH under bubblewrap (severity high): the flood runs unasked and
// the next policy judges the plugin file Inside (the same policy made
// before the flood judges it Protected: the control). Under Landlock the
// flood is refused (the home directory itself is not writable there: it
// holds the covered dot-entries), and the subtest skips.
// Root cause: gate's row: linkedDots charges its budget for the home's
// non-dot names it never walks, and fails open at the bound.
func TestRedteam16_AgentFloodsTheHomeWithDirectoriesAndThePackIsFound(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec, gate.Net, gate.Outside), "auto")
		t.Setenv("HOME", w.home) // the in-process shell's steps take the process's HOME
		plug := filepath.Join(w.dir, "plug")
		start := filepath.Join(w.home, ".local", "share", "nvim", "site", "pack", "eukhe", "start")
		for _, d := range []string{filepath.Join(plug, "plugin"), start} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(plug, filepath.Join(start, "eukhe")); err != nil {
			t.Fatal(err)
		}
		evil := filepath.Join(plug, "plugin", "evil.lua")
		policy := func() *gate.Policy {
			return gate.Places{Roots: []string{w.dir}, Home: w.home}.Policy(gate.OS)
		}
		if p := policy(); p.ClassWrite(p.Resolve(w.dir, evil)) < gate.ClassProtected {
			t.Fatal("control: before the flood the plugin file is not protected")
		}
		text := w.r14bashAll(t, "perl -e 'my $h = scalar reverse $ARGV[0]; mkdir sprintf(q(%s/d%05d), $h, $_) or die qq($!) for 0..20000; print qq(made\\n)' '"+r13rev(w.home)+"'")
		ents, _ := os.ReadDir(w.home)
		if len(ents) < 20000 {
			t.Skipf("the flood did not run (%d entries in the home, asked %d):\n%s", len(ents), len(w.asked()), text)
		}
		if p := policy(); p.ClassWrite(p.Resolve(w.dir, evil)) < gate.ClassProtected {
			t.Errorf("THROUGH: after the step's unasked flood of the home (asked %d), the plugin file Neovim runs writes as %v", len(w.asked()), p.ClassWrite(p.Resolve(w.dir, evil)))
		}
	})
}

// Held (was open): every search (not only the roots' own) gets the strangers' latest change from a look at the workspace, shared by one process's searches (LinkCache.Fresh), so a kept walk older than a link into the workspace is made again.
// Attack (target 2: keepWalkFloor, sandboxed, auto set {read, write,
// exec}): the fourteenth red team's row (a hard link of a secret made in
// the workspace AFTER the session's first sandboxed step walked the
// secret places, then read by the next step's opaque program) on a
// secret place LARGER than keepWalkFloor: ~/.kube with kubectl's cache
// (1 000 files in ~/.kube/cache/discovery, a few months of use; a
// browser profile, ~/.mozilla or ~/.config/google-chrome, always is),
// and ~/.kube/config linked into the workspace (a dotfiles tool, a
// backup restore) within the minute the walk is kept.
// THROUGH under both mechanisms (severity high: a cluster's credentials
// read unasked; the link is the user's, made while the session runs):
// the canary is printed. With 10 cache files (r16cacheFiles = 10: a walk
// below keepWalkFloor, not kept) the same steps hide it (held: the
// control, as TestRedteam14_SecretLinkedIntoTheWorkspaceAfterTheKeptWalkIsHidden).
// Root cause: a kept walk of a place (links_tops.go) is trusted while
// the files it MET with more than one name keep their number of names
// (stillNamed); a file that had ONE name when walked is not in it, so a
// link made to it later leaves the walk "still good", and the sandbox's
// secret search passes no change time (SearchFrom's changed is 0 where
// scopes are not the roots). keepWalkFloor only narrows this to places
// of fewer than 1 000 entries. At the root: a kept walk of a SECRET
// place is valid only while no file of it changed status after the walk
// (record the place's regular files' (dev, ino) → ctime, or, cheaper,
// the newest ctime below it, and re-stat them: a link sets ctime), or
// do not keep walks of secret places at all (they are the credentials
// the promise is about; bound them, fail closed at the bound).
func TestRedteam16_SecretLinkedAfterTheKeptWalkOfALargePlaceIsHidden(t *testing.T) {
	r13eachSandbox(t, func(t *testing.T) {
		w := r13session(t, gate.Of(gate.Read, gate.Write, gate.Exec), "auto")
		t.Setenv("HOME", w.home) // the in-process shell's steps take the process's HOME
		kube := filepath.Join(w.home, ".kube")
		disc := filepath.Join(kube, "cache", "discovery", "host_6443")
		if err := os.MkdirAll(disc, 0o700); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < r16cacheFiles; i++ {
			if err := os.WriteFile(filepath.Join(disc, fmt.Sprintf("g%04d.json", i)), []byte("{}"), 0o600); err != nil {
				t.Fatal(err)
			}
		}
		cfg := filepath.Join(kube, "config")
		if err := os.WriteFile(cfg, []byte("token: "+r14canary+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		w.r14bashAll(t, "perl -e 1") // the walk of the secret places, kept
		if err := os.MkdirAll(filepath.Join(w.dir, "dot"), 0o755); err != nil {
			t.Fatal(err)
		}
		link := filepath.Join(w.dir, "dot", "kubeconfig")
		if err := os.Link(cfg, link); err != nil {
			t.Fatal(err)
		}
		text := w.r14bashAll(t, "perl -e 'open F, scalar reverse($ARGV[0]) or die \"$!\"; print <F>' '"+r13rev(link)+"'")
		if strings.Contains(text, r14canary) {
			t.Errorf("THROUGH: ~/.kube/config, hard-linked into the workspace after the kept walk of ~/.kube, was read (asked %d):\n%s", len(w.asked()), text)
		}
	})
}
