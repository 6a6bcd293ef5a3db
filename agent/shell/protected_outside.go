package shell

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/gate/confine"
)

// A process that may write outside the workspace (write and outside
// allowed, protected not) writes wherever the user may. The sandbox keeps
// the protected entries read-only by their paths; two shapes of the
// user's own machine make a path the wrong handle, and a process meets
// them anywhere, not only in the workspace:
//
//   - a protected file with another name (a hard link: a dotfiles
//     directory that links ~/dotfiles/bash_profile to ~/.bash_profile).
//     Its other names are searched for in the roots, the writable
//     directories and the home, and bound read-only too; a name not
//     found there (or a search cut at its bound) is a name the process
//     could write, so the process does not run. The search is the
//     session's LinkCache: paid again only when the files' names change.
//   - a relative PATH entry ("./bin", "", "."): it names a directory
//     wherever the user's shell is, so a program made in any directory's
//     bin/ runs when the user types its name there. In the workspace the
//     sandbox renames such a program out of use after the process
//     (protected_shadow.go); outside it, there is no tree to look at, so
//     the process does not run.
//
// Both refusals say what to do: allow protected for the step, or change
// the shape (a symbolic link in place of the hard link, an absolute PATH
// entry).

// outsideLinkScopes are where a process that may write outside could
// reach another name of a protected file: the roots, the writable
// directories and the home.
func outsideLinkScopes(pl confine.Places, home string) []string {
	scopes := slices.Clone(pl.Roots)
	add := func(p string) {
		for _, s := range scopes {
			if atOrBelow(p, s) {
				return
			}
		}
		scopes = slices.DeleteFunc(scopes, func(s string) bool { return s != p && atOrBelow(s, p) })
		scopes = append(scopes, p)
	}
	for _, w := range pl.Writable {
		add(w)
	}
	if filepath.IsAbs(home) {
		add(realOf(home))
	}
	return scopes
}

// unfoundLinksRefusal is the text of a process not run because a
// protected file has a name the search did not find.
func unfoundLinksRefusal(program string, found gate.LinkSearch) string {
	if len(found.Unfound) == 0 && !found.Complete {
		return fmt.Sprintf("bash: %s: not run: this step may write outside the workspace, and the search for other names "+
			"(hard links) of protected files stopped at its bound in %s (too many entries), so the sandbox cannot know "+
			"them all to keep them read-only; allow protected for this step, or leave outside out of it\n",
			filepath.Base(program), gate.Visible(found.CutAt))
	}
	what := "a protected file"
	if len(found.Unfound) > 0 {
		what = gate.Visible(found.Unfound[0])
	}
	return fmt.Sprintf("bash: %s: not run: %s has another name (a hard link) outside the workspace and the home, "+
		"which this step may write (outside), so the sandbox cannot keep it read-only; allow protected for this step, "+
		"or make that other name a symbolic link\n", filepath.Base(program), what)
}

// blindRefusal is the text of a process not run because the search for
// other names (hard links) of what (secret or protected) files could not
// read the directory dir of the user's (its mode shuts the user out): a
// process running as the user may open it (chmod) and reach a name there.
func blindRefusal(program, what, dir string) string {
	return fmt.Sprintf("bash: %s: not run: the directory %s cannot be read (its mode shuts you out), so the search "+
		"for other names (hard links) of %s files cannot see into it, and a program could open it and reach one; "+
		"make it readable (chmod u+rx), or allow %s for this step\n",
		filepath.Base(program), gate.Visible(dir), what, what)
}

// relativePathRefusal is the text of a process not run because the
// user's PATH has a relative entry (ends: the policy's EndNames, each
// entry's path below wherever the shell is), or may have one (unknown: a
// shell of the user's did not say its PATH in time), or "" when neither.
func relativePathRefusal(program string, ends []string, unknown bool) string {
	if unknown {
		return fmt.Sprintf("bash: %s: not run: a shell of yours did not say its PATH in time (its startup files "+
			"ran past the wait), so any directory may be on it; this step may write outside the workspace, where the "+
			"sandbox cannot keep a program named like a command out of every directory; allow protected for this "+
			"step, or make your shell's startup faster (it is asked again for a session started a minute or more later)\n", filepath.Base(program))
	}
	if len(ends) == 0 {
		return ""
	}
	shown := "./" + ends[0]
	if ends[0] == "" {
		shown = "the current directory (an entry \".\", \"..\" or empty)"
	}
	return fmt.Sprintf("bash: %s: not run: your PATH has a relative entry (%s), a directory wherever a shell is; "+
		"this step may write outside the workspace, where the sandbox cannot keep a program named like a command "+
		"out of every such directory; allow protected for this step, or make the entry absolute\n",
		filepath.Base(program), shown)
}

// underDotHome reports whether path is at or below a place of the home's
// configuration (a DotRule's path, as it really is: ~/.config linked to
// another disk, XDG_CONFIG_HOME, another user's home).
func underDotHome(path string, homes []gate.Rule) bool {
	for _, h := range homes {
		r := realOf(h.Path)
		if atOrBelow(path, r) {
			return true
		}
	}
	return false
}
