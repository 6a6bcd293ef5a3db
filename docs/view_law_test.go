package docs_test

// S8.6/S8.10, the read view: rows_lines_are_read_rows,
// rows_raw_lines_are_pieces, rows_gate_refuses, rows_view_shows,
// rows_gap_marks_every_jump, tag_names_shown_text; the output bound (S8.8:
// only rows that reached the caller are seen); selectors.

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/eukhe/eukhe/docs"
	"pgregory.net/rapid"
)

const noBound = 1 << 30

var (
	markerRe  = regexp.MustCompile(`^\[\.\.\. .+ \.\.\.\]$`)
	headerRe  = regexp.MustCompile(`^\[(.+)#([0-9a-f]{8})\]$`)
	cutNoteRe = regexp.MustCompile(`^\[cut: lines ([0-9,-]+) not shown, over the output bound of [0-9]+ bytes; read (.+):([0-9,-]+) to see them\]$`)
)

// rows_lines_are_read_rows: the lines a read numbers are, in order and
// length, the model's read rows.
func TestLaw_rows_lines_are_read_rows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBytes(t, "file")
		_, lines := refScan(b)
		v := docs.Render(docs.ViewRequest{Path: "f", P: docs.Scan(b), Tag: "0badf00d", Bound: noBound})
		nums, texts := rowsOf(v.Text)
		if len(nums) != len(lines) {
			t.Fatalf("%d rows, the file has %d lines: %s", len(nums), len(lines), short(v.Text))
		}
		for i, l := range lines {
			if nums[i] != i+1 || texts[i] != l.text {
				t.Fatalf("row %d is %d:%s, want %d:%s", i, nums[i], short(texts[i]), i+1, short(l.text))
			}
		}
		if got := lineSetOf(&v.Shown); len(got) != len(lines) || (len(got) > 0 && got[len(got)-1] != len(lines)) {
			t.Fatalf("seen %v, want 1..%d", got, len(lines))
		}
	})
}

// rows_raw_lines_are_pieces: a raw read counts every piece of the LF text:
// its body is the file with the BOM dropped and every ending an LF (and
// an LF after an open last line), each row made valid UTF-8; its rows are
// not anchors, so none is seen.
func TestLaw_rows_raw_lines_are_pieces(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBytes(t, "file")
		_, lines := refScan(b)
		v := docs.Render(docs.ViewRequest{Path: "f", P: docs.Scan(b), Raw: true, Bound: noBound})
		header, body, _ := strings.Cut(v.Text, "\n")
		if !strings.HasPrefix(header, "[f raw") {
			t.Fatalf("raw header %q", header)
		}
		var want strings.Builder
		for _, l := range lines {
			want.WriteString(strings.ToValidUTF8(l.text, "\uFFFD") + "\n")
		}
		if len(lines) == 0 {
			want.WriteString("[empty file]\n")
		}
		if body != want.String() {
			t.Fatalf("raw body %s, want %s", short(body), short(want.String()))
		}
		if utf8.Valid(b) && len(lines) > 0 {
			lf := strings.ReplaceAll(string(bytes.TrimPrefix(b, bom)), "\r\n", "\n")
			if pieces := strings.Split(strings.TrimSuffix(lf, "\n"), "\n"); len(pieces) != strings.Count(body, "\n") {
				t.Fatalf("raw read has %d rows, the LF text %d pieces", strings.Count(body, "\n"), len(pieces))
			}
		}
		if v.Shown.Len() != 0 {
			t.Fatalf("a raw read marked %d lines seen", v.Shown.Len())
		}
	})
}

// genGated draws bytes that the read gate has something to say about:
// UTF-16/32 BOMs, stray 8-bit bytes, NULs, or plain text.
func genGated(t *rapid.T) []byte {
	prefixes := [][]byte{nil, nil, {0xFF, 0xFE}, {0xFE, 0xFF}, {0xFF, 0xFE, 0, 0}, {0, 0, 0xFE, 0xFF}, bom}
	b := slices.Clone(rapid.SampledFrom(prefixes).Draw(t, "prefix"))
	return append(b, genBytes(t, "body")...)
}

