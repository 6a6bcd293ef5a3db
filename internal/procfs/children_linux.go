package procfs

import (
	"os"
	"strconv"
	"strings"
)

// Children are the processes whose parent is pid now: each of its
// threads' /proc/PID/task/TID/children, in the order the kernel keeps them
// (a child reparented to pid comes last), else, on a kernel without those
// files, every process whose stat names pid as its parent. A children file
// is exact only while pid reaps nothing (stopped, say): its reader
// resumes by position, and a child reaped meanwhile shifts the rest.
func Children(pid int) []int {
	dir := "/proc/" + strconv.Itoa(pid) + "/task/"
	tasks, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []int
	files := false
	for _, t := range tasks {
		b, err := os.ReadFile(dir + t.Name() + "/children")
		if err != nil {
			continue
		}
		files = true
		for _, f := range strings.Fields(string(b)) {
			if n, err := strconv.Atoi(f); err == nil {
				out = append(out, n)
			}
		}
	}
	if files {
		return out
	}
	for _, p := range All() {
		if p.PPID == pid {
			out = append(out, p.PID)
		}
	}
	return out
}
