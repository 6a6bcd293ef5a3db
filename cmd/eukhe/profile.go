package main

import (
	"fmt"
	"os"
	"runtime/pprof"
)

// CPUProfileEnv, in eukhe's environment, names a file to write a CPU
// profile of the whole run to (go tool pprof reads it). It is for
// benchmarks of the real process (bench/mcp), where the time a call takes
// is the SDK's and the system's as much as eukhe's.
const CPUProfileEnv = "EUKHE_CPUPROFILE"

// startProfile starts the profile CPUProfileEnv asks for, if any, and
// returns what ends it. A profile that cannot start is said on stderr and
// the run goes on without it.
func startProfile() (stop func()) {
	path := os.Getenv(CPUProfileEnv)
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err == nil {
		err = pprof.StartCPUProfile(f)
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "eukhe: %s: no profile: %v\n", CPUProfileEnv, err)
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}