// rows_gate_refuses: a read that is not raw refuses a non-UTF-8 file
// (naming its path and encoding), then a binary one; a raw read goes on.
func TestLaw_rows_gate_refuses(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		b := genGated(t)
		gate := docs.ReadGate("d/f.txt", b)
		switch {
		case !utf8.Valid(b):
			if !strings.Contains(gate, "d/f.txt") || !strings.Contains(gate, "not UTF-8") {
				t.Fatalf("non-UTF-8 %s: gate %q", short(b), gate)
			}
			for pre, name := range map[string]string{"\xFF\xFE\x00\x00": "UTF-32 LE", "\x00\x00\xFE\xFF": "UTF-32 BE", "\xFE\xFF": "UTF-16 BE"} {
				if bytes.HasPrefix(b, []byte(pre)) && !strings.Contains(gate, name) {
					t.Fatalf("%s: gate %q does not name %s", short(b), gate, name)
				}
			}
			if bytes.HasPrefix(b, []byte{0xFF, 0xFE}) && !strings.Contains(gate, "UTF-") {
				t.Fatalf("%s: gate %q does not name the UTF-16/32 encoding", short(b), gate)
			}
			// A NUL byte that no UTF-16/32 BOM explains: binary, as grep
			// counts it, never an 8-bit encoding to convert.
			if bytes.IndexByte(b, 0) >= 0 && !strings.HasPrefix(docs.Encoding(b), "UTF-") &&
				(!strings.Contains(gate, "binary") || strings.Contains(gate, "iconv")) {
				t.Fatalf("binary non-UTF-8 %s: gate %q", short(b), gate)
			}
		case bytes.IndexByte(b, 0) >= 0:
			if !strings.Contains(gate, "binary") || !strings.Contains(gate, "d/f.txt") {
				t.Fatalf("binary %s: gate %q", short(b), gate)
			}
		default:
			if gate != "" {
				t.Fatalf("UTF-8 text %s refused: %q", short(b), gate)
			}
		}

		// Through the read tool: refused, no tag, nothing seen; raw goes on.
		ws := newWorkspace(t, parent)
		ws.put(t, "f.txt", b)
		r := ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt"})
		if r.Failed != (gate != "") {
			t.Fatalf("read Failed=%v, gate %q: %s", r.Failed, gate, short(r.Text))
		}
		if gate != "" {
			if headerRe.MatchString(viewLines(r.Text)[0]) || ws.tools.Session.Knows(ws.path("f.txt"), docs.DigestOf(b)) != nil {
				t.Fatalf("a refused read tagged or recorded the file: %s", short(r.Text))
			}
			if n, _ := rowsOf(r.Text); len(n) != 0 {
				t.Fatalf("a refused read shows rows: %s", short(r.Text))
			}
		}
		// Raw goes on, but for a binary file (a NUL byte, no UTF-16/32
		// BOM), whose bytes it never sends as text.
		binary := docs.BinaryNote("f.txt", b) != ""
		if raw := ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt", Raw: true}); raw.Failed != binary {
			t.Fatalf("raw read Failed=%v on a file binary=%v: %s", raw.Failed, binary, short(raw.Text))
		} else if binary && (!strings.Contains(raw.Text, "binary file") || strings.ContainsRune(raw.Text, 0)) {
			t.Fatalf("raw read of a binary file: %s", short(raw.Text))
		}
	})
}

// genSpans draws ranges within 1..n in any order, overlapping or not.
func genSpans(t *rapid.T, n int) []docs.Range {
	k := rapid.IntRange(1, 6).Draw(t, "spans")
	rs := make([]docs.Range, k)
	for i := range rs {
		a := rapid.IntRange(1, n).Draw(t, fmt.Sprintf("span%d/from", i))
		rs[i] = docs.Range{From: a, To: rapid.IntRange(a, min(n, a+4)).Draw(t, fmt.Sprintf("span%d/to", i))}
	}
	return rs
}

