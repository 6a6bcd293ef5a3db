package shell

import (
	"fmt"

	"github.com/eukhe/eukhe/gate/confine"
	"golang.org/x/sys/unix"
)

// ruleObject is a rule of a Landlock plan and its object, open (O_PATH)
// on fd.
type ruleObject struct {
	rule confine.LandlockRule
	fd   int
}

// ruleObjectSet are a plan's rules as opened by openRuleObjects.
type ruleObjectSet []ruleObject

// openRuleObjects opens the object of each of plan's rules once, with no
// link on the way (RESOLVE_NO_SYMLINKS: the plan's paths were walked from
// the root without links, so a link on the way was put there since), and
// keeps it only when it is still of the kind the plan saw (a directory
// for a directory's rule). A rule whose path is missing, holds a link, or
// changed kind is left out: what it would have allowed is denied. Landlock
// takes these objects and the supervisor judges by the same ones.
func openRuleObjects(plan confine.LandlockPlan) (ruleObjectSet, error) {
	var set ruleObjectSet
	how := unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC | unix.O_NOFOLLOW, Resolve: unix.RESOLVE_NO_SYMLINKS}
	for _, r := range plan.Rules {
		fd, err := unix.Openat2(unix.AT_FDCWD, r.Path, &how)
		switch {
		case err == unix.EINTR || err == unix.EAGAIN:
			set.close()
			return nil, fmt.Errorf("%s: %v", r.Path, err)
		case err == unix.EMFILE || err == unix.ENFILE || err == unix.ENOMEM:
			set.close()
			return nil, fmt.Errorf("%d rules: %v", len(plan.Rules), err)
		case err != nil:
			continue // missing, a link on the way, or not to be opened
		}
		var st unix.Stat_t
		if unix.Fstat(fd, &st) != nil || r.Dir != (st.Mode&unix.S_IFMT == unix.S_IFDIR) || st.Mode&unix.S_IFMT == unix.S_IFLNK {
			unix.Close(fd)
			continue
		}
		set = append(set, ruleObject{rule: r, fd: fd})
	}
	return set, nil
}

// writes are the descriptors of the write rules, in the plan's order.
func (s ruleObjectSet) writes() []int {
	var fds []int
	for _, o := range s {
		if o.rule.Write {
			fds = append(fds, o.fd)
		}
	}
	return fds
}

// close closes every object; a second close does nothing.
func (s *ruleObjectSet) close() {
	for _, o := range *s {
		unix.Close(o.fd)
	}
	*s = nil
}
