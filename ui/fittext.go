package ui

import (
	"strings"
	"sync"
	"unicode"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// flowText shows text that fits its width without Fyne measuring it
// again and again: wrapped into rows (newFlowText, as a widget.Label with
// TextWrapWord) or cut to one row with "…" (newFitLink, newFitLabel, as
// TextTruncateEllipsis). It finds the breaks from the advance of each
// character, measured once for the whole window. Fyne's word wrap measures
// every candidate prefix of every row anew, with a fresh shaper each time,
// and its ellipsis shapes the whole text at every refresh: about a
// millisecond a row or cell, so the results of a large run held the UI
// thread for 100–200 ms when they first showed (issue 27). Here a row
// costs one measurement when it is drawn.
//
// Rows break at spaces, and between Chinese characters except before
// closing and after opening punctuation; a word wider than the row breaks
// where it must. Text holds the text as set; shown shows the rows.
type flowText struct {
	widget.BaseWidget
	Text  string
	shown shownText
	fit   func(s string, avail float32, advance func(rune) float32) string
	width float32 // the width the rows were made for
	rows  string  // what shown shows
}

// shownText is the widget that draws the rows: a widget.Label or a
// widget.Hyperlink, with no wrapping or truncation of its own.
type shownText interface {
	fyne.CanvasObject
	SetText(string)
}

// newFlowText is a label whose text wraps at its width.
func newFlowText(s string) *flowText { return newFitted(s, widget.NewLabel(s), breakRows) }

// newFitLabel is a one-row label ending in "…" when its text is too wide.
func newFitLabel(s string) *flowText { return newFitted(s, widget.NewLabel(s), ellipsize) }

// newFitLink is a one-row hyperlink ending in "…" when its text is too
// wide: unlike a button it is never wider than the space it is given.
func newFitLink(s string, tapped func()) *flowText {
	l := widget.NewHyperlink(s, nil)
	l.OnTapped = tapped
	return newFitted(s, l, ellipsize)
}

func newFitted(s string, shown shownText, fit func(string, float32, func(rune) float32) string) *flowText {
	f := &flowText{Text: s, shown: shown, fit: fit, width: -1, rows: s}
	f.ExtendBaseWidget(f)
	return f
}

// SetText shows s, fitted to the current width.
func (f *flowText) SetText(s string) {
	f.Text = s
	f.width = -1
	f.refit(f.Size().Width)
}

// Resize fits the text again when the width changes.
func (f *flowText) Resize(s fyne.Size) {
	if s.Width != f.width {
		f.refit(s.Width)
	}
	f.BaseWidget.Resize(s)
}

// refit shows the text fitted to width w. Before the first layout (width
// 0) it shows the text as it is, unmeasured rows being cheaper than rows
// measured for no width: the fitting comes with the first real size.
func (f *flowText) refit(w float32) {
	f.width = w
	rows := f.Text
	if w > 0 {
		rows = f.fit(f.Text, w-labelPadding(), runeAdvance(fyne.TextStyle{}))
	}
	if rows != f.rows {
		f.rows = rows
		f.shown.SetText(rows)
	}
	f.Refresh()
}

func (f *flowText) CreateRenderer() fyne.WidgetRenderer { return &flowTextRenderer{f} }

type flowTextRenderer struct{ f *flowText }

func (r *flowTextRenderer) Layout(s fyne.Size) { r.f.shown.Resize(s) }

// MinSize is as narrow as one character and as tall as the rows, like a
// wrapped or truncated label: the text takes the width it is given, never
// the width of its longest row, so a window can still be made narrower.
func (r *flowTextRenderer) MinSize() fyne.Size {
	return fyne.NewSize(labelPadding()+runeAdvance(fyne.TextStyle{})('M'), r.f.shown.MinSize().Height)
}

func (r *flowTextRenderer) Refresh()                     { r.f.shown.Refresh() }
func (r *flowTextRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.f.shown} }
func (r *flowTextRenderer) Destroy()                     {}