// viewTemplate is what a read must print, line by line; marker stands for
// a gap marker, tail for the "N lines in all" notice.
const (
	marker = "\x00marker"
	tail   = "\x00tail"
)

func viewTemplate(header string, notices []string, lines []refLine, spans []docs.Range, raw bool) []string {
	out := []string{header}
	out = append(out, notices...)
	if len(lines) == 0 {
		return append(out, "[empty file]")
	}
	for i, s := range spans {
		if i > 0 && (raw || s.From != spans[i-1].To+1) {
			out = append(out, marker)
		}
		for l := s.From; l <= s.To; l++ {
			if raw {
				out = append(out, strings.ToValidUTF8(lines[l-1].text, "\uFFFD"))
			} else {
				out = append(out, strconv.Itoa(l)+":"+lines[l-1].text)
			}
		}
	}
	if spans[len(spans)-1].To < len(lines) {
		out = append(out, tail)
	}
	return out
}

func matchTemplate(t *rapid.T, text string, want []string, path string, n, lastTo int) {
	got := viewLines(text)
	if len(got) != len(want) {
		t.Fatalf("view has %d lines, want %d:\n%s\nwant %q", len(got), len(want), short(text), want)
	}
	tailRe := regexp.MustCompile(`^\[` + strconv.Itoa(n) + ` lines in all; read ` + regexp.QuoteMeta(path) + `:` + strconv.Itoa(lastTo+1) + `- for the rest\]$`)
	for i := range got {
		switch want[i] {
		case marker:
			if !markerRe.MatchString(got[i]) {
				t.Fatalf("view line %d is %s, want a gap marker (view %s)", i+1, short(got[i]), short(text))
			}
		case tail:
			if !tailRe.MatchString(got[i]) {
				t.Fatalf("view line %d is %s, want the rest notice", i+1, short(got[i]))
			}
		default:
			if got[i] != want[i] {
				t.Fatalf("view line %d is %s, want %s", i+1, short(got[i]), short(want[i]))
			}
		}
	}
}

// rows_view_shows: a read shows the lines it counts, the spans with their
// gap markers, the notices and the tag of the read rule; what it shows is
// what is seen.
func TestLaw_rows_view_shows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genBytes(t, "file")
		_, lines := refScan(b)
		tag := rapid.SampledFrom([]string{"", "0badf00d", "7f3a91c2"}).Draw(t, "tag")
		notices := rapid.SliceOfN(rapid.SampledFrom([]string{"[note one]", "[f has 3 lines: 9- past the end]", "[another: 1:x]"}), 0, 2).Draw(t, "notices")
		var spans []docs.Range
		if len(lines) > 0 && rapid.Bool().Draw(t, "ranged") {
			spans = genSpans(t, len(lines))
		}
		v := docs.Render(docs.ViewRequest{Path: "d/f", P: docs.Scan(b), Tag: tag, Ranges: spans, Notices: notices, Bound: noBound})
		header := "[d/f]"
		if tag != "" {
			header = "[d/f#" + tag + "]"
		}
		show := spans
		if show == nil && len(lines) > 0 {
			show = []docs.Range{{From: 1, To: len(lines)}}
		}
		want := viewTemplate(header, notices, lines, show, false)
		lastTo := 0
		if len(show) > 0 {
			lastTo = show[len(show)-1].To
		}
		matchTemplate(t, v.Text, want, "d/f", len(lines), lastTo)
		// Every printed line that is not a row starts with '[' and cannot
		// be taken for one.
		for _, l := range viewLines(v.Text) {
			if !rowRe.MatchString(l) && !strings.HasPrefix(l, "[") {
				t.Fatalf("view line %s is neither a row nor a notice", short(l))
			}
		}
		var seen []int
		for _, s := range show {
			for l := s.From; l <= s.To; l++ {
				seen = append(seen, l)
			}
		}
		slices.Sort(seen)
		if got := lineSetOf(&v.Shown); !slices.Equal(got, slices.Compact(seen)) {
			t.Fatalf("seen %v, shown %v", got, slices.Compact(seen))
		}
	})
}

