package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// unitAdvance is 1 for a narrow character and 2 for a wide one.
func unitAdvance(r rune) float32 {
	if wide(r) {
		return 2
	}
	return 1
}

func TestBreakRows(t *testing.T) {
	for _, c := range []struct {
		in    string
		avail float32
		want  string
	}{
		{"", 5, ""},
		{"abc def ghi", 7, "abc def\nghi"},
		{"abc def ghi", 100, "abc def ghi"},
		{"abcdefghij", 4, "abcd\nefgh\nij"},         // a word wider than the row breaks where it must
		{"ab  cd", 3, "ab\ncd"},                     // spaces at a break are dropped
		{"  indented line", 100, "  indented line"}, // a line's own indent stays
		{"ab\ncd", 100, "ab\ncd"},                   // lines stay lines
		{"事项需要材料身份证", 8, "事项需要\n材料身份\n证"},             // Chinese breaks between characters
		{"事项需要材，料", 10, "事项需要\n材，料"},                  // never a row starting with ，
		{"事项「材料」", 6, "事项\n「材\n料」"},                   // nor ending with 「 or starting with 」
		{"CuBE 57.52 指南召回率", 12, "CuBE 57.52\n指南召回率"}, // numbers stay whole
		{"x", 0.5, "x"}, // at least one character a row
	} {
		if got := breakRows(c.in, c.avail, unitAdvance); got != c.want {
			t.Errorf("breakRows(%q, %v) = %q, want %q", c.in, c.avail, got, c.want)
		}
	}
}

// The rows fit the label as Fyne itself measures them, keep every
// character but the spaces at a break, and follow the width.
func TestFlowTextRowsFit(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(newTheme())
	const s = "结论：需改进后部署。CuBE 57.52 ± 5.72 · 指南召回率@8 80.00 % · 检索命中时的回答有效性 71.90；" +
		"评审“词汇基线评审”只作基线（不计入结论），The weighted score ignores the baseline judge, whose numbers are shown but never averaged in."
	f := newFlowText(s)
	var rows []int
	for _, w := range []float32{600, 300, 151, 900} {
		f.Resize(fyne.NewSize(w, 40))
		lines := strings.Split(f.rows, "\n")
		rows = append(rows, len(lines))
		for _, l := range lines {
			if mw := fyne.MeasureText(l, theme.TextSize(), fyne.TextStyle{}).Width; mw > w-labelPadding() {
				t.Errorf("width %v: row %q is %v wide, more than %v", w, l, mw, w-labelPadding())
			}
		}
		if got := strings.ReplaceAll(strings.Join(lines, ""), " ", ""); got != strings.ReplaceAll(s, " ", "") {
			t.Errorf("width %v: rows lost text: %q", w, got)
		}
		if min := f.MinSize(); min.Width > 40 || min.Height < float32(len(lines))*theme.TextSize() {
			t.Errorf("width %v: min size %v for %d rows", w, min, len(lines))
		}
		if f.Text != s {
			t.Errorf("Text became %q", f.Text)
		}
	}
	if !(rows[0] < rows[1] && rows[1] < rows[2] && rows[3] <= rows[0]) {
		t.Errorf("rows at widths 600, 300, 151, 900: %v", rows)
	}
	f.SetText("短")
	if f.rows != "短" {
		t.Errorf("after SetText the label shows %q", f.rows)
	}
}

func TestEllipsize(t *testing.T) {
	for _, c := range []struct {
		in    string
		avail float32
		want  string
	}{
		{"", 5, ""},
		{"abcdef", 6, "abcdef"},
		{"abcdef", 5, "abcd…"},
		{"事项需要", 8, "事项需要"},
		{"事项需要", 7, "事项需…"},
		{"ab\ncd", 10, "ab"}, // one row
	} {
		if got := ellipsize(c.in, c.avail, unitAdvance); got != c.want {
			t.Errorf("ellipsize(%q, %v) = %q, want %q", c.in, c.avail, got, c.want)
		}
	}
}

// The padding the fitting assumes is what a label and a hyperlink add.
func TestLabelPadding(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(newTheme())
	const s = "事项 12 needs 材料"
	text := fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width
	for name, o := range map[string]fyne.CanvasObject{"label": widget.NewLabel(s), "hyperlink": widget.NewHyperlink(s, nil)} {
		if pad := o.MinSize().Width - text; pad != labelPadding() {
			t.Errorf("a %s adds %v around its text; labelPadding says %v", name, pad, labelPadding())
		}
	}
}

// A fitted link shows one row cut to its width as Fyne measures it, keeps
// its text, and still opens what it links to.
func TestFitLink(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(newTheme())
	const s = "q0042 · 相关性低于基线 · 事项 42 需要什么材料？办理时限是多少个工作日？"
	tapped := 0
	f := newFitLink(s, func() { tapped++ })
	f.Resize(fyne.NewSize(200, 40))
	shown := f.shown.(*widget.Hyperlink).Text
	if !strings.HasSuffix(shown, "…") || fyne.MeasureText(shown, theme.TextSize(), fyne.TextStyle{}).Width > 200-labelPadding() {
		t.Errorf("at width 200 the link shows %q", shown)
	}
	if f.Text != s {
		t.Errorf("Text became %q", f.Text)
	}
	test.Tap(f.shown.(*widget.Hyperlink))
	if tapped != 1 {
		t.Errorf("tapping the link ran its action %d times", tapped)
	}
	f.Resize(fyne.NewSize(2000, 40))
	if got := f.shown.(*widget.Hyperlink).Text; got != s {
		t.Errorf("at width 2000 the link shows %q", got)
	}
}
