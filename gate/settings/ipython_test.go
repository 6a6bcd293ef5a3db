package settings

import (
	"strings"
	"testing"
)

// ipython.python names the program eukhe starts for the kernel: the user
// file sets it, a project file cannot, and a path that would depend on
// the directory eukhe runs in is refused.
func TestIPythonPythonKey(t *testing.T) {
	for _, good := range []string{"python3", "/usr/bin/python3", "~/.venvs/tools/bin/python"} {
		f, evs := Parse("u.json", []byte(`{"ipython.python": "`+good+`"}`), UserScope)
		if f == nil || len(evs) != 0 || Merge(f).IPythonPython != good {
			t.Errorf("%s: %v %v", good, f, evs)
		}
	}
	if d := Defaults(); d.IPythonPython != "" {
		t.Fatalf("default %q", d.IPythonPython)
	}
	f, evs := Parse("p.json", []byte(`{"ipython.python": "/tmp/evil"}`), ProjectScope)
	if f == nil || len(evs) != 1 || Merge(nil, f).IPythonPython != "" {
		t.Fatalf("a project file set ipython.python: %v %v", f, evs)
	}
	for _, bad := range []string{`""`, `" python3"`, `"venv/bin/python"`, `"./python"`, `3`} {
		if f, evs := Parse("u.json", []byte(`{"ipython.python": `+bad+`}`), UserScope); f != nil || len(evs) != 1 || !strings.Contains(evs[0].Message, "ipython.python") {
			t.Errorf("%s: %v %v", bad, f, evs)
		}
	}
}
