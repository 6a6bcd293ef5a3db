//go:build !linux && !darwin && !windows

package gate

// foldAlways: the other systems' volumes are taken as case-sensitive.
func foldAlways() (bool, bool) { return false, true }

func caseInsensitiveOS(string) (bool, bool) { return false, true }
