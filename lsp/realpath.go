package lsp

import (
	"fmt"

	"github.com/eukhe/eukhe/gate"
)

// An open document is judged by the path it has now.
// At didOpen the overlay records the real path its name resolves to then
// (gate.Resolve: every link followed, dangling ones too; a name that does
// not exist yet — an unsaved new buffer — is its nearest existing
// directory resolved and the rest as written, so the file a save at that
// moment would create). Every read of it through the editor Store, every
// edit sent to it and every save asked of the editor resolves its name
// again; when that differs (a directory link repointed, the file replaced
// by a link, a directory renamed under it), the document is refused.

// osResolve resolves a path on the host's filesystem.
func osResolve(path string) gate.RealPath { return gate.Resolve(gate.OS, "/", path) }

// judgeOpened is the law: a document named name, whose name resolved to
// opened at didOpen (looped: its links looped then), may be served, edited
// or saved only while its name resolves, unlooped, to that same path now.
func judgeOpened(name string, opened gate.RealPath, now gate.RealPath) error {
	switch {
	case opened.Looped:
		return fmt.Errorf("%s is open in the editor, and its name did not resolve when it was opened (its links loop): close it in the editor, fix the links, reopen it, then retry", name)
	case now.Looped:
		return fmt.Errorf("%s is open in the editor, and its name does not resolve now (its links loop), not to %s as when it was opened: close and reopen it in the editor, then retry", name, opened.Path)
	case now.Path != opened.Path:
		return fmt.Errorf("%s is open in the editor, and its name now resolves to %s, not %s as when it was opened: close and reopen it in the editor, then retry", name, now.Path, opened.Path)
	}
	return nil
}

// judge resolves an open document's name now and judges it (judgeOpened).
func (o *overlay) judge(v view) error {
	return judgeOpened(v.path, gate.RealPath{Path: v.real, Looped: v.looped}, o.resolve(v.path))
}
