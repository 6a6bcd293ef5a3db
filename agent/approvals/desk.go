package approvals

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/eukhe/eukhe/gate"
	"github.com/eukhe/eukhe/protocol"
)

// pending is a question shown or queued: its source and its params.
type pending struct {
	src *source
	q   protocol.ApproveParams
}

// desk is the terminal's queue of questions, as a pure state machine:
// each event gives what the terminal prints, and a line typed the
// question it answers (if any) and how. run carries them out.
type desk struct {
	queue []pending
	// held: the question on screen went away unanswered here; the next is
	// shown at the next line read, which answers nothing.
	held bool
}

// show is the prompt of the oldest question ("" when none waits).
func (d *desk) show() string {
	if len(d.queue) > 0 {
		return questionPrompt(d.queue[0].q)
	}
	return ""
}

// hold: the question on screen is gone; when another waits, it is shown
// at the next line, which answers nothing.
func (d *desk) hold() string {
	if d.held = len(d.queue) > 0; d.held {
		return "Another question waits: press Enter to see it. "
	}
	return ""
}

// message is a line from src: a question (queued; shown when it is the
// only one) or a question settled elsewhere (dropped).
func (d *desk) message(src *source, m protocol.TerminalLine) string {
	switch m.Method {
	case protocol.MethodApprove:
		var q protocol.ApproveParams
		if json.Unmarshal(m.Params, &q) != nil {
			return ""
		}
		d.queue = append(d.queue, pending{src, q})
		if len(d.queue) == 1 {
			d.held = false
			return d.show()
		}
	case protocol.MethodApprovalSettled:
		var s protocol.ApprovalSettledParams
		json.Unmarshal(m.Params, &s)
		return d.settled(src, s)
	}
	return ""
}

// settled drops src's question s settled elsewhere, saying how.
func (d *desk) settled(src *source, s protocol.ApprovalSettledParams) string {
	for i, p := range d.queue {
		if p.src != src || p.q.ID != s.ID {
			continue
		}
		d.queue = append(d.queue[:i], d.queue[i+1:]...)
		how := "answered elsewhere"
		switch {
		case s.Reason != "":
			how = s.Reason + ": it was denied"
		case s.Answer != "":
			how = "settled elsewhere: " + s.Answer
		}
		out := fmt.Sprintf("\n(dropped: %s — %s)\n", gate.VisibleText(p.q.Text), how)
		if i == 0 {
			out += d.hold()
		}
		return out
	}
	return ""
}

// gone drops every question of src, which went away.
func (d *desk) gone(src *source) string {
	out := fmt.Sprintf("%s went away.\n", src.name)
	// Whether the question on screen was src's is seen before the queue
	// is filtered in place (after, its first place holds the next one).
	head := len(d.queue) > 0 && d.queue[0].src == src
	kept := d.queue[:0]
	for _, p := range d.queue {
		if p.src != src {
			kept = append(kept, p)
		}
	}
	d.queue = kept
	if head {
		out += d.hold()
	}
	return out
}

// line is a line typed: the question it answers (nil: none) and the
// answer (y or yes approves; anything else, Enter alone too, denies), or
// what to print instead. After an answer, the next prompt is d.show().
func (d *desk) line(line string) (p *pending, answer, out string) {
	if len(d.queue) == 0 {
		d.held = false
		return nil, "", ""
	}
	if d.held {
		d.held = false
		return nil, "", d.show()
	}
	first := d.queue[0]
	d.queue = d.queue[1:]
	answer = protocol.AnswerDeny
	if a := strings.ToLower(strings.TrimSpace(line)); a == "y" || a == "yes" {
		answer = protocol.AnswerApprove
	}
	return &first, answer, ""
}
