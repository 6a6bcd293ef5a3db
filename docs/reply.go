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
	var landed, not, why, unconfirmed []string
	failed := -1 // the first failure
	for i, o := range res.Outcomes {
		switch o.Fate {
		case Landed:
			landed = append(landed, landedAs[i])
		case Unconfirmed:
			unconfirmed = append(unconfirmed, names[i])
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
	case len(unconfirmed) > 0:
		var parts []string
		if len(landed) > 0 {
			parts = append(parts, "Applied to "+strings.Join(landed, ", "))
		}
		parts = append(parts, "not confirmed yet in "+strings.Join(unconfirmed, ", "))
		if len(not) > 0 {
			parts = append(parts, "NOT applied to "+strings.Join(not, ", "))
		}
		b.WriteString(strings.Join(parts, "; "))
		if failed < 0 {
			b.WriteString(".")
		}
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
	cause := failed // what stopped the edit: the first failure, else the first unconfirmed
	for i, o := range res.Outcomes {
		if cause < 0 && o.Fate == Unconfirmed {
			cause = i
		}
	}
	var restored, untried []string
	for i, o := range res.Outcomes {
		switch {
		case o.Fate == Restored:
			restored = append(restored, names[i])
		case o.Fate == Untried && cause >= 0:
			untried = append(untried, names[i])
		case o.Fate == Landed && o.Err != nil && cause >= 0 && res.Outcomes[cause].Fate == Unconfirmed:
			fmt.Fprintf(&b, "\n%s landed, and %s is not confirmed yet; %s was not restored to its previous bytes (%v): it holds the edit.", names[i], names[cause], names[i], o.Err)
		case o.Fate == Landed && o.Err != nil && cause >= 0:
			fmt.Fprintf(&b, "\n%s landed before %s failed, and restoring its previous bytes failed (%v): it holds the edit.", names[i], names[cause], o.Err)
		}
	}
	for i, o := range res.Outcomes {
		if o.Fate == Unconfirmed {
			fmt.Fprintf(&b, "\n%s: the editor took the edit, and it is not confirmed yet (%v): it may still land. Read %s again before editing it again.", names[i], o.Err, names[i])
		}
	}
	if len(restored) > 0 {
		fmt.Fprintf(&b, "\n%s had landed and %s restored to the previous bytes.", strings.Join(restored, ", "), isAre(len(restored)))
	}
	if len(untried) > 0 {
		if cause == failed {
			fmt.Fprintf(&b, "\n%s not tried: %s failed first.", strings.Join(untried, ", "), names[cause])
		} else {
			fmt.Fprintf(&b, "\n%s not tried: %s is not confirmed first.", strings.Join(untried, ", "), names[cause])
		}
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
	if failed >= 0 && len(landed) == 0 && len(unconfirmed) == 0 {
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
