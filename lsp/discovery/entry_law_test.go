package discovery

import (
	"testing"

	"github.com/eukhe/eukhe/gate"
	"pgregory.net/rapid"
)

// Every name a server publishes has the form the gate holds secret in any
// eukhe's socket directory and that discovery reads (gate.DiscoveryEntryName):
// a server whose entries had another form would be found by no one, and a
// form the gate did not hold would let a program plant an editor.
func TestLaw_every_published_name_is_an_entry_name(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		pid := rapid.IntRange(1, 1<<31-1).Draw(rt, "pid")
		var b [4]byte
		copy(b[:], rapid.SliceOfN(rapid.Byte(), 4, 4).Draw(rt, "random"))
		base := entryBase(pid, b)
		for _, suffix := range []string{".sock", ".json", ".json.tmp"} {
			if !gate.DiscoveryEntryName(base + suffix) {
				rt.Fatalf("%s%s is published but is not an entry's name", base, suffix)
			}
		}
		for _, other := range []string{base, base + ".json.bak", "x" + base + ".json", base + ".JSON"} {
			if gate.DiscoveryEntryName(other) {
				rt.Fatalf("%s is taken for an entry's name", other)
			}
		}
	})
}