// rows_gap_marks_every_jump: the first span has no gap marker; every later
// span has one iff it does not start right after the span before (later,
// earlier or overlapping; raw: every later span).
func TestLaw_rows_gap_marks_every_jump(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genFile(t, "file", rapid.Bool().Draw(t, "utf8"), 20)
		_, lines := refScan(b)
		if len(lines) == 0 {
			b = append(b, "one line"...)
			_, lines = refScan(b)
		}
		spans := genSpans(t, len(lines))
		raw := rapid.Bool().Draw(t, "raw")
		v := docs.Render(docs.ViewRequest{Path: "f", P: docs.Scan(b), Tag: "0badf00d", Ranges: spans, Raw: raw, Bound: noBound})
		header := "[f#0badf00d]"
		if raw {
			header = viewLines(v.Text)[0]
			if !strings.HasPrefix(header, "[f raw") {
				t.Fatalf("raw header %q", header)
			}
		}
		matchTemplate(t, v.Text, viewTemplate(header, nil, lines, spans, raw), "f", len(lines), spans[len(spans)-1].To)
	})
}

// tag_names_shown_text: the tag of a read names the bytes its rows come
// from, and the session keeps that version.
func TestLaw_tag_names_shown_text(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		for round := range rapid.IntRange(1, 3).Draw(t, "rounds") {
			b := genFile(t, fmt.Sprintf("file%d", round), true, 10)
			ws.put(t, "f.txt", b)
			r := ws.tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt"})
			if r.Failed {
				t.Fatalf("read failed: %s", r.Text)
			}
			m := headerRe.FindStringSubmatch(viewLines(r.Text)[0])
			if m == nil || m[1] != "f.txt" {
				t.Fatalf("header %q", viewLines(r.Text)[0])
			}
			if m[2] != tagOf(b) {
				t.Fatalf("tag %s, the bytes' tag %s", m[2], tagOf(b))
			}
			_, lines := refScan(b)
			_, texts := rowsOf(r.Text)
			if len(texts) != len(lines) {
				t.Fatalf("%d rows, %d lines", len(texts), len(lines))
			}
			for i := range lines {
				if texts[i] != lines[i].text {
					t.Fatalf("row %d %s, line %s", i+1, short(texts[i]), short(lines[i].text))
				}
			}
			tag, _ := docs.ParseTag(m[2])
			v := ws.tools.Session.ByTag(ws.path("f.txt"), tag)
			if v == nil || v.Digest != docs.DigestOf(b) {
				t.Fatalf("the session has no version %s of the bytes read", m[2])
			}
		}
	})
}

