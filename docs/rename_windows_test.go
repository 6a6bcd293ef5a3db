package docs

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"
)

// renameReplace keeps S8.1's replace on Windows over the files eukhe
// itself holds open during a commit: a journal rewritten over itself, a
// file whose old bytes keep a second name held open (rename_windows.go).

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func holds(t *testing.T, path, want string) {
	t.Helper()
	if b, err := os.ReadFile(path); err != nil || string(b) != want {
		t.Errorf("%s holds %q (%v), want %q", filepath.Base(path), b, err, want)
	}
}

// onlyNames checks that dir holds exactly names: no name set aside stays.
func onlyNames(t *testing.T, dir string, names ...string) {
	t.Helper()
	des, _ := os.ReadDir(dir)
	var got []string
	for _, de := range des {
		got = append(got, de.Name())
	}
	if len(got) != len(names) {
		t.Errorf("%s holds %v, want %v", dir, got, names)
	}
}

func TestRenameReplaceOverAFileEukheHoldsOpen(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "1.tmp"), filepath.Join(dir, "1.journal")
	writeFile(t, from, "new")
	writeFile(t, to, "old")
	held, err := openFile(to, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := lockFile(held, lockEx); err != nil {
		t.Fatal(err)
	}
	if err := renameReplace(from, to); err != nil {
		t.Fatalf("renameReplace over a file held open (sharing its deletion): %v", err)
	}
	holds(t, to, "new")
	buf := make([]byte, 8)
	if n, _ := held.ReadAt(buf, 0); string(buf[:n]) != "old" {
		t.Errorf("the handle held reads %q: it is no longer the old file", buf[:n])
	}
	held.Close()
	onlyNames(t, dir, "1.journal")
}

func TestRenameReplaceOverAFileWhoseSecondNameIsHeldOpen(t *testing.T) {
	dir := t.TempDir()
	from, to, kept := filepath.Join(dir, "new"), filepath.Join(dir, "a.txt"), filepath.Join(dir, "kept")
	writeFile(t, from, "new")
	writeFile(t, to, "old")
	if err := os.Link(to, kept); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	held, err := openFile(kept, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := renameReplace(from, to); err != nil {
		t.Fatalf("renameReplace over a file whose other name is held open: %v", err)
	}
	holds(t, to, "new")
	holds(t, kept, "old")
	held.Close()
	onlyNames(t, dir, "a.txt", "kept")
}

func TestRenameReplaceOverAReadOnlyFileHeldOpen(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "new"), filepath.Join(dir, "ro.txt")
	writeFile(t, from, "new")
	writeFile(t, to, "old")
	if err := os.Chmod(to, 0o444); err != nil {
		t.Fatal(err)
	}
	held, err := openFile(to, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := renameReplace(from, to); err != nil {
		t.Fatalf("renameReplace over a read-only file held open: %v", err)
	}
	holds(t, to, "new")
	held.Close()
	onlyNames(t, dir, "ro.txt")
}

// A file another program holds open without sharing its deletion is not
// replaced, and nothing moves: the edit fails whole (errHeldOpen).
func TestRenameReplaceRefusesAFileHeldWithoutSharingItsDeletion(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "new"), filepath.Join(dir, "b.txt")
	writeFile(t, from, "new")
	writeFile(t, to, "old")
	h, err := createFile(to, windows.GENERIC_READ, windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE, windows.OPEN_EXISTING, 0)
	if err != nil {
		t.Fatal(err)
	}
	err = renameReplace(from, to)
	windows.CloseHandle(h)
	if !errors.Is(err, errHeldOpen) {
		t.Fatalf("renameReplace over a file held without FILE_SHARE_DELETE: %v, want errHeldOpen", err)
	}
	holds(t, to, "old")
	holds(t, from, "new")
	onlyNames(t, dir, "b.txt", "new")
}

// renameByHandle's FILE_RENAME_INFO is laid out as Windows reads it: a
// plain rename through it (FileRenameInfo, which every Windows and Wine
// have) lands.
func TestRenameByHandleLayout(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "x"), filepath.Join(dir, "a name with spaces and ü")
	writeFile(t, from, "x")
	writeFile(t, to, "old")
	if err := renameByHandle(from, to, windows.FileRenameInfo, 1); err != nil {
		t.Fatalf("FileRenameInfo: %v", err)
	}
	holds(t, to, "x")
	onlyNames(t, dir, "a name with spaces and ü")
}

// A name set aside keeps its extension (a journal stays a journal for
// recovery) and is no temp name (no sweep takes it).
func TestAsideName(t *testing.T) {
	a := asideName(filepath.Join(`C:\j`, "12-3.journal"))
	if filepath.Ext(a) != journalExt || IsTemp(filepath.Base(a)) || filepath.Dir(a) != `C:\j` {
		t.Errorf("asideName: %s", a)
	}
}

// unlink frees the name at once, though another name of the file is held
// open (where Windows before 10 1903 and Wine keep it until that handle
// closes, and Wine then removes what was put there since).
func TestUnlinkFreesTheNameOfAFileHeldOpenByAnotherName(t *testing.T) {
	dir := t.TempDir()
	f, kept := filepath.Join(dir, "f.txt"), filepath.Join(dir, "kept")
	writeFile(t, f, "old")
	if err := os.Link(f, kept); err != nil {
		t.Skipf("no hard links here: %v", err)
	}
	held, err := openFile(kept, os.O_RDONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := unlink(f); err != nil {
		t.Fatalf("unlink: %v", err)
	}
	if _, err := os.Lstat(f); err == nil {
		t.Fatal("the name is still there after unlink")
	}
	if err := os.Link(kept, f); err != nil {
		t.Fatalf("linking the kept file back: %v", err)
	}
	held.Close()
	holds(t, f, "old")
	onlyNames(t, dir, "f.txt", "kept")
}
