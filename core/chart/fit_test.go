package chart

import (
	"strings"
	"testing"

	"gonum.org/v1/plot/vg"
)

// A title wider than its figure is made smaller, then broken into lines,
// never cut: every line fits the width (the report's one-page summary
// draws charts a third of a page wide).
func TestFitTitle(t *testing.T) {
	if err := registerFont(); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		title string
		width vg.Length
		lines int
	}{
		{"各评审模型的 CuBE 得分（95 % 置信区间）", 600, 1},
		{"各评审模型的 CuBE 得分（95 % 置信区间）", 180, 2},
		{"CuBE score per judge (95 % interval)", 150, 2},
		{"Trimmed means of the three answer sets (mean of judges)", 300, 1},
		{"Trimmed means of the three answer sets (mean of judges)", 200, 2},
	}
	for _, c := range cases {
		sty, got := fitTitle(c.title, c.width)
		lines := strings.Split(got, "\n")
		if len(lines) != c.lines {
			t.Errorf("%q at %v: %d lines %q, want %d", c.title, c.width, len(lines), lines, c.lines)
		}
		if strings.ReplaceAll(strings.Join(lines, ""), " ", "") != strings.ReplaceAll(c.title, " ", "") {
			t.Errorf("%q became %q", c.title, got)
		}
		for _, l := range lines {
			if w := sty.Width(l); w > c.width {
				t.Errorf("%q: line %q is %v wide, over %v", c.title, l, w, c.width)
			}
		}
		if sty.Font.Size < sizeLabel {
			t.Errorf("%q: %v pt, below %v", c.title, sty.Font.Size, sizeLabel)
		}
	}
}
