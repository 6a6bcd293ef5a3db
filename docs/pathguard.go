package docs

import "context"

// Access is what a document tool does to a path, as the documents gate
// judges it (G1.5): a read or listing, a search of a tree (grep, glob),
// or a write.
type Access uint8

// The accesses a document tool asks the gate about.
const (
	// ReadAccess reads a file or lists a directory.
	ReadAccess Access = iota
	// SearchAccess searches what a path holds (grep of a file or a tree,
	// glob): a path that is or holds a secret makes it secret (G1.5).
	SearchAccess
	// WriteAccess writes, creates, moves or removes.
	WriteAccess
)

func (a Access) String() string {
	switch a {
	case SearchAccess:
		return "search"
	case WriteAccess:
		return "write"
	}
	return "read"
}

// PathGuard is the documents gate (G1.6, G1.7) as docs sees it: agent
// hands in the gate's, and docs never imports gate. A Tools without one
// judges nothing (tests only: every way of running a tool goes through
// agent's session builder, which sets one). Like mvdan.cc/sh's handlers it
// keeps no per-call state: the call's context comes first in each judgment.
type PathGuard interface {
	// Allow judges one access of path once, as given — asking the user
	// when the gate must — and gives the real path the access then uses.
	// An error is the refusal text the model gets; nothing was accessed.
	// A question is asked under ctx: when the call is cancelled, the
	// question is withdrawn and the access refused.
	Allow(ctx context.Context, path string, a Access) (real string, err error)
	// SameReal tells, under the writer's lock, whether path still resolves
	// to real (G1.7); when it does not, the write writes nothing. It takes
	// no context on purpose: it never waits or asks, and it runs inside a
	// commit that, once begun, finishes whatever happens to the call.
	SameReal(path, real string) bool
	// SecretName tells whether path, a file a tree search met with more
	// than one name, is another name of a secret file: the search leaves
	// it out (G1.5: a search of what holds a secret is a secret read,
	// and the gate judged the tree by its paths). It never asks.
	SecretName(path string) bool
}
