//go:build open_attacks && linux

package gate

import (
	"path/filepath"
	"testing"
)

// Attack (gate.Resolve, `..` after a file that an earlier step makes a
// directory; OPEN, low): `rm a.txt; mkdir a.txt; cat
// a.txt/../../.ssh/id_ed25519` (root ~/proj). Resolve, judging the whole
// script before it runs, sees a.txt as a file and keeps
// a.txt/../../.ssh/id_ed25519 as written below it (it names nothing
// now), so the step is read only; when cat runs, a.txt is a directory
// and the path is the private key. The script's judgment holds no
// secret, so the question (if any) does not say secret; the shell's
// judgment of the step again at run time refuses it as changed (agent/
// shell's held row), so what is open is the script's judgment only. Root
// cause: the thirty-third red team's fix reads `..` after a file by the
// file's kind at judgment time, which an earlier step of the same script
// changes. Safe outcome: the step is judged secret. Suggested fix: judge
// `..` after a file both ways (as written, and as `..` of the file's
// directory) and take the union of the effects; lend an approval by the
// as-written reading only.
func TestRedteam34_DotDotAfterAFileMadeADirectoryEarlierIsNotSecret(t *testing.T) {
	w := newWorld(t)
	if got := stepEffects(t, w.shell(w.root), "cat "+filepath.Join(w.home, ".ssh", "id_ed25519")); !got.Has(Secret) {
		t.Fatalf("control: reading the key is %v", got)
	}
	for _, s := range []string{
		"rm a.txt; mkdir a.txt; cat a.txt/../../.ssh/id_ed25519",
		"rm a.txt && mkdir a.txt && cat a.txt/../../.ssh/id_ed25519",
	} {
		if got := stepEffects(t, w.shell(w.root), s); !got.Has(Secret) {
			t.Errorf("THROUGH: %s is %v", s, got)
		}
	}
}