// labelPadding is the width a widget.Label adds around its text.
func labelPadding() float32 {
	return 2 * theme.Size(theme.SizeNameInnerPadding)
}

// advanceKey names one character's advance in one style and size.
type advanceKey struct {
	r     rune
	style fyne.TextStyle
	size  float32
}

var advances = struct {
	sync.Mutex
	m map[advanceKey]float32
}{m: map[advanceKey]float32{}}

// runeAdvance is the width of a character in style at the theme's text
// size, measured once.
func runeAdvance(st fyne.TextStyle) func(rune) float32 {
	size := theme.TextSize()
	return func(r rune) float32 {
		k := advanceKey{r, st, size}
		advances.Lock()
		w, ok := advances.m[k]
		advances.Unlock()
		if !ok {
			w = fyne.MeasureText(string(r), size, st).Width
			advances.Lock()
			advances.m[k] = w
			advances.Unlock()
		}
		return w
	}
}

// breakRows breaks every line of s into rows no wider than avail, given
// each character's advance.
func breakRows(s string, avail float32, advance func(rune) float32) string {
	lines := strings.Split(s, "\n")
	var b strings.Builder
	for i, line := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		breakLine(&b, []rune(line), avail, advance)
	}
	return b.String()
}

// breakLine writes one line as rows: each as long as fits, cut at the last
// place a line may break; where none is, as much as fits (at least one
// character). Spaces at a break are dropped.
func breakLine(b *strings.Builder, rs []rune, avail float32, advance func(rune) float32) {
	start := 0
	for start < len(rs) {
		end, x := start, float32(0)
		for end < len(rs) {
			x += advance(rs[end])
			if x > avail && end > start {
				break
			}
			end++
		}
		if end < len(rs) {
			if j := lastBreak(rs, start, end); j > start {
				end = j
			}
		}
		b.WriteString(strings.TrimRightFunc(string(rs[start:end]), unicode.IsSpace))
		start = end
		for start < len(rs) && rs[start] == ' ' {
			start++
		}
		if start < len(rs) {
			b.WriteByte('\n')
		}
	}
}

// lastBreak is the last index in (start, end] before which a row may
// begin, or start when there is none.
func lastBreak(rs []rune, start, end int) int {
	for j := end; j > start; j-- {
		if j < len(rs) && breakBefore(rs[j-1], rs[j]) {
			return j
		}
	}
	return start
}

// breakBefore says a row may begin at r, which follows prev: after a space,
// or next to a Chinese character, but never before closing punctuation
// (，。」) or after opening punctuation (「（).
func breakBefore(prev, r rune) bool {
	switch {
	case r == ' ': // the row ends before the spaces, which are dropped
		return prev != ' '
	case prev == ' ':
		return true
	case strings.ContainsRune(noRowStart, r) || strings.ContainsRune(noRowEnd, prev):
		return false
	}
	return wide(prev) || wide(r)
}

// Punctuation a row neither starts nor ends with.
const (
	noRowStart = "，。、；：！？）》」』】〉”’…·%,.;:!?)]}"
	noRowEnd   = "（《「『【〈“‘([{"
)

// wide says r is a character a line may break beside: Han, kana, Hangul
// and full-width forms and punctuation.
func wide(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana, unicode.Hangul) ||
		r >= 0x3000 && r <= 0x303f || r >= 0xff00 && r <= 0xffef
}

// ellipsize is s when it fits in avail, else as much of it as fits
// followed by "…"; the first line only.
func ellipsize(s string, avail float32, advance func(rune) float32) string {
	if avail <= 0 { // a cell not sized yet: nothing to fit it to
		return s
	}
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	x := float32(0)
	for _, r := range s {
		x += advance(r)
	}
	if x <= avail {
		return s
	}
	x, ell := 0, advance('…')
	for i, r := range s {
		if x+advance(r)+ell > avail {
			return s[:i] + "…"
		}
		x += advance(r)
	}
	return s
}
