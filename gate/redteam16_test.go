package gate

// The sixteenth red team's attacks on the gate that HELD (the open ones
// are in redteam16_open_attacks_test.go, build tag open_attacks).

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Attack (target 1: namesAllIn): the roots given nested and repeated
// (a client's roots: the project twice, a folder of it beside it) so
// that the walk of the roots meets a secret's hard link in the workspace
// twice, or not at all: sub/cred (another name of ~/.aws/credentials)
// read with roots [root, root, root/sub], [root/sub, root], [root/sub].
// Held: nested roots are walked with the root above them, repeated ones
// once each, and the count is of distinct paths: the link reads as
// Secret each time.
func TestRedteam16_NestedAndRepeatedRootsKeepASecretLinkSecret(t *testing.T) {
	needHardLinkSearch(t)
	home, root, cred := r14secretHome(t)
	sub := filepath.Join(root, "sub")
	must(t, os.MkdirAll(sub, 0o755))
	must(t, os.Link(cred, filepath.Join(sub, "cred")))
	for _, roots := range [][]string{{root, root, sub}, {sub, root}, {sub}, {root, root}} {
		p := Places{Roots: roots, Home: home, UserDir: filepath.Join(home, ".config", "eukhe")}.Policy(OS)
		if c := p.ClassRead(p.Resolve(root, filepath.Join(sub, "cred"))); c != ClassSecret {
			t.Errorf("THROUGH: roots %v: sub/cred reads as %v", roots, c)
		}
	}
}

// Attack (target 1: the strangers' change time, a workspace small
// enough for the look; the control of the open rows
// ProtectedLinkedAfterTheKeptWalkWithOutside and …InALargeWorkspace):
// ~/.config (kept: 1 000 entries or more) walked at a first search; the
// user then hard-links ~/.config/nvim/init.lua into the workspace; the
// next search of the roots.
// Held: the new name is a stranger, its change time is after the kept
// walk, and the walk is made again: root/init.lua is found.
func TestRedteam16_ProtectedLinkedAfterTheKeptWalkIsAStranger(t *testing.T) {
	needHardLinkSearch(t)
	_, home, root := redHome(t)
	conf := filepath.Join(home, ".config")
	fillPlace(t, filepath.Join(conf, "many"), keepWalkFloor)
	init := filepath.Join(conf, "nvim", "init.lua")
	must(t, os.MkdirAll(filepath.Dir(init), 0o755))
	must(t, os.WriteFile(init, []byte("-- mine\n"), 0o644))
	// a stranger from the start, so the first search walks ~/.config and
	// keeps the walk (a file of the workspace with a name in a plain
	// directory outside)
	hardLink(t, filepath.Join(root, "x"), filepath.Join(filepath.Dir(home), "elsewhere", "x"))
	var c LinkCache
	search := func() LinkSearch {
		return c.Search(OS.(InodeFS), []string{conf}, []int{-1}, []string{root}, nil)
	}
	if r := search(); !r.Complete || len(r.Links) != 0 {
		t.Fatalf("control: the first search gives %+v", r)
	}
	must(t, os.Link(init, filepath.Join(root, "init.lua")))
	if r := search(); !slicesContains16(r.Links, filepath.Join(root, "init.lua")) {
		t.Errorf("THROUGH: ~/.config/nvim/init.lua linked into the workspace after the kept walk: the search gives %+v", r)
	}
}

// Attack (target 5: linkedDots' budget): the agent, with outside in the
// auto set and protected not, fills a cache it may write
// (~/.cache/pip, HomeWritable) with 20 001 directories, then the next
// policy looks for the README's Neovim package link.
// Held: a writable cache is one entry of ~/.cache and is not listed: the
// link is found, the plugin file writes as Protected.
func TestRedteam16_AgentFloodOfAWritableCacheLeavesTheNvimPackFound(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	plug := filepath.Join(root, "plug")
	must(t, os.MkdirAll(filepath.Join(plug, "plugin"), 0o755))
	start := filepath.Join(home, ".local", "share", "nvim", "site", "pack", "eukhe", "start")
	must(t, os.MkdirAll(start, 0o755))
	must(t, os.Symlink(plug, filepath.Join(start, "eukhe")))
	pip := filepath.Join(home, ".cache", "pip")
	must(t, os.MkdirAll(pip, 0o755))
	before := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := before.ClassWrite(before.Resolve(root, filepath.Join(pip, "d00000"))); c >= ClassProtected {
		t.Fatalf("control: a directory in ~/.cache/pip writes as %v: the flood would be asked", c)
	}
	for i := 0; i <= maxLinkedDotsLook; i++ {
		must(t, os.Mkdir(filepath.Join(pip, fmt.Sprintf("d%05d", i)), 0o755))
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(plug, "plugin", "evil.lua"))); c < ClassProtected {
		t.Errorf("THROUGH: after the flood of ~/.cache/pip, the plugin file writes as %v", c)
	}
}

