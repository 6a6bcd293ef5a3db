//go:build !windows

package gate

// hostHomes are the homes no variable names whose stores are the user's
// (hosthomes_windows.go: Wine's Unix home); none here, so Linux and
// macOS places are as the environment and the user database say.
func hostHomes() []string { return nil }
