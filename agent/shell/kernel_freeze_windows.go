package shell

// freezeKernel does nothing on Windows yet: a kernel's threads and
// programs may run between its cells there (guide/platforms.md).
func freezeKernel(int) []int { return nil }

// killKernel ends the kernel's Job object (its every process).
func killKernel(_ int, g procGroup) { killGroupNow(g) }

// thawKernel does nothing on Windows.
func thawKernel(int, []int) {}