func slicesContains16(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// Held (was open): a name linkedDots skips (not configuration) costs a sixteenth of an entry, as a file does.
// Attack (target 5: linkedDots' budget, after the fifteenth red team's
// fix): the fifteenth's flood of the home again, with DIRECTORIES in
// place of files: 20 001 empty directories directly in the home
// (non-dot names: writes outside the workspace, neither protected nor
// secret, unasked where outside is in the auto set and protected is
// not). The next policy's linkedDots lists the home first; each
// directory costs a whole entry (only a FILE costs a sixteenth now), so
// the budget is gone before the second level, and the README's Neovim
// package link (~/.local/share/nvim/site/pack/eukhe/start/eukhe, into
// the workspace's plug) is never looked at.
// THROUGH (severity high, as the fifteenth's: the flood is unasked; then
// a plugin file Neovim runs at every start is a plain workspace write):
// plug/plugin/evil.lua writes as Inside.
// Root cause: linkedDots still charges its budget for entries it never
// walks (a non-dot name of the home is skipped after `budget--`), and a
// budget cut still says nothing (no fallback). The fix of the fifteenth
// priced one kind of filler (files), not the cause. At the root: charge
// only what is walked (test the home's non-dot names and the uncovered
// places BEFORE taking from the budget: they are free), and when the
// bound is hit, fail closed (every write into the workspace protected
// until a complete walk, or keep the last complete walk's rules).
func TestRedteam16_AgentDirFloodOfTheHomeLeavesTheLinkedNvimPackFound(t *testing.T) {
	needSymlinks(t)
	_, home, root := redHome(t)
	evil := r16packLink(t, home, root)
	before := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := before.ClassWrite(before.Resolve(root, evil)); c < ClassProtected {
		t.Fatalf("control: before the flood the plugin file writes as %v", c)
	}
	if c := before.ClassWrite(before.Resolve(root, filepath.Join(home, "d00000"))); c >= ClassProtected {
		t.Fatalf("control: a directory made directly in the home writes as %v: the flood would be asked", c)
	}
	for i := 0; i <= maxLinkedDotsLook; i++ {
		must(t, os.Mkdir(filepath.Join(home, fmt.Sprintf("d%05d", i)), 0o755))
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, evil)); c < ClassProtected {
		t.Errorf("THROUGH: after the agent's flood of the home with directories, a plugin file Neovim runs (pack/eukhe/start/eukhe) writes as %v", c)
	}
}

