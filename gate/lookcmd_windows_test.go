package gate

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The PATHEXT gap (issue 24, item 4): on Windows `cat` runs cat.com,
// cat.exe, cat.bat or cat.cmd, the first PATHEXT finds. A .bat or .cmd
// is a script cmd.exe runs, not the program the command table
// describes: judged as cat (read), a cat.bat on PATH ran whatever it
// says under an auto set without exec. It is exec, as tools/cat.bat named
// by its path is; cat.exe is the table's cat. The classifier and the
// shell's exec handler call the same lookup (Policy.LookCommand).
func TestPathextScriptIsExecWhateverItsName(t *testing.T) {
	w := newWorld(t)
	tools := filepath.Join(w.base, "tools")
	mustMkdir(t, tools)
	put := func(name string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(tools, name), []byte("@echo off\r\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	classify := func(script, pathext string) Step {
		t.Helper()
		env := map[string]string{"HOME": w.home, "PATH": tools}
		if pathext != "" {
			env["PATHEXT"] = pathext
		}
		sh := &Shell{Policy: w.policy, Dir: w.root, ReadDir: os.ReadDir, Env: env}
		sc, err := sh.Classify(script)
		if err != nil {
			t.Fatal(err)
		}
		return sc.Steps[len(sc.Steps)-1]
	}
	entries := func(pathext string) (Found, bool) {
		return w.policy.LookCommand("cat", []PathEntry{{Entry: tools, Kind: PathOutside}}, pathext)
	}

	put("cat.exe")
	if st := classify("cat a.txt", ""); st.Effects.Has(Exec) {
		t.Errorf("cat a.txt, cat being cat.exe, is %s, want the table's read", st.Effects.Names())
	}
	if f, ok := entries(""); !ok || f.Exec || !strings.EqualFold(f.Path, filepath.Join(tools, "cat.exe")) {
		t.Errorf("cat is found as %+v (%v), want cat.exe, not exec", f, ok)
	}

	must(t, os.Remove(filepath.Join(tools, "cat.exe")))
	for _, s := range []string{"cat.bat", "cat.cmd"} {
		put(s)
		st := classify("cat a.txt", "")
		if !st.Effects.Has(Exec) {
			t.Errorf("cat a.txt, cat being %s, is %s, want exec", s, st.Effects.Names())
		}
		why := ""
		for _, p := range st.Parts {
			why += p.Why + "; "
		}
		if !strings.Contains(why, "is a script") {
			t.Errorf("cat a.txt, cat being %s, says %q, want why it is exec", s, why)
		}
		f, ok := entries("")
		if !ok || !f.Exec || !f.Script || !strings.EqualFold(filepath.Base(f.Path), s) {
			t.Errorf("cat is found as %+v (%v), want %s, exec", f, ok, s)
		}
		// ssh is no command of the table: exec, found as a script or not,
		// and so is a script named by its path.
		for _, script := range []string{"ssh host", "tools/" + s + " a.txt", "'" + filepath.Join(tools, s) + "' a.txt", s + " a.txt"} {
			if st := classify(script, ""); !st.Effects.Has(Exec) {
				t.Errorf("%s is %s, want exec", script, st.Effects.Names())
			}
		}
		must(t, os.Remove(filepath.Join(tools, s)))
	}

	// PATHEXT says which extensions a name is tried with, in its order:
	// .EXE first finds cat.exe before cat.bat; without .BAT a cat.bat is
	// never run for cat.
	put("cat.bat")
	put("cat.exe")
	if f, ok := entries(".EXE;.BAT"); !ok || f.Exec {
		t.Errorf("PATHEXT .EXE;.BAT: cat is found as %+v (%v), want cat.exe", f, ok)
	}
	if f, ok := entries(".BAT;.EXE"); !ok || !f.Script {
		t.Errorf("PATHEXT .BAT;.EXE: cat is found as %+v (%v), want cat.bat", f, ok)
	}
	if st := classify("cat a.txt", ".BAT;.EXE"); !st.Effects.Has(Exec) {
		t.Errorf("PATHEXT .BAT;.EXE: cat a.txt is %s, want exec", st.Effects.Names())
	}
	must(t, os.Remove(filepath.Join(tools, "cat.exe")))
	if _, ok := entries(".EXE"); ok {
		t.Errorf("PATHEXT .EXE finds cat.bat")
	}
}
