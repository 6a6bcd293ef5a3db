package gate

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"testing"

	"pgregory.net/rapid"
)

// The law of the one list of the PATH's commands (CommandList): after a
// look, its names are the entries of its absolute directories now, one
// installed or removed since the last listing, a directory made or
// removed, whatever the clock says (a change within changedSlack of a
// listing is listed again, racy); a name is a command folded as the gate
// folds names when asked so; and a set it gave (Names) never changes
// under its holder. The oracle lists the directories itself.
func TestLaw_the_commands_are_the_PATH_directories_entries(t *testing.T) {
	base := t.TempDir()
	n := 0
	rapid.Check(t, func(rt *rapid.T) {
		n++
		at := filepath.Join(base, fmt.Sprint(n))
		dirs := []string{filepath.Join(at, "a"), filepath.Join(at, "b"), filepath.Join(at, "c")}
		for _, d := range dirs[:2] {
			if err := os.MkdirAll(d, 0o755); err != nil {
				rt.Fatal(err)
			}
		}
		list := NewCommandList(append([]string{"./bin", ""}, dirs...))
		oracle := func() map[string]bool {
			m := map[string]bool{}
			for _, d := range dirs {
				des, _ := os.ReadDir(d)
				for _, de := range des {
					m[de.Name()] = true
				}
			}
			return m
		}
		cmds := []string{"ls", "go", "Go", "ſed", "sed", "rg"}
		var held map[string]bool
		var heldCopy map[string]bool
		for range rapid.IntRange(1, 12).Draw(rt, "steps") {
			d := rapid.SampledFrom(dirs).Draw(rt, "dir")
			name := rapid.SampledFrom(cmds).Draw(rt, "name")
			switch rapid.IntRange(0, 3).Draw(rt, "op") {
			case 0, 1:
				os.WriteFile(filepath.Join(d, name), nil, 0o755) // no error when d is missing
			case 2:
				os.Remove(filepath.Join(d, name))
			case 3:
				if err := os.Mkdir(d, 0o755); err != nil {
					os.RemoveAll(d)
				}
			}
			if rapid.Bool().Draw(rt, "look") {
				list.Look(0)
				want := oracle()
				if got := list.Names(); !maps.Equal(got, want) {
					rt.Fatalf("after a look the commands are %v, the directories hold %v", got, want)
				}
				for _, c := range cmds {
					if got := list.Is(c, false, 0); got != want[c] {
						rt.Fatalf("Is(%q) = %v, the directories hold %v", c, got, want)
					}
					folded := false
					for w := range want {
						folded = folded || foldName(w) == foldName(c)
					}
					if got := list.Is(c, true, 0); got != folded {
						rt.Fatalf("Is(%q, folded) = %v, the directories hold %v", c, got, want)
					}
				}
				if held != nil && !maps.Equal(held, heldCopy) {
					rt.Fatalf("a set the list gave changed under its holder: %v, was %v", held, heldCopy)
				}
				held = list.Names()
				heldCopy = maps.Clone(held)
			}
		}
		if ds := list.Dirs(); len(ds) != len(dirs) {
			rt.Fatalf("the list's directories are %q: relative ones are not one list", ds)
		}
	})
}
