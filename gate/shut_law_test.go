//go:build unix

package gate

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"golang.org/x/sys/unix"
	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/internal/testkit"
)

// The law of a folder shut to the user (DirShut): a directory of the
// user's that the user cannot list or search is shut, and no other is;
// its cheap pre-check (MayBeShut) never misses one; and the search for a
// file's other names (linkWalk) hides nothing by it: a walk that says it
// is complete saw every name of the file a step could reach, and one
// that is not names a directory that is shut. The oracle is the user
// itself trying to list and search each directory. Random trees with
// random modes, some directories another user's (when this process may
// give them away), run as a user without root's permission override.
func TestLaw_a_shut_folder_hides_nothing(t *testing.T) {
	if !testkit.RunWithoutDAC(t, "TestLaw_a_shut_folder_hides_nothing") {
		return
	}
	base := t.TempDir()
	t.Cleanup(func() { openAll(base) })
	const other = 65534 // nobody
	probe := filepath.Join(base, "probe")
	if err := os.Mkdir(probe, 0o755); err != nil {
		t.Fatal(err)
	}
	mayGive := os.Chown(probe, other, other) == nil
	modes := []uint32{0o755, 0o700, 0o500, 0o300, 0o100, 0o400, 0o600, 0o000, 0o711}
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		at := filepath.Join(base, fmt.Sprint(n))
		top := filepath.Join(at, "top")
		if err := os.MkdirAll(top, 0o755); err != nil {
			rt.Fatal(err)
		}
		target := filepath.Join(at, "key")
		if err := os.WriteFile(target, []byte("k"), 0o600); err != nil {
			rt.Fatal(err)
		}
		dirs := []string{top}
		for i := range rapid.IntRange(0, 7).Draw(rt, "dirs") {
			parent := dirs[rapid.IntRange(0, len(dirs)-1).Draw(rt, "parent")]
			d := filepath.Join(parent, fmt.Sprintf("d%d", i))
			if err := os.Mkdir(d, 0o755); err != nil {
				rt.Fatal(err)
			}
			dirs = append(dirs, d)
		}
		var links []string
		for i := range rapid.IntRange(1, 4).Draw(rt, "links") {
			l := filepath.Join(dirs[rapid.IntRange(0, len(dirs)-1).Draw(rt, "at")], fmt.Sprintf("l%d", i))
			if err := os.Link(target, l); err != nil {
				rt.Fatal(err)
			}
			links = append(links, l)
		}
		// the modes, deepest first (a directory shut above cannot be
		// reached to change)
		for i := len(dirs) - 1; i >= 0; i-- {
			if mayGive && rapid.Bool().Draw(rt, "another's") {
				if err := os.Chown(dirs[i], other, other); err != nil {
					rt.Fatal(err)
				}
			}
			if err := os.Chmod(dirs[i], os.FileMode(rapid.SampledFrom(modes).Draw(rt, "mode"))); err != nil {
				rt.Fatal(err)
			}
		}
		defer openAll(at)

		shut := map[string]bool{}   // the user's, that it cannot list or search
		closed := map[string]bool{} // anyone's, that the user cannot list or search
		for _, d := range dirs {
			var st unix.Stat_t
			if unix.Lstat(d, &st) != nil {
				continue // behind a directory the user cannot search
			}
			closed[d] = !triedOpen(d)
			shut[d] = closed[d] && int(st.Uid) == os.Geteuid()
			if got := DirShut(d, &st); got != shut[d] {
				rt.Fatalf("DirShut(%s, mode %o, uid %d) = %v; the user tried it: shut %v", d, st.Mode&0o777, st.Uid, got, shut[d])
			}
			if shut[d] && !MayBeShut(&st) {
				rt.Fatalf("MayBeShut(%s, mode %o) is false of a shut directory", d, st.Mode&0o777)
			}
		}

		seen := map[string]bool{}
		budget := MaxLinkWalk
		complete, blind := linkWalk(osFS{}, top, -1, nil, nil, &budget, func(p string, _ Inode) bool {
			seen[p] = true
			return true
		})
		if !complete {
			if blind == "" || !shut[blind] {
				rt.Fatalf("the walk was not complete and named %q, not a shut directory (shut: %v)", blind, shut)
			}
			return
		}
		for _, l := range links {
			if seen[l] {
				continue
			}
			// unseen: only behind another user's closed directory, which
			// no step can open either
			// (the topmost closed directory above a name can be looked at)
			behind := slices.ContainsFunc(dirs, func(d string) bool {
				return strings.HasPrefix(l, d+"/") && closed[d] && !shut[d]
			})
			if !behind {
				rt.Fatalf("the walk said it was complete, and did not see %s (shut: %v, closed: %v)", l, shut, closed)
			}
		}
	})
}

// triedOpen tells whether the user lists and searches d: it opens and
// reads it, and looks up "." in it.
func triedOpen(d string) bool {
	f, err := os.Open(d)
	if err != nil {
		return false
	}
	_, err = f.Readdirnames(-1)
	f.Close()
	var st unix.Stat_t
	return err == nil && unix.Lstat(d+"/.", &st) == nil
}

// openAll makes every directory at or below dir the user's and open
// again, each before it is listed, so the test's temp directory can be
// removed.
func openAll(dir string) {
	os.Lchown(dir, os.Geteuid(), os.Getegid())
	os.Chmod(dir, 0o755)
	des, _ := os.ReadDir(dir)
	for _, de := range des {
		if de.IsDir() {
			openAll(filepath.Join(dir, de.Name()))
		}
	}
}
