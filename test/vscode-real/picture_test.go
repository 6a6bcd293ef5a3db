package vscodereal

import (
	"bytes"
	"fmt"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// README's picture of the review (guide/review.png) is taken by the
// scenario's step "an edit of a Go file shows each hunk with its lenses"
// through the driver's shot with a clip of the active editor group. Its
// caption promises the file's "Keep all" and "Undo all" and each hunk's
// Keep and Undo: the first picture cut them off on the left, with the
// line numbers and the first columns of each line (the browser had
// scrolled a box of the editor to show its focused textarea).

// box is a rectangle in the page, in CSS pixels.
type box struct {
	X, Y, Width, Height float64
	Text                string
}

func (b box) right() float64  { return b.X + b.Width }
func (b box) bottom() float64 { return b.Y + b.Height }

// shotLayout is what the driver's shot with a clip gives: the clip, and
// where the editor's parts lay in the page when the picture was taken.
type shotLayout struct {
	Clip       box
	Editor     box
	Margin     box
	ScrollLeft float64
	Lenses     []box
	Lines      []box
	Moved      []string
}

// problems says what of the editor the clip leaves out: its line
// numbers, a lens, a code line's start or end, or a horizontal scroll.
func (l shotLayout) problems() []string {
	const slack = 1
	var out []string
	in := func(b box) bool { return b.X >= l.Clip.X-slack && b.right() <= l.Clip.right()+slack }
	shown := func(b box) bool { return b.Y < l.Clip.bottom() && b.bottom() > l.Clip.Y }
	if !in(l.Margin) {
		out = append(out, fmt.Sprintf("the line numbers (x %.0f to %.0f) are not inside the clip (x %.0f to %.0f)", l.Margin.X, l.Margin.right(), l.Clip.X, l.Clip.right()))
	}
	if l.ScrollLeft > 0 {
		out = append(out, fmt.Sprintf("the editor is scrolled %.0f pixels to the right", l.ScrollLeft))
	}
	keepAll := false
	for _, b := range l.Lenses {
		keepAll = keepAll || strings.Contains(b.Text, "Keep all") && strings.Contains(b.Text, "Undo all")
		if shown(b) && !in(b) {
			out = append(out, fmt.Sprintf("the lens %q (x %.0f to %.0f) is cut by the clip (x %.0f to %.0f)", b.Text, b.X, b.right(), l.Clip.X, l.Clip.right()))
		}
	}
	if !keepAll {
		out = append(out, fmt.Sprintf("no lens reads Keep all and Undo all: %v", l.Lenses))
	}
	for _, b := range l.Lines {
		if shown(b) && (!in(b) || b.X < l.Margin.right()-slack) {
			out = append(out, fmt.Sprintf("a code line (x %.0f to %.0f) is cut by the clip (x %.0f to %.0f) or hidden under the line numbers (to x %.0f)", b.X, b.right(), l.Clip.X, l.Clip.right(), l.Margin.right()))
		}
	}
	return out
}

// pictureProblems says what is wrong with the PNG b: not a PNG, not the
// clip's size (when width is given), too small to show the review, or
// text cut at its left edge (a dark pixel in its first columns below the
// tabs, where the line numbers' margin is blank).
func pictureProblems(b []byte, width, height float64) []string {
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return []string{"not a PNG: " + err.Error()}
	}
	var out []string
	r := img.Bounds()
	if width > 0 && (math.Abs(float64(r.Dx())-width) > 1 || math.Abs(float64(r.Dy())-height) > 1) {
		out = append(out, fmt.Sprintf("the picture is %dx%d, the clip %.0fx%.0f", r.Dx(), r.Dy(), width, height))
	}
	if r.Dx() < 600 || r.Dy() < 300 {
		out = append(out, fmt.Sprintf("the picture is %dx%d, too small to show the review", r.Dx(), r.Dy()))
	}
	const edge, below = 6, 40
	dark := 0
	for y := r.Min.Y + below; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Min.X+edge && x < r.Max.X; x++ {
			cr, cg, cb, _ := img.At(x, y).RGBA()
			if 0.299*float64(cr>>8)+0.587*float64(cg>>8)+0.114*float64(cb>>8) < 150 {
				dark++
			}
		}
	}
	if dark > 0 {
		out = append(out, fmt.Sprintf("%d dark pixels in the picture's first %d columns: text is cut at its left edge", dark, edge))
	}
	return out
}

// The picture README shows is whole: it is checked without a browser, so
// a picture cut on the left fails every run of the tests, not only the
// real VS Code's.
func TestREADMEPictureIsWhole(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "guide", "review.png"))
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pictureProblems(b, 0, 0) {
		t.Errorf("guide/review.png: %s (make it again: EUKHE_README_PICTURE=$PWD/guide/review.png with the real VS Code test, CONTRIBUTING.md)", p)
	}
}
