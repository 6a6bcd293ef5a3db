package gate

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

func r20base(t *testing.T) string {
	t.Helper()
	base, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	return base
}

func TestR20_ReadOfProtectedSecretLink(t *testing.T) {
	base := r20base(t)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, ".ssh"), 0o700))
	must(t, os.MkdirAll(filepath.Join(home, ".aws"), 0o700))
	must(t, os.MkdirAll(filepath.Join(root, ".git", "info"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, ".vscode"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, ".ssh", "id_ed25519"), []byte("SECRET"), 0o600))
	must(t, os.WriteFile(filepath.Join(home, ".aws", "credentials"), []byte("SECRET"), 0o600))
	must(t, os.Link(filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(root, ".git", "info", "key")))
	must(t, os.Symlink(filepath.Join(home, ".aws", "credentials"), filepath.Join(root, ".vscode", "settings.json")))
	must(t, os.Link(filepath.Join(home, ".ssh", "id_ed25519"), filepath.Join(home, ".bashrc")))
	p := Places{Roots: []string{root}, Home: home}.Policy(OS)
	g := &DocumentsGate{Policy: p, Dir: root}
	for _, f := range []string{".git/info/key", ".vscode/settings.json", filepath.Join(home, ".bashrc")} {
		for _, a := range []Access{ReadAccess, SearchAccess} {
			v := g.JudgeAccess(f, a)
			t.Logf("%s %v: class %v effects %v", f, a, v.Class, v.Effects)
			if !v.Effects.Has(Secret) {
				t.Errorf("%s %v: effects %v", f, a, v.Effects)
			}
		}
	}
}

func TestR20_TildePathCommand(t *testing.T) {
	base := r20base(t)
	home, root := filepath.Join(base, "home"), filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(home, "bin"), 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.WriteFile(filepath.Join(home, "bin", "r20deploy"), []byte("#!/bin/sh\n"), 0o755))
	p := Places{Roots: []string{root}, Home: home, PathDirs: []string{"/usr/bin", "~/bin"}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "ls"))); c != ClassProtected {
		t.Fatalf("control %v", c)
	}
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20deploy"))); c != ClassProtected {
		t.Errorf("tools/r20deploy %v", c)
	}
}

func TestR20_UnlistablePathDir(t *testing.T) {
	if !r17withoutDAC(t, "TestR20_UnlistablePathDir") {
		return
	}
	base := r20base(t)
	bin, root := filepath.Join(base, "bin"), filepath.Join(base, "root")
	must(t, os.MkdirAll(bin, 0o755))
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	must(t, os.WriteFile(filepath.Join(bin, "r20tool"), []byte("#!/bin/sh\n"), 0o755))
	must(t, os.Chmod(bin, 0o111))
	t.Cleanup(func() { os.Chmod(bin, 0o755) })
	if _, err := os.Stat(filepath.Join(bin, "r20tool")); err != nil {
		t.Fatal("control: not reachable by name", err)
	}
	p := Places{Roots: []string{root}, PathDirs: []string{bin}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20tool"))); c != ClassProtected {
		t.Errorf("tools/r20tool %v", c)
	}
}

func ctimeOf(t *testing.T, p string) syscall.Timespec {
	var st syscall.Stat_t
	must(t, syscall.Stat(p, &st))
	return st.Ctim
}

func TestR20_SymlinkedPathEntrySameCtime(t *testing.T) {
	base := r20base(t)
	root := filepath.Join(base, "root")
	must(t, os.MkdirAll(filepath.Join(root, "tools"), 0o755))
	var a, b string
	for i := 0; ; i++ {
		if i == 200 {
			t.Fatal("no two directories with one change time")
		}
		a, b = filepath.Join(base, "a", "v"+string(rune('a'+i%26))+string(rune('a'+i/26))), filepath.Join(base, "b", "v"+string(rune('a'+i%26))+string(rune('a'+i/26)))
		must(t, os.MkdirAll(filepath.Dir(a), 0o755))
		must(t, os.MkdirAll(filepath.Dir(b), 0o755))
		os.Mkdir(a, 0o755)
		os.Mkdir(b, 0o755)
		os.WriteFile(filepath.Join(a, "r20old"), nil, 0o755)
		os.WriteFile(filepath.Join(b, "r20new"), nil, 0o755)
		if ctimeOf(t, a) == ctimeOf(t, b) {
			break
		}
	}
	cur := filepath.Join(base, "current")
	must(t, os.Symlink(a, cur))
	time.Sleep(1200 * time.Millisecond) // past changedSlack
	p := Places{Roots: []string{root}, PathDirs: []string{cur}, PathUnknown: true}.Policy(OS)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20old"))); c != ClassProtected {
		t.Fatalf("control %v", c)
	}
	must(t, os.Symlink(b, cur+".new"))
	must(t, os.Rename(cur+".new", cur))
	time.Sleep(3 * commandsFresh)
	if c := p.ClassWrite(p.Resolve(root, filepath.Join(root, "tools", "r20new"))); c != ClassProtected {
		t.Errorf("tools/r20new %v", c)
	}
}
