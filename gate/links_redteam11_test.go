package gate

import (
	"os"
	"path/filepath"
	"testing"
)

// The eleventh red team's ways around the walk of the home's secret and
// protected places kept for topsFresh (LinkCache.walkTop, revalidated by
// stillNamed). These held.

// A secret file that gains a name and loses another within the minute
// keeps its number of names, so the kept walk is used: it still lists
// the secret file itself, whose inode the new name shares.
func TestRedTeam11_secret_file_that_swaps_one_other_name_for_another_stays_secret(t *testing.T) {
	needHardLinkSearch(t)
	base, home, root := redHome(t)
	cred := filepath.Join(home, ".aws", "credentials")
	old, fresh := filepath.Join(base, "tmp", "old"), filepath.Join(home, "dotfiles", "aws_credentials")
	hardLink(t, cred, old)
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if got := p.ClassRead(Resolve(OS, root, old)); got != ClassSecret {
		t.Fatalf("read %s before the swap: %v, want %v", old, got, ClassSecret)
	}
	must(t, os.MkdirAll(filepath.Dir(fresh), 0o755))
	must(t, os.Link(cred, fresh))
	must(t, os.Remove(old))
	if got := p.ClassRead(Resolve(OS, root, fresh)); got != ClassSecret {
		t.Errorf("read %s (new name after the swap): %v, want %v", fresh, got, ClassSecret)
	}
	if got := p.ClassWrite(Resolve(OS, root, fresh)); got != ClassSecret {
		t.Errorf("write %s (new name after the swap): %v, want %v", fresh, got, ClassSecret)
	}
}

