package discovery

// The twenty-sixth red team's row on discovery's entry names
// (entries, gate.DiscoveryEntryName): discovery and the gate must agree
// on what an entry is, name by name.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/eukhe/eukhe/gate"
)

// Attack (change 3: discovery reads only names of the entry's form): a
// name discovery still reads that the gate does not hold secret in a
// socket directory of another eukhe (D/eukhe, D/eukhe-UID), drawn from
// the form's parts and their near misses: upper-case hex, fullwidth and
// Arabic-Indic digits, a trailing newline or space, ".json" twice, a
// leading dot or zero, nine or eleven hex digits, a ".JSON" suffix, a
// name that is a directory. Held if, for every name drawn, discovery's
// entries list it only when the gate judges a write of it secret (in
// both directory forms) and DiscoveryEntryName takes it.
func TestRedteam26_EveryNameDiscoveryReadsIsSecret(t *testing.T) {
	home := t.TempDir()
	root := t.TempDir()
	p := gate.Places{Roots: []string{root}, Home: home}.Policy(gate.OS)
	pids := []string{"1", "42", "4194304", "4294967295", "0", "01", "", "12345678901", "١", "１", " 1", "+1"}
	seps := []string{"-", "--", "_", "", "‐"}
	hexes := []string{"0123abcd", "deadbeef", "0123ABCD", "deadbee", "deadbeef0", "0123abcｄ", "0123abcd\n"}
	sufs := []string{".json", ".json.tmp", ".sock", ".JSON", ".json\n", ".json ", ".json.json", ".jsonx", ".tmp.json", ".json.", "..json"}
	seen := 0
	defer func() {
		if seen == 0 {
			t.Errorf("no name drawn was an entry discovery reads: the row tested nothing")
		}
	}()
	// check judges one name; fatal is the test's or the draw's.
	check := func(name string, fatal func(format string, args ...any)) {
		if strings.Contains(name, "/") || name == "." || name == ".." {
			return
		}
		for _, dname := range []string{"eukhe", fmt.Sprintf("eukhe-%d", os.Getuid())} {
			d := filepath.Join(t.TempDir(), dname)
			if err := os.Mkdir(d, 0o700); err != nil {
				fatal("%v", err)
			}
			f := filepath.Join(d, name)
			if err := os.WriteFile(f, []byte("{}"), 0o600); err != nil {
				continue // a name this file system refuses
			}
			read := false
			for _, e := range entries(d) {
				if e == f {
					read = true
				}
			}
			if !read {
				continue
			}
			seen++
			if !gate.DiscoveryEntryName(name) {
				fatal("discovery reads %q, which DiscoveryEntryName rejects", name)
			}
			if c := p.ClassWrite(p.Resolve(root, f)); c != gate.ClassSecret {
				fatal("THROUGH: discovery reads %q in %s, and the gate judges its write %v", name, dname, c)
			}
		}
	}
	// names of the form, so that the row always tests something: the
	// draws below meet one only about once in four hundred
	for _, name := range []string{"42-deadbeef.json", "4294967295-0123abcd.json", "1-deadbeef.json"} {
		check(name, t.Fatalf)
	}
	rapid.Check(t, func(rt *rapid.T) {
		name := rapid.SampledFrom(pids).Draw(rt, "pid") + rapid.SampledFrom(seps).Draw(rt, "sep") +
			rapid.SampledFrom(hexes).Draw(rt, "hex") + rapid.SampledFrom(sufs).Draw(rt, "suffix")
		check(name, rt.Fatalf)
	})
}
