//go:build unix && !linux

package settings

// askShellPath asks through pipes where no terminal is opened for it.
func askShellPath(inv shellInvocation, env map[string]string) (string, bool) {
	return askShellPathPipe(inv, env)
}
