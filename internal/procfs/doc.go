// Package procfs reads Linux's /proc: each process's parent, process
// group and session, for the code that signals or stops a whole session
// or tree of processes (gate/settings' login shell, agent/shell's
// kernel). It decides nothing; elsewhere it lists nothing.
package procfs
