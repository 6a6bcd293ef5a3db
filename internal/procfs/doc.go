// Package procfs reads Linux's /proc: each process's parent, process
// group and session, for the code that stops or kills a whole tree of
// processes (agent/shell's kernel). It decides nothing; elsewhere it
// lists nothing.
package procfs
