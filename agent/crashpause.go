package agent

import (
	"fmt"
	"os"
	"strings"
)

// CrashPauseEnv is for crash tests only: "STEP:SUFFIX" makes a headless
// session's commits stop before the step STEP ("link", "rename",
// "unlink", …) on a path ending in SUFFIX, say so on standard error
// ("eukhe: paused before STEP PATH"), and wait there until the process is
// killed. A test kills it at exactly that point, instead of hoping to hit
// a moment of a few milliseconds. Unset in use.
const CrashPauseEnv = "EUKHE_TEST_CRASH_PAUSE"

// CrashPause is the commit fault hook CrashPauseEnv asks for, or nil (the
// editor's server sets it on its disk too).
func CrashPause() func(step, path string) error {
	step, suffix, ok := strings.Cut(os.Getenv(CrashPauseEnv), ":")
	if !ok || step == "" {
		return nil
	}
	return func(s, p string) error {
		if s == step && strings.HasSuffix(p, suffix) {
			fmt.Fprintf(os.Stderr, "eukhe: paused before %s %s\n", s, p)
			select {}
		}
		return nil
	}
}