// The output bound: only rows that reached the caller count as seen; the
// head and the tail of the result are shown, the middle is cut, and the
// cut notice names exactly the cut lines.
func TestReadBound_only_shown_rows_are_seen(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := genFile(t, "file", true, 40)
		_, lines := refScan(b)
		if len(lines) == 0 {
			return
		}
		var ranges []docs.Range
		if rapid.Bool().Draw(t, "ranged") {
			ranges, _ = docs.MergeRanges(genSpans(t, len(lines)), len(lines))
		}
		bound := rapid.IntRange(1, 600).Draw(t, "bound")
		v := docs.Render(docs.ViewRequest{Path: "f", P: docs.Scan(b), Tag: "0badf00d", Ranges: ranges, Bound: bound})
		show := ranges
		if show == nil {
			show = []docs.Range{{From: 1, To: len(lines)}}
		}
		var all []int
		total := 0
		for _, s := range show {
			for l := s.From; l <= s.To; l++ {
				all = append(all, l)
				total += len(strconv.Itoa(l)) + 1 + len(lines[l-1].text) + 1
			}
		}
		nums, texts := rowsOf(v.Text)
		for i, n := range nums {
			if n < 1 || n > len(lines) || texts[i] != lines[n-1].text {
				t.Fatalf("row %d:%s is not line %d of the file", n, short(texts[i]), n)
			}
		}
		// Shown rows: a head and a tail of all the rows.
		h := 0
		for h < len(nums) && h < len(all) && nums[h] == all[h] {
			h++
		}
		tl := len(nums) - h
		if !slices.Equal(nums[h:], all[len(all)-tl:]) {
			t.Fatalf("rows shown %v are not a head and a tail of %v", nums, all)
		}
		cut := all[h : len(all)-tl]
		shownBytes := 0
		for i, n := range nums {
			shownBytes += len(strconv.Itoa(n)) + 1 + len(texts[i]) + 1
		}
		if total <= bound && len(cut) > 0 {
			t.Fatalf("rows of %d bytes fit the bound %d, yet %v were cut", total, bound, cut)
		}
		if total > bound && shownBytes > bound {
			t.Fatalf("shown rows take %d bytes, over the bound %d", shownBytes, bound)
		}
		// Seen: exactly the rows shown.
		if got := lineSetOf(&v.Shown); !slices.Equal(got, nums) {
			t.Fatalf("seen %v, rows shown %v", got, nums)
		}
		// The cut notice names exactly the cut lines.
		var notes [][]string
		for _, l := range viewLines(v.Text) {
			if m := cutNoteRe.FindStringSubmatch(l); m != nil {
				notes = append(notes, m)
			}
		}
		if len(cut) == 0 {
			if len(notes) != 0 {
				t.Fatalf("nothing cut, yet a cut notice: %q", notes[0][0])
			}
			return
		}
		if len(notes) != 1 {
			t.Fatalf("%d lines cut, %d cut notices: %s", len(cut), len(notes), short(v.Text))
		}
		named := selectorLines(t, notes[0][1])
		if !slices.Equal(named, cut) || notes[0][3] != notes[0][1] || notes[0][2] != "f" {
			t.Fatalf("cut notice %q names %v, cut %v", notes[0][0], named, cut)
		}
	})
}

func selectorLines(t *rapid.T, sel string) []int {
	rs, err := docs.ParseSelector(sel)
	if err != nil {
		t.Fatalf("selector %q: %v", sel, err)
	}
	var out []int
	for _, r := range rs {
		for l := r.From; l <= r.To; l++ {
			out = append(out, l)
		}
	}
	return out
}

// Through the read tool: the session's seen lines of the version read are
// exactly the rows that reached the caller.
func TestReadBound_tool_records_only_shown_rows(t *testing.T) {
	parent := parentDir(t)
	rapid.Check(t, func(t *rapid.T) {
		ws := newWorkspace(t, parent)
		ws.tools.Bound = rapid.IntRange(1, 400).Draw(t, "bound")
		b := genFile(t, "file", true, 40)
		ws.put(t, "f.txt", b)
		arg := "f.txt"
		if _, lines := refScan(b); len(lines) > 0 && rapid.Bool().Draw(t, "ranged") {
			var parts []string
			for _, s := range genSpans(t, len(lines)) {
				parts = append(parts, fmt.Sprintf("%d-%d", s.From, s.To))
			}
			arg += ":" + strings.Join(parts, ",")
		}
		r := ws.tools.Read(context.Background(), docs.ReadArgs{Path: arg})
		if r.Failed {
			t.Fatalf("read %s failed: %s", arg, r.Text)
		}
		v := ws.tools.Session.Knows(ws.path("f.txt"), docs.DigestOf(b))
		if v == nil {
			t.Fatalf("the read did not record the version")
		}
		nums, _ := rowsOf(r.Text)
		if got := lineSetOf(&v.Seen); !slices.Equal(got, nums) {
			t.Fatalf("seen %v, rows that reached the caller %v\n%s", got, nums, short(r.Text))
		}
	})
}

