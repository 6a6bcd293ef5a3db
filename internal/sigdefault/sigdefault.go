// Package sigdefault gives the programs eukhe starts the signals a
// terminal gives them, however eukhe itself was started.
//
// A signal a process ignores stays ignored across fork and exec. Started
// under nohup (or by a client that ignores SIGHUP or SIGINT), eukhe passed
// that on to every program it ran: a login shell asked for PATH was never
// hung up, so its startup file's tool was killed without its trap and
// left the user's lock; a step's program could not be interrupted. A
// signal the Go runtime handles is reset to its default in a child, so
// each signal eukhe was started ignoring that the Go runtime leaves
// ignored (the hangup, the interrupt) gets a handler that drops it:
// eukhe goes on ignoring it, and its children do not.
package sigdefault

import (
	"os"
	"os/signal"
	"sync"
)

var once sync.Once

// ForChildren makes every terminating signal this process was started
// ignoring reach the programs it starts with its default action, while
// this process still ignores it. Call it before starting a program; it
// acts once per process.
func ForChildren() {
	once.Do(func() {
		var ignored []os.Signal
		for _, s := range terminating {
			if signal.Ignored(s) {
				ignored = append(ignored, s)
			}
		}
		if len(ignored) > 0 {
			Drop(ignored...)
		}
	})
}

// Drop has this process take sigs and do nothing with them, where
// signal.Ignore would pass the ignoring on to every program it starts.
func Drop(sigs ...os.Signal) {
	signal.Notify(make(chan os.Signal, 1), sigs...) // never read: each one is dropped
}
