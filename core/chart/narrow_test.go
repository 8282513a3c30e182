package chart

import (
	"testing"

	"gonum.org/v1/plot/vg"

	"cubeworkbench/core/text"
)

// TestSummaryChartsDrawnAtTheirNarrowSize: the report's one-page summary
// places the CuBE bars three columns wide (160 pt) and, when the notices
// fill the page, 118 pt tall. In English, with the offline judges' glossary
// names under the bars, the legend left the plot no room and the printed
// Summary showed "图幅过小 too small" instead of the chart (issue 26). The
// figure now keeps its bars and drops the legend when both do not fit.
func TestSummaryChartsDrawnAtTheirNarrowSize(t *testing.T) {
	p := func(v float64) *float64 { return &v }
	s := JudgeScores{Judges: []string{"lexical", "semantic"},
		Scores: []Estimate{{p(53.5), p(42.4), p(63.8)}, {p(61.6), p(49.6), p(72.2)}},
		Mean:   Estimate{p(57.5), p(46.2), p(67.8)}}
	for _, lang := range []text.Lang{LangEN, LangZH} {
		before := tooSmallDrawn.Load()
		fig, err := CuBEBars(s, Options{Lang: lang, Width: vg.Length(160.25), Height: 118, DPI: 192})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fig.PNG(); err != nil {
			t.Fatal(err)
		}
		if n := tooSmallDrawn.Load() - before; n != 0 {
			t.Errorf("%s: the CuBE bars at the summary's narrow size were drawn as \"too small\" (%d)", lang, n)
		}
	}
}
