package docs

import (
	"fmt"
	"strings"
)

// Reply is the text of a commit (edit_reports_what_landed): which files
// landed, with their new names (path#TAG), and which did not, and why. It is
// an error only when nothing landed. It never says nothing was written when
// a file landed.
func Reply(names []string, landedAs []string, res Committed) (text string, isErr bool) {
	var b strings.Builder
	if res.Conflict != nil {
		fmt.Fprintf(&b, "NOT applied to %s: %s. Nothing was written.", strings.Join(names, ", "), res.Conflict.Why)
		return b.String(), true
	}
	var landed, not, why []string
	failed := -1 // the first failure
	for i, o := range res.Outcomes {
		switch o.Fate {
		case Landed:
			landed = append(landed, landedAs[i])
		case Failed:
			if failed < 0 {
				failed = i
			}
			why = append(why, fmt.Sprintf("writing %s failed: %v", names[i], o.Err))
			not = append(not, names[i])
		default:
			not = append(not, names[i])
		}
	}
	switch {
	case len(not) == 0:
		fmt.Fprintf(&b, "Applied to %s.", strings.Join(landed, ", "))
	case len(landed) == 0:
		fmt.Fprintf(&b, "NOT applied to %s", strings.Join(not, ", "))
	default:
		fmt.Fprintf(&b, "Applied to %s; NOT applied to %s", strings.Join(landed, ", "), strings.Join(not, ", "))
	}
	if failed >= 0 {
		// The disk stops at its first failure; an editor can fail on
		// several documents of one edit (each its own reason).
		fmt.Fprintf(&b, ": %s.", strings.Join(why, "; "))
	}
	var restored, untried []string
	for i, o := range res.Outcomes {
		switch {
		case o.Fate == Restored:
			restored = append(restored, names[i])
		case o.Fate == Untried && failed >= 0:
			untried = append(untried, names[i])
		case o.Fate == Landed && o.Err != nil:
			fmt.Fprintf(&b, "\n%s landed before %s failed, and restoring its previous bytes failed (%v): it holds the edit.", names[i], names[failed], o.Err)
		}
	}
	if len(restored) > 0 {
		fmt.Fprintf(&b, "\n%s had landed and %s restored to the previous bytes.", strings.Join(restored, ", "), isAre(len(restored)))
	}
	if len(untried) > 0 {
		fmt.Fprintf(&b, "\n%s not tried: %s failed first.", strings.Join(untried, ", "), names[failed])
	}
	var rebased []string
	for i, o := range res.Outcomes {
		if o.Fate == Landed && o.Rebased {
			rebased = append(rebased, names[i])
		}
	}
	if len(rebased) > 0 {
		fmt.Fprintf(&b, "\nRebased: %s changed after the edit was made, only on lines the edit does not touch; the edit was applied over those changes.", strings.Join(rebased, ", "))
	}
	if failed >= 0 && len(landed) == 0 {
		b.WriteString("\nNothing of this edit is on disk; fix the cause and retry the same edit.")
	}
	for i, o := range res.Outcomes {
		if o.Fate == Landed && o.Warning != "" {
			fmt.Fprintf(&b, "\nwarning: %s: %s", names[i], o.Warning)
		}
	}
	return b.String(), len(landed) == 0
}

func isAre(n int) string {
	if n == 1 {
		return "was"
	}
	return "were"
}
