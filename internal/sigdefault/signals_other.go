//go:build !unix

package sigdefault

import "os"

// terminating: outside Unix a program's console signals are not passed
// on as ignored dispositions the way Unix passes them.
var terminating = []os.Signal{}
