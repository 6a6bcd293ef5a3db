package lsp

import (
	"fmt"
	"os"
	"path/filepath"
)

// An open document is judged by the file its name resolves to now, not
// the one it resolved to at didOpen (issue: "an editor buffer is judged by
// the path it has now"). Between didOpen and an edit, and between an edit
// and the save eukhe asks for, the agent controls every directory on the
// way: it can repoint a link so that the buffer's name resolves into .git
// or out of the workspace. The overlay records each document's real path
// at didOpen; every read, edit and save of it resolves its name again, and
// a document whose real path changed is refused, with the next step
// (reopen it in the editor), never served or saved.

// realPath is path with every symbolic link resolved, also one that
// leads nowhere yet (a new file's name can be a dangling link into .git)
// and below a directory that does not exist yet.
func realPath(path string) string {
	path = filepath.Clean(path)
	for hops := 0; hops < 40; hops++ {
		if r, err := filepath.EvalSymlinks(path); err == nil {
			return r
		}
		fi, err := os.Lstat(path)
		if err == nil && fi.Mode()&os.ModeSymlink != 0 {
			target, err := os.Readlink(path)
			if err != nil {
				return path
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(filepath.Dir(path), target)
			}
			path = filepath.Clean(target)
			continue
		}
		dir := filepath.Dir(path)
		if dir == path {
			return path
		}
		return filepath.Join(realPath(dir), filepath.Base(path))
	}
	return path // a loop: compared as it is, it differs from any real path
}

// movedError is what a read, an edit or a save of a document whose name
// resolves elsewhere than at didOpen is told.
func movedError(path, now, then string) error {
	return fmt.Errorf("%s now resolves to %s, not to %s as when it was opened in the editor (a link on its way changed): "+
		"nothing of it is read, edited or saved through the editor; close it and open it again in the editor, then retry", path, now, then)
}
