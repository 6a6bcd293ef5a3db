// Package procfs reads Linux's /proc: each process's parent, process
// group and session, for the code that stops or kills a whole tree of
// processes (agent/shell's kernel, gate/settings' login shell asked for PATH). It decides nothing; elsewhere it
// lists nothing.
package procfs
