package gate

// windowsPrograms are the command table's names that are other programs
// on Windows (System32's), whose words mean other things there:
// expand.exe copies its first operand onto its second, sort /O writes a
// file, find.exe and more.exe take /switches the table reads as paths,
// timeout waits rather than runs a command. Judged by the table they
// would run unasked as read-only tools (the Windows red team planted a
// hook with `expand a.txt .git/hooks/pre-commit`); here each is exec,
// as any program the table does not know.
var windowsPrograms = setOf("expand", "sort", "find", "more", "timeout", "where", "tree", "hostname",
	"comp", "fc", "print", "replace", "label", "format", "help", "whoami", "mode", "path", "choice")

// systemProgram reports whether name is another program on this system
// than the one the command table describes.
func systemProgram(name string) bool { return windowsPrograms[name] }

// CommandNames are the names of the entries of a PATH directory, as
// Windows lists them: a file named like one of them is protected where
// every directory may be on PATH (Policy.isCommandName). The InodeFS
// Names of Windows lists nothing (no inodes for the links' search), which
// left every command name unknown to the gate here while the sandbox's
// PATH shadow (agent/shell) knew them.
func (osFS) CommandNames(dir string) ([]string, error) { return entryNames(dir) }
