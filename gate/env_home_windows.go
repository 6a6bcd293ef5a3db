package gate

// asThisSystem is windowsEnviron here.
func asThisSystem(env map[string]string) { windowsEnviron(env) }