// Held (was open): with a mount point below a root, the look for strangers and namesAllIn are not made (a name may show at two paths), and the places outside are walked.
// Attack (target 1: namesAllIn, the gate's per-file question): a
// hard link of ~/.aws/credentials in the workspace (a/cred: a dotfiles
// directory), and the directory holding it bound a second time into the
// workspace (b, mount --bind a b: a container's or fstab's bind mount of
// a part of the project) before the policy. The read tool's read of
// a/cred.
// THROUGH (severity medium: the premise is a bind mount made by root,
// not by the agent; then the credentials are read unasked, with the
// default auto set): a/cred reads as Inside. Without the mount it is
// Secret (the control).
// Root cause: namesAllIn (links_strangers.go) counts the PATHS at which
// the roots' walk meets the file against its number of NAMES (nlink):
// a bind mount shows one name at two paths (same st_dev, same inode),
// so the two paths a/cred and b/cred "are" both names, "every name is in
// the roots", and the walk of the secret places is skipped. strangersIn
// (the sandbox's protected search) counts the same way. At the root:
// a path is not a name; count names by (parent directory's dev and
// inode, entry name) rather than by path, so a directory seen twice
// through a mount gives its names once (and, at a directory already met
// by its dev and inode, do not walk it again), or skip the look when the
// roots hold a mount point (the mount table is read already).
func TestRedteam16_BindMountInTheRootsDoesNotCountANameTwice(t *testing.T) {
	needHardLinkSearch(t)
	home, root, cred := r14secretHome(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	must(t, os.MkdirAll(a, 0o755))
	must(t, os.MkdirAll(b, 0o755))
	must(t, os.Link(cred, filepath.Join(a, "cred")))
	if c := r14policy(home, root); c.ClassRead(c.Resolve(root, filepath.Join(a, "cred"))) != ClassSecret {
		t.Fatal("control: without the mount, a/cred is not secret")
	}
	r14mount(t, a, b)
	p := r14policy(home, root)
	if c := p.ClassRead(p.Resolve(root, filepath.Join(a, "cred"))); c != ClassSecret {
		t.Errorf("THROUGH: a/cred, another name of ~/.aws/credentials, reads as %v with its directory bound at b too", c)
	}
}

// Held (was open): with a mount point below a root, the look for strangers and namesAllIn are not made (a name may show at two paths), and the places outside are walked.
// Attack (target 1: strangersIn, the sandbox's search of the roots for
// other names of protected files): ~/.bashrc hard-linked in the
// workspace as a/bashrc (a dotfiles directory), and a bound a second
// time at b (mount --bind, before the session). The search a bash step's
// sandbox makes (LinkCache.SearchFrom over the roots: the protected
// search when outside is not allowed) for the names of ~/.bashrc.
// THROUGH (severity medium: the premise is root's bind mount; then a
// program the gate cannot see into appends to a/bashrc, not bound
// read-only, and plants ~/.bashrc with protected out of the auto set):
// the search finds no name (a/bashrc is not in Links), complete.
// Root cause: as TestRedteam16_BindMountInTheRootsCountsANameTwice:
// strangersIn counts the paths the walk meets, and the bind mount gives
// the one name two paths, so no file of the roots looks like a
// "stranger" and the walks of the places outside are skipped (a regression
// of this change: the walk of ~/.bashrc found it before).
func TestRedteam16_BindMountInTheRootsHidesNoStranger(t *testing.T) {
	needHardLinkSearch(t)
	_, home, root := redHome(t)
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	must(t, os.MkdirAll(b, 0o755))
	hardLink(t, filepath.Join(home, ".bashrc"), filepath.Join(a, "bashrc"))
	search := func() LinkSearch {
		var c LinkCache
		return c.Search(OS.(InodeFS), []string{filepath.Join(home, ".bashrc")}, []int{0}, []string{root}, nil)
	}
	if r := search(); !r.Complete || !slicesContains16(r.Links, filepath.Join(a, "bashrc")) {
		t.Fatalf("control: without the mount the search gives %+v", r)
	}
	r14mount(t, a, b)
	if r := search(); !slicesContains16(r.Links, filepath.Join(a, "bashrc")) {
		t.Errorf("THROUGH: with a bound at b, the search for ~/.bashrc's other names gives %+v: a/bashrc stays writable in the sandbox", r)
	}
}

// r16packLink links the workspace's plug directory as Neovim's package
// ~/.local/share/nvim/site/pack/eukhe/start/eukhe (eukhe's README's
// setup) and gives the plugin file an agent would write.
func r16packLink(t *testing.T, home, root string) (evil string) {
	t.Helper()
	plug := filepath.Join(root, "plug")
	must(t, os.MkdirAll(filepath.Join(plug, "plugin"), 0o755))
	start := filepath.Join(home, ".local", "share", "nvim", "site", "pack", "eukhe", "start")
	must(t, os.MkdirAll(start, 0o755))
	must(t, os.Symlink(plug, filepath.Join(start, "eukhe")))
	return filepath.Join(plug, "plugin", "evil.lua")
}

// Held (was open): every search (not only the roots' own) gets the strangers' latest change from a look at the workspace, shared by one process's searches (LinkCache.Fresh), so a kept walk older than a link into the workspace is made again.
// Attack (target 1: the kept walks and the strangers' change time): a
// step allowed write and outside but not protected has its protected
// search over scopes past the roots (the home: outsideLinkScopes), where
// the strangers' look (and its change time) does not run. ~/.config
// (1 000 entries or more: kept) holds nvim/init.lua with one name at the
// session's first step; the user's dotfiles tool then hard-links it into
// the workspace (init.lua) within the minute; the next step's search.
// THROUGH (severity medium: the link is the user's, made while the
// session runs; then an opaque program of a step with outside allowed
// writes root/init.lua, which is ~/.config/nvim/init.lua, and Neovim runs
// it): the second search gives no link, no unfound name, complete.
// Root cause: SearchFrom passes the strangers' change time to walkTop
// only when the scopes are the roots (topsWithoutStrangers); otherwise
// changed is 0 and a kept walk is trusted while the files it MET keep
// their numbers of names (stillNamed), which a file with one name then
// is not among. At the root: as TestRedteam16_SecretLinkedAfterTheKeptWalkOfALargePlace
// (agent): a kept walk must be invalidated by any status change below
// its place since it was made, whatever the scopes.
func TestRedteam16_ProtectedLinkedAfterTheKeptWalkWithOutsideIsFound(t *testing.T) {
	needHardLinkSearch(t)
	_, home, root := redHome(t)
	conf := filepath.Join(home, ".config")
	fillPlace(t, filepath.Join(conf, "many"), keepWalkFloor)
	init := filepath.Join(conf, "nvim", "init.lua")
	must(t, os.MkdirAll(filepath.Dir(init), 0o755))
	must(t, os.WriteFile(init, []byte("-- mine\n"), 0o644))
	var c LinkCache
	search := func() LinkSearch {
		return c.SearchFrom(OS.(InodeFS), []string{conf}, []int{-1}, []string{home}, []string{root}, nil)
	}
	if r := search(); !r.Complete || len(r.Links) != 0 {
		t.Fatalf("control: the first search gives %+v", r)
	}
	must(t, os.Link(init, filepath.Join(root, "init.lua")))
	c.Fresh() // a sandbox's next process
	r := search()
	if !slicesContains16(r.Links, filepath.Join(root, "init.lua")) && len(r.Unfound) == 0 && r.Complete {
		t.Errorf("THROUGH: ~/.config/nvim/init.lua linked into the workspace after the kept walk: the search gives %+v", r)
	}
	var fresh LinkCache
	if r := fresh.SearchFrom(OS.(InodeFS), []string{conf}, []int{-1}, []string{home}, []string{root}, nil); !slicesContains16(r.Links, filepath.Join(root, "init.lua")) {
		t.Errorf("control: a fresh search does not find it either: %+v", r)
	}
}

// Attack (target 6: anyEukheOwn's list): the fifteenth red team's
// premise (another eukhe of the same user started with other XDG
// directories, set in a terminal's ~/.bashrc) for eukhe's SOCKET
// directory: an eukhe started with XDG_RUNTIME_DIR=D finds its editor
// (and `eukhe approvals` its sessions) by the entries in D/eukhe, and
// this eukhe's own socket directory is secret for exactly that reason
// (Places.RunDirs). The write of an entry in the other's D/eukhe.
// Was THROUGH (severity high where the other eukhe is started: it
// attaches to the agent's server as to the user's editor, whose dialogs
// answer its questions): D/eukhe/1-x.json wrote as Outside.
// Held: discovery reads only names of the form Listen gives
// ("<pid>-<8 hex>.json", gate.DiscoveryEntryName), and the gate holds
// that form secret in any directory named as a socket directory (eukhe,
// eukhe-UID, eukhe/run); another name there is no entry, and a project's
// eukhe/package.json stays what its place makes it.
func TestRedteam16_OtherEukheSocketDirEntryIsSecret(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the other eukhes' discovery directories named here (eukhe-UID in the temporary directory) are Unix's; on Windows it is %LOCALAPPDATA%\\eukhe\\run")
	}
	_, home, root := redHome(t)
	own := filepath.Join(filepath.Dir(home), "run", "eukhe")
	must(t, os.MkdirAll(own, 0o700))
	p := Places{Roots: []string{root}, Home: home, RunDirs: []string{own}}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(own, "1-x.json"))); c != ClassSecret {
		t.Fatalf("control: an entry in this eukhe's own socket directory writes as %v", c)
	}
	base := t.TempDir()
	uid := fmt.Sprintf("eukhe-%d", os.Getuid())
	for _, f := range []string{
		filepath.Join(base, "eukhe", "1-0123abcd.json"),
		filepath.Join(base, "eukhe", "4194304-deadbeef.sock"),
		filepath.Join(base, "eukhe", "77-0000ffff.json.tmp"),
		filepath.Join(base, uid, "1-0123abcd.json"),
		filepath.Join(base, "eukhe-0", "1-0123abcd.json"),
		filepath.Join(base, "local", "eukhe", "run", "1-0123abcd.json"),
	} {
		must(t, os.MkdirAll(filepath.Dir(f), 0o700))
		if c := p.ClassWrite(p.Resolve(root, f)); c != ClassSecret {
			t.Errorf("THROUGH: %s, an entry another eukhe's discovery reads, writes as %v", f, c)
		}
		if c := p.Class(p.Resolve(root, f)); c != ClassSecret {
			t.Errorf("%s, an entry another eukhe's discovery reads, reads as %v", f, c)
		}
	}
	// names discovery does not read, and entries' names in directories
	// no eukhe publishes in, are what their place makes them
	for _, f := range []string{
		filepath.Join(base, "eukhe", "package.json"),
		filepath.Join(base, "eukhe", "1-x.json"),
		filepath.Join(base, "eukhe", "1-0123ABCD.json"),
		filepath.Join(base, "eukhe-x", "1-0123abcd.json"),
		filepath.Join(base, "eukhe-", "1-0123abcd.json"),
		filepath.Join(base, "run", "1-0123abcd.json"),
		filepath.Join(base, "proj", "1-0123abcd.json"),
		filepath.Join(root, "eukhe", "tsconfig.json"),
	} {
		must(t, os.MkdirAll(filepath.Dir(f), 0o700))
		if c := p.ClassWrite(p.Resolve(root, f)); c == ClassSecret {
			t.Errorf("%s writes as secret: no eukhe reads it as an entry", f)
		}
	}
	if !DiscoveryEntryName("1-0123abcd.json") || DiscoveryEntryName("1-0123abcd.json.bak") || DiscoveryEntryName("x1-0123abcd.json") {
		t.Errorf("DiscoveryEntryName does not take exactly the form Listen gives")
	}
}

