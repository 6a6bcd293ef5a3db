package shell

import (
	"encoding/json"
	"fmt"

	"github.com/eukhe/eukhe/gate/confine"
)

// wrapLaunch puts the Linux mechanism c around the program at path:
// bubblewrap's arguments (with the seccomp filter that refuses Unix
// sockets when noUnix) or the re-run of this program that applies the
// Landlock plan. It gives the refusal text when the process must not run.
func wrapLaunch(l *launch, c Confinement, s confine.Sandbox, path string, argv []string, dir string, noUnix bool) string {
	switch c.Mechanism {
	case Bubblewrap:
		l.path = c.Bwrap
		l.argv = append([]string{"bwrap"}, s.BwrapArgs(dir)...)
		if noUnix {
			raw, err := socketFilter(false, true)
			if err != nil {
				return fmt.Sprintf("bash: %s: not run: Unix sockets cannot be refused here (%v); allow net and secret for this step to run it without the filter\n", argv[0], err)
			}
			l.plan = filterBytes(raw)
			// before the final "--"
			l.argv = append(l.argv[:len(l.argv)-1], "--seccomp", fmt.Sprint(planFD), "--")
		}
		l.argv = append(l.argv, path)
		l.argv = append(l.argv, argv[1:]...)
	case Landlock:
		plan := s.Landlock(readDirNoLinks)
		b, err := json.Marshal(plan)
		if err != nil {
			return fmt.Sprintf("bash: %s: not run: the Landlock plan: %v\n", argv[0], err)
		}
		l.path = c.Self
		l.argv = append([]string{c.Self, ConfineArg, path}, argv...)
		l.plan = b
	}
	return ""
}
