package settings

// askShellPath asks nothing on Windows: there is no login shell whose
// startup files add to PATH, so the PATH a program finds its tools on is
// the one in the environment, which newPathDirs already starts from. The
// law kept is the same as elsewhere (only directories the user's own
// shell would search are added); here that set is empty.
func askShellPath(shellInvocation, map[string]string) (string, bool) { return "", false }
