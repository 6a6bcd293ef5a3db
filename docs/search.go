package docs

import "fmt"

// Scope is how a search answers (search_scope_answers): several files when
// there is more than one root or a directory root — then 20 matches a file,
// pages of 20 files, and the skip asked; else one file, 200 matches, and no
// skip (a line range continues it).
type Scope struct {
	Several bool
	PerFile int // matches shown per file
	Page    int // files shown per page
	Skip    int // files skipped before the page
}

// Search limits of S8.9.
const (
	SeveralPerFile = 20
	SeveralPage    = 20
	OneFileMatches = 200
)

// SearchScope decides a search's scope.
func SearchScope(roots int, dirRoot bool, skip int) Scope {
	if roots > 1 || dirRoot {
		return Scope{Several: true, PerFile: SeveralPerFile, Page: SeveralPage, Skip: max(skip, 0)}
	}
	return Scope{PerFile: OneFileMatches, Page: 1}
}

// Window is the page of a list of Total items that skip and page pick
// (page_is_window): items [From, To), the count after it (next_is_more),
// and, for a skip past the end, Past with the skip asked (past_is_beyond).
type Window struct {
	From, To, Total int
	Past            bool
	Skip            int
}

// More is how many items follow the page.
func (w Window) More() int { return w.Total - w.To }

// PageWindow picks a page.
func PageWindow(total, skip, page int) Window {
	skip = max(skip, 0)
	if skip >= total {
		return Window{From: total, To: total, Total: total, Past: skip > 0, Skip: skip}
	}
	return Window{From: skip, To: min(total, skip+page), Total: total, Skip: skip}
}

// pageNotice says where a page is in its list and how to get the next one
// (continuation_progresses: the next page starts right after this one);
// one names one item ("path").
func pageNotice(w Window, one, call string) string {
	noun := Plural(2, one)
	switch {
	case w.Past:
		is := "are"
		if w.Total == 1 {
			is = "is"
		}
		return fmt.Sprintf("[skip=%d is past the end: there %s %s]", w.Skip, is, Count(w.Total, one))
	case w.More() > 0:
		return fmt.Sprintf("[%s %d-%d of %d shown; %d more: %s with skip=%d for the next]", noun, w.From+1, w.To, w.Total, w.More(), call, w.To)
	case w.From > 0:
		return fmt.Sprintf("[%s %d-%d of %d shown; that is the last page]", noun, w.From+1, w.To, w.Total)
	}
	return ""
}