// Selectors: parsed back from their spelling; merged ranges are sorted,
// clamped, disjoint and not touching, and cover exactly the lines asked
// for that exist; ranges past the end are reported.
func TestSelector_parse_and_merge(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 30).Draw(t, "n")
		k := rapid.IntRange(1, 6).Draw(t, "k")
		var rs []docs.Range
		var parts []string
		for i := range k {
			a := rapid.IntRange(1, 35).Draw(t, fmt.Sprintf("from%d", i))
			switch rapid.IntRange(0, 2).Draw(t, fmt.Sprintf("form%d", i)) {
			case 0:
				rs = append(rs, docs.Range{From: a, To: a})
				parts = append(parts, strconv.Itoa(a))
			case 1:
				b := rapid.IntRange(a, 40).Draw(t, fmt.Sprintf("to%d", i))
				rs = append(rs, docs.Range{From: a, To: b})
				parts = append(parts, fmt.Sprintf("%d-%d", a, b))
			default:
				rs = append(rs, docs.Range{From: a, To: 0})
				parts = append(parts, fmt.Sprintf("%d-", a))
			}
		}
		sel := strings.Join(parts, ",")
		got, err := docs.ParseSelector(sel)
		if err != nil || !slices.Equal(got, rs) {
			t.Fatalf("ParseSelector(%q) = %v, %v; want %v", sel, got, err, rs)
		}
		merged, past := docs.MergeRanges(rs, n)
		want := map[int]bool{}
		var wantPast []docs.Range
		for _, r := range rs {
			if r.From > n {
				wantPast = append(wantPast, r)
				continue
			}
			to := r.To
			if to == 0 || to > n {
				to = n
			}
			for l := r.From; l <= to; l++ {
				want[l] = true
			}
		}
		if !slices.Equal(past, wantPast) {
			t.Fatalf("past %v, want %v", past, wantPast)
		}
		covered := map[int]bool{}
		for i, m := range merged {
			if m.From < 1 || m.To > n || m.From > m.To {
				t.Fatalf("merged range %v outside 1..%d", m, n)
			}
			if i > 0 && m.From <= merged[i-1].To+1 {
				t.Fatalf("merged ranges %v and %v overlap or touch", merged[i-1], m)
			}
			for l := m.From; l <= m.To; l++ {
				covered[l] = true
			}
		}
		if !maps.Equal(covered, want) {
			t.Fatalf("merged %v of %v in %d lines covers %v, want %v", merged, rs, n, slices.Sorted(maps.Keys(covered)), slices.Sorted(maps.Keys(want)))
		}
	})
}

// The seed's two examples, through the read tool: `:5-6,1-2` reads 1-2
// then 5-6; `:1-5,3-8` reads 1-8 as one range.
func TestSelector_examples(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 10; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	if err := os.WriteFile(filepath.Join(dir, "f.txt"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tools := &docs.Tools{Store: docs.NewDisk(), Session: docs.NewSession(), Root: dir}
	for _, c := range []struct {
		sel     string
		rows    []int
		markers int
	}{
		{"5-6,1-2", []int{1, 2, 5, 6}, 1},
		{"1-5,3-8", []int{1, 2, 3, 4, 5, 6, 7, 8}, 0},
	} {
		r := tools.Read(context.Background(), docs.ReadArgs{Path: "f.txt:" + c.sel})
		if r.Failed {
			t.Fatalf("%s: %s", c.sel, r.Text)
		}
		nums, _ := rowsOf(r.Text)
		markers := 0
		for _, l := range viewLines(r.Text) {
			if markerRe.MatchString(l) {
				markers++
			}
		}
		if !slices.Equal(nums, c.rows) || markers != c.markers {
			t.Errorf(":%s reads rows %v with %d gap markers, want %v with %d:\n%s", c.sel, nums, markers, c.rows, c.markers, r.Text)
		}
	}
}
