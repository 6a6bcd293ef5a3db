package gate

import "path/filepath"

// splitPathList splits a PATH-like value as the interpreter does on
// Windows (filepath.SplitList: at ';', quotes kept together), an empty
// value being one empty entry.
func splitPathList(v string) []string {
	if l := filepath.SplitList(v); len(l) > 0 {
		return l
	}
	return []string{""}
}

// absEntry reports whether an entry of such a list is absolute: a drive
// and a root (C:\bin), or a UNC path. C:bin and \bin are not: each
// depends on where the step stands.
func absEntry(d string) bool { return filepath.IsAbs(d) }
