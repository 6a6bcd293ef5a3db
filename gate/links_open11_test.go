//go:build open_attacks

package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// The eleventh red team's findings against the walk kept for topsFresh.

// A secret file with one name when the walk is kept is not in it
// (stillNamed checks only the files the walk found with other names):
// a hard link the user makes within the minute (ln ~/.aws/credentials
// ~/dotfiles/aws_credentials) is read, and written, unasked until the
// walk is done again.
func TestRedTeam11_link_made_within_the_minute_to_a_secret_file_with_one_name(t *testing.T) {
	_, home, root := redHome(t)
	cred := filepath.Join(home, ".aws", "credentials")
	must(t, os.MkdirAll(filepath.Dir(cred), 0o700))
	must(t, os.WriteFile(cred, []byte("secret\n"), 0o600))
	// any file with two names makes the first judgment walk ~/.aws
	hardLink(t, filepath.Join(root, "a.go"), filepath.Join(root, "b.go"))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if got := p.ClassRead(Resolve(OS, root, filepath.Join(root, "a.go"))); got != ClassInside {
		t.Fatalf("read a.go: %v, want %v", got, ClassInside)
	}
	other := filepath.Join(home, "dotfiles", "aws_credentials")
	must(t, os.MkdirAll(filepath.Dir(other), 0o755))
	must(t, os.Link(cred, other))
	if got := p.ClassRead(Resolve(OS, root, other)); got != ClassSecret {
		t.Errorf("read %s (linked within the minute): %v, want %v", other, got, ClassSecret)
	}
	if got := p.ClassWrite(Resolve(OS, root, other)); got != ClassSecret {
		t.Errorf("write %s (linked within the minute): %v, want %v", other, got, ClassSecret)
	}
}

// The same for a protected file of the home's configuration (~/.bashrc,
// one name when the walk is kept): a link the user makes within the
// minute into the workspace is written unasked, and the shell runs it.
func TestRedTeam11_link_made_within_the_minute_to_a_protected_file_with_one_name(t *testing.T) {
	_, home, root := redHome(t)
	rc := filepath.Join(home, ".bashrc")
	must(t, os.WriteFile(rc, []byte("# rc\n"), 0o644))
	hardLink(t, filepath.Join(root, "a.go"), filepath.Join(root, "b.go"))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if got := p.ClassWrite(Resolve(OS, root, filepath.Join(root, "a.go"))); got != ClassInside {
		t.Fatalf("write a.go: %v, want %v", got, ClassInside)
	}
	other := filepath.Join(root, "rc.sh")
	must(t, os.Link(rc, other))
	if got := p.ClassWrite(Resolve(OS, root, other)); got != ClassProtected {
		t.Errorf("write %s (linked within the minute to ~/.bashrc): %v, want %v", other, got, ClassProtected)
	}
}

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
