package gate

import "testing"

// Windows' command interpreters and script files run code of their own:
// they are exec, as every command the table does not know is. The table
// must never learn one of these names as a reader or a writer (a .bat
// named like a Unix tool is still a script).
func TestWindowsInterpretersAndScriptsAreExec(t *testing.T) {
	for _, name := range []string{
		"cmd", "cmd.exe", "CMD.EXE", "powershell", "powershell.exe", "pwsh", "pwsh.exe",
		"build.bat", "build.cmd", "build.ps1", "ls.bat", "cat.cmd", "grep.ps1", "wscript", "cscript.exe",
	} {
		f := commandFacts(name, []string{"/c", "echo hi"})
		if !f.own.Has(Exec) {
			t.Errorf("%s is not exec: %v", name, f.own)
		}
	}
}
