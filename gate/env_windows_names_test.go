package gate

import (
	"maps"
	"testing"
)

func TestAWindowsEnvironmentReadsAsEukheReadsOne(t *testing.T) {
	for _, c := range []struct {
		in, want map[string]string
	}{
		{map[string]string{"Path": `C:\bin`, "USERPROFILE": `C:\Users\u`, "SystemRoot": `C:\Windows`},
			map[string]string{"PATH": `C:\bin`, "USERPROFILE": `C:\Users\u`, "SYSTEMROOT": `C:\Windows`, "HOME": `C:\Users\u`}},
		{map[string]string{"HOME": `C:\git-home`, "USERPROFILE": `C:\Users\u`},
			map[string]string{"HOME": `C:\git-home`, "USERPROFILE": `C:\Users\u`}},
		{map[string]string{"HOMEDRIVE": `D:`, "HOMEPATH": `\Users\u`},
			map[string]string{"HOMEDRIVE": `D:`, "HOMEPATH": `\Users\u`, "HOME": `D:\Users\u`}},
	} {
		got := maps.Clone(c.in)
		windowsEnviron(got)
		if !maps.Equal(got, c.want) {
			t.Errorf("%v → %v, want %v", c.in, got, c.want)
		}
	}
}
