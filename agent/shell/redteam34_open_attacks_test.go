//go:build open_attacks && linux

package shell

import (
	"strings"
	"testing"
)

// Attack (placesOf, `..` after a named file; OPEN, low): a program
// approved for secret at ~/.ssh/known_hosts/.. (which names nothing:
// gate.Resolve keeps it as written, below the file) lists ~/.ssh and
// prints every key's name (id_ed25519), where an approval naming
// known_hosts shows a copy of the store holding known_hosts only (the
// thirty-third red team's listing row, held by the shadows). Root cause:
// placesOf lends the named path as written; confine.Narrow/GivenWay find
// no entry of the store for it, so no shadow is made and the store is
// covered entry by entry (a mount per key, its name visible). Safe
// outcome: no other entry's name is printed. Suggested fix: in placesOf,
// drop a named path that has `..` after a file (it names nothing), so the
// store is covered whole, or shadow the store with no entry.
func TestRedteam34_DotDotAfterNamedFileListsTheStoresKeys(t *testing.T) {
	w := shadowWorld(t)
	w.write("b.sh", "ls -a \"$HOME/.ssh\"\n")
	res := w.run("sh ./b.sh " + w.store("known_hosts") + "/..")
	if strings.Contains(res.Text, "id_ed25519") {
		t.Errorf("THROUGH: the store's listing names the other key:\n%s", res.Text)
	}
}
