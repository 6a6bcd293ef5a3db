package gate

// foldAlways: Windows opens names without regard to case. NTFS reports
// FILE_CASE_SENSITIVE_SEARCH on every volume, yet Win32 folds unless a
// directory is marked case-sensitive (fsutil setCaseSensitiveInfo); a
// fold on such a directory only protects more names, so the gate always
// folds there and asks nothing.
func foldAlways() (bool, bool) { return true, true }

func caseInsensitiveOS(string) (bool, bool) { return true, true }