// A write that makes or fills a directory of the name another eukhe keeps
// its files in, outside every root, is judged as a write of those files
// (Policy.eukheDirOutside): a copy or move into D/eukhe/, a directory
// renamed or linked to D/eukhe, an archive unpacked there bring names the
// words never spell (the fifteenth and twenty-sixth red teams'). A folder
// of that name inside a root, a root of that name, and names that only
// look like it are what their place makes them.
func TestAWriteOfADirectoryNamedAsAnotherEukhesIsSecret(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the other eukhes' discovery directories named here (eukhe-UID in the temporary directory) are Unix's; on Windows it is %LOCALAPPDATA%\\eukhe\\run")
	}
	_, home, root := redHome(t)
	named := filepath.Join(filepath.Dir(root), "eukhe")
	must(t, os.MkdirAll(named, 0o755))
	p := Places{Roots: []string{root, named}, Home: home}.Policy(OS)
	base := t.TempDir()
	for _, d := range []string{
		filepath.Join(base, "eukhe"),
		filepath.Join(base, fmt.Sprintf("eukhe-%d", os.Getuid())),
		filepath.Join(base, "local", "eukhe", "run"),
		filepath.Join(home, ".config", "eukhe"),
	} {
		if c := p.ClassWrite(p.Resolve(root, d)); c != ClassSecret {
			t.Errorf("a write of %s writes as %v", d, c)
		}
	}
	for _, d := range []string{
		filepath.Join(root, "eukhe"),
		filepath.Join(root, "src", "eukhe-1"),
		named,
		filepath.Join(named, "sub"),
		filepath.Join(base, "eukhe-x"),
		filepath.Join(base, "eukhe-"),
		filepath.Join(base, "run"),
		filepath.Join(base, "eukhe.d"),
	} {
		if c := p.ClassWrite(p.Resolve(root, d)); c == ClassSecret {
			t.Errorf("a write of %s writes as secret", d)
		}
	}
}
