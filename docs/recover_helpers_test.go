package docs

import (
	"os"
	"strings"
)

// journalsIn lists the journals (and their temp names) in dir: not its
// key nor what was set aside.
func journalsIn(dir string) []string {
	des, _ := os.ReadDir(dir)
	var out []string
	for _, de := range des {
		if strings.HasSuffix(de.Name(), journalExt) || strings.HasSuffix(de.Name(), ".tmp") {
			out = append(out, de.Name())
		}
	}
	return out
}
