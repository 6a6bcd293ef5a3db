package docs

// PathGuard is the documents gate (G1.6, G1.7) as docs sees it: agent
// hands in the gate's, and docs never imports gate. A Tools without one
// judges nothing (the CLI's own tool calls, the tests).
type PathGuard interface {
	// Allow judges one access of path once, as given — asking the user
	// when the gate must — and gives the real path the access then uses.
	// An error is the refusal text the model gets; nothing was accessed.
	Allow(path string, write bool) (real string, err error)
	// SameReal tells, under the writer's lock, whether path still resolves
	// to real (G1.7); when it does not, the write writes nothing.
	SameReal(path, real string) bool
}
