//go:build open_attacks

package gate

import (
	"path/filepath"
	"testing"
)

// The eleventh red team's findings against the walk kept for topsFresh.

// A search (grep, glob) of a directory is judged on the directory: the
// look for other names of secret files is made for the path itself (a
// directory, no regular file), and HoldsSecret looks only at the paths,
// so a search of ~/dotfiles, which holds aws_credentials hard-linked to
// ~/.aws/credentials, has no Secret effect at the gate. The grep tool's
// tree walk (docs grepTree) asks the gate once, for the top, so it would
// print the credentials' lines (read from its code; not driven here).
func TestRedTeam11_search_of_a_directory_holding_another_name_of_a_secret_file(t *testing.T) {
	_, home, root := redHome(t)
	dot := filepath.Join(home, "dotfiles")
	hardLink(t, filepath.Join(home, ".aws", "credentials"), filepath.Join(dot, "aws_credentials"))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	v := p.JudgeReal(Resolve(OS, root, dot), SearchAccess, DefaultAuto())
	if !v.Effects.Has(Secret) {
		t.Errorf("search %s: class %v, effects %v, asks %v; want read+secret", dot, v.Class, v.Effects, v.Asks)
	}
}
