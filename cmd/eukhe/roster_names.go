package main

import (
	"strings"

	"github.com/eukhe/eukhe/agent"
)

// toolList is the roster's tools in order (agent.DefaultSpecs: what a
// session serves), as a list whose last two are joined by conj: "read,
// edit, …, ipython and dyn". Help and messages take the names from here,
// never from a hand-written list.
func toolList(conj string) string {
	specs := agent.DefaultSpecs()
	names := make([]string, len(specs))
	for i, s := range specs {
		names[i] = s.Name
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}