// A directory symlink in the workspace into ~/.ssh resolves to the key.
func TestRedTeam11_directory_symlink_into_ssh_is_secret(t *testing.T) {
	_, home, root := redHome(t)
	key := filepath.Join(home, ".ssh", "id_ed25519")
	must(t, os.MkdirAll(filepath.Dir(key), 0o700))
	must(t, os.WriteFile(key, []byte("k\n"), 0o600))
	must(t, os.Symlink(filepath.Join(home, ".ssh"), filepath.Join(root, "keys")))
	if _, err := os.Lstat(filepath.Join(root, "keys")); err != nil {
		t.Skip("this system makes no symlink (Wine 8's CreateSymbolicLink says it made one and makes none)")
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	path := filepath.Join(root, "keys", "id_ed25519")
	if got := p.ClassRead(Resolve(OS, root, path)); got != ClassSecret {
		t.Errorf("read %s: %v, want %v", path, got, ClassSecret)
	}
	if got := p.ClassWrite(Resolve(OS, root, path)); got != ClassSecret {
		t.Errorf("write %s: %v, want %v", path, got, ClassSecret)
	}
}

// A credential store that is a link to a directory on another device
// (~/.aws -> a tmpfs): the skip of a place on another device looks at
// the link itself (Lstat), not at where it points, so the store is
// walked and another name of its file on that device is secret.
func TestRedTeam11_credential_store_linked_to_another_device_is_walked(t *testing.T) {
	_, home, root := redHome(t)
	shm, err := os.MkdirTemp("/dev/shm", "red11")
	if err != nil {
		t.Skip("no /dev/shm:", err)
	}
	t.Cleanup(func() { os.RemoveAll(shm) })
	other := filepath.Join(shm, "other")
	hardLink(t, filepath.Join(shm, "aws", "credentials"), other)
	must(t, os.Symlink(filepath.Join(shm, "aws"), filepath.Join(home, ".aws")))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if got := p.ClassRead(Resolve(OS, root, other)); got != ClassSecret {
		t.Errorf("read %s: %v, want %v", other, got, ClassSecret)
	}
	if got := p.ClassWrite(Resolve(OS, root, other)); got != ClassSecret {
		t.Errorf("write %s: %v, want %v", other, got, ClassSecret)
	}
}

// Control for the open finding: a policy made after the link (a new
// session, or the next walk after topsFresh) finds it.
func TestRedTeam11_link_to_a_secret_file_is_found_by_a_fresh_walk(t *testing.T) {
	needHardLinkSearch(t)
	_, home, root := redHome(t)
	cred, other := filepath.Join(home, ".aws", "credentials"), filepath.Join(home, "dotfiles", "aws_credentials")
	hardLink(t, cred, other)
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	if got := p.ClassRead(Resolve(OS, root, other)); got != ClassSecret {
		t.Errorf("read %s: %v, want %v", other, got, ClassSecret)
	}
	rc, rcOther := filepath.Join(home, ".bashrc"), filepath.Join(root, "rc.sh")
	hardLink(t, rc, rcOther)
	p = Places{Roots: []string{root}, Home: home}.Policy(OS)
	if got := p.ClassWrite(Resolve(OS, root, rcOther)); got != ClassProtected {
		t.Errorf("write %s: %v, want %v", rcOther, got, ClassProtected)
	}
}

// A credential store inside the workspace root (the home served as the
// workspace) is walked each time, not kept: a link made after the first
// judgment is found at once. So is another home's store (~other/.ssh).
func TestRedTeam11_store_inside_the_root_and_another_homes_store_are_found(t *testing.T) {
	needHardLinkSearch(t)
	base, home, _ := redHome(t)
	key := filepath.Join(home, ".ssh", "id_ed25519")
	must(t, os.MkdirAll(filepath.Dir(key), 0o700))
	must(t, os.WriteFile(key, []byte("k\n"), 0o600))
	hardLink(t, filepath.Join(home, "a.go"), filepath.Join(home, "b.go"))
	p := Places{Roots: []string{home}, Home: home}.Policy(OS)
	if got := p.ClassRead(Resolve(OS, home, filepath.Join(home, "a.go"))); got != ClassInside {
		t.Fatalf("read a.go: %v, want %v", got, ClassInside)
	}
	other := filepath.Join(home, "notes", "key")
	must(t, os.MkdirAll(filepath.Dir(other), 0o755))
	must(t, os.Link(key, other))
	if got := p.ClassRead(Resolve(OS, home, other)); got != ClassSecret {
		t.Errorf("read %s (linked after the first judgment, store inside the root): %v, want %v", other, got, ClassSecret)
	}

	root := filepath.Join(base, "proj")
	must(t, os.MkdirAll(root, 0o755))
	otherHome := filepath.Join(base, "other")
	theirs := filepath.Join(root, "theirs")
	hardLink(t, filepath.Join(otherHome, ".aws", "credentials"), theirs)
	q := Places{Roots: []string{root}, Home: home, OtherHomes: []string{otherHome}}.Policy(OS)
	if got := q.ClassRead(Resolve(OS, root, theirs)); got != ClassSecret {
		t.Errorf("read %s (another home's credentials): %v, want %v", theirs, got, ClassSecret)
	}
}

// ClassRead looks for another name of a secret file only when the path's
// own class is Inside or Outside. A protected place is read unasked
// (AccessEffects gives a read of ClassProtected no Secret), so another
// name of a key there is read without a question: a dotfiles manager's
// copy in ~/.config (hard-linked to ~/.ssh/id_ed25519), the workspace's
// .git or .vscode, ~/.bashrc.
func TestRedTeam11_secret_file_with_another_name_in_a_protected_place_is_read_unasked(t *testing.T) {
	needHardLinkSearch(t)
	_, home, root := redHome(t)
	key := filepath.Join(home, ".ssh", "id_ed25519")
	others := []string{
		filepath.Join(home, ".config", "yadm", "id_ed25519"),
		filepath.Join(root, ".git", "info", "key"),
		filepath.Join(root, ".vscode", "key"),
	}
	prev := key
	for _, o := range others {
		hardLink(t, prev, o)
		prev = o
	}
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	for _, o := range others {
		r := Resolve(OS, root, o)
		c := p.ClassRead(r)
		if effs := AccessEffects(ReadAccess, c, p.HoldsSecret(r)); effs != Of(Read, Secret) {
			t.Errorf("read %s (another name of %s): class %v, effects %v, want %v", o, key, c, effs, Of(Read, Secret))
		}
	}
}

// The same for a write: ClassWrite keeps a path's own Protected class, so
// a write to another name of a credential store's file in a protected
// place (~/.config/yadm/authorized_keys, hard-linked to
// ~/.ssh/authorized_keys) has no Secret effect, and an auto set holding
// write and protected (shell.autoEffects) lets it run unasked.
func TestRedTeam11_write_of_a_secret_files_other_name_in_a_protected_place_is_not_secret(t *testing.T) {
	needHardLinkSearch(t)
	_, home, root := redHome(t)
	other := filepath.Join(home, ".config", "yadm", "authorized_keys")
	hardLink(t, filepath.Join(home, ".ssh", "authorized_keys"), other)
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	v := p.JudgeReal(Resolve(OS, root, other), WriteAccess, AutoOf(Of(Read, Write, Protected)))
	if !v.Effects.Has(Secret) || !v.Asks {
		t.Errorf("write %s: class %v, effects %v, asks %v; want secret, asked", other, v.Class, v.Effects, v.Asks)
	}
}

// A secret file with one name when the walk is kept is not in it
// (stillNamed checks only the files the walk found with other names):
// a hard link the user makes within the minute (ln ~/.aws/credentials
// ~/dotfiles/aws_credentials) was read, and written, unasked until the
// walk was done again. Held: the link sets the file's change time, and a
// kept walk older than it is made again (walkTop's changed).
func TestRedTeam11_link_made_within_the_minute_to_a_secret_file_with_one_name(t *testing.T) {
	needHardLinkSearch(t)
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
// minute into the workspace was written unasked, and the shell runs it.
func TestRedTeam11_link_made_within_the_minute_to_a_protected_file_with_one_name(t *testing.T) {
	needHardLinkSearch(t)
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
